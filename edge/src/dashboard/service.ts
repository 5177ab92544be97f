import {
  DASHBOARD_DAYS,
  type Dashboard,
  type DashboardQuery,
  NO_PLAN_LIMITS,
  planAllowsSchedule,
} from "@stockbridge/shared";
import type { AlertsRepo } from "../alerts/repo.ts";
import type { PlanGate } from "../billing/plan-gate.ts";
import type { DriftRepo } from "../drift/repo.ts";
import type { HistoryRepo } from "../history/repo.ts";
import { RUN_STOPPED } from "../history/run-lease.ts";
import type { MappingRepo } from "../mapping/repo.ts";
import type { SchedulesRepo } from "../schedules/repo.ts";
import { lastDays } from "./days.ts";
import type { DashboardRepo } from "./repo.ts";

export interface DashboardServiceDeps {
  repo: DashboardRepo;
  history: HistoryRepo;
  schedules: SchedulesRepo;
  mappings: MappingRepo;
  plans: PlanGate;
  drift: Pick<DriftRepo, "summary">;
  alerts: Pick<AlertsRepo, "unreadCount">;
  now: () => Date;
}

/** How many of the soonest active schedules are looked at for one the plan lets run. */
const NEXT_RUN_CANDIDATES = 50;
const HOUR_MS = 3_600_000;

/** "Is my store in sync?": the figures of the dashboard in one read. */
export function createDashboardService(deps: DashboardServiceDeps) {
  /** The soonest run an active schedule will make; schedules the plan pauses do not run. */
  async function nextRun(userId: string, limits: Dashboard["limits"]): Promise<Dashboard["nextRun"]> {
    const schedules = await deps.schedules.activeByNextRun(userId, NEXT_RUN_CANDIDATES);
    const next = schedules.find((schedule) => planAllowsSchedule(limits, schedule.schedule));
    return next?.nextRun ? { scheduleId: next._id, scheduleName: next.name, at: next.nextRun } : null;
  }

  /** The latest check's counts (no rows: the Drift view lists them). */
  async function driftOf(userId: string): Promise<Dashboard["drift"]> {
    const { check, drifted } = await deps.drift.summary(userId, 0);
    return { checkedAt: check?.checkedAt ?? null, mappings: check?.mappings ?? 0, drifted };
  }

  return {
    async read(userId: string, query: DashboardQuery): Promise<Dashboard> {
      const now = deps.now();
      const at = now.toISOString();
      // As the history list does: a run whose process stopped shows as failed, not running.
      await deps.history.failExpired(at, { endDate: at, error: RUN_STOPPED }, userId);
      const limits = (await deps.plans.current(userId))?.limits ?? NO_PLAN_LIMITS;
      const failures = await deps.repo.failuresSince(userId, {
        day: new Date(now.getTime() - 24 * HOUR_MS).toISOString(),
        week: new Date(now.getTime() - 7 * 24 * HOUR_MS).toISOString(),
      });
      return {
        lastRun: await deps.repo.lastRun(userId),
        nextRun: await nextRun(userId, limits),
        failures,
        catalog: await deps.repo.catalog(userId),
        mappings: {
          mapped: await deps.mappings.count(userId),
          unmappedShopify: await deps.mappings.unmappedTotal("shopify", userId, ""),
          unmappedAcumatica: await deps.mappings.unmappedTotal("acumatica", userId, ""),
        },
        limits,
        drift: await driftOf(userId),
        unreadAlerts: await deps.alerts.unreadCount(userId),
        days: await deps.repo.days(userId, lastDays(query.timezone, now, DASHBOARD_DAYS)),
        timezone: query.timezone,
      };
    },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
