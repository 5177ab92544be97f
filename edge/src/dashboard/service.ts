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
      // The figures are independent reads: sent together, a remote database answers them in
      // about one round trip instead of twelve (the next run needs the plan's limits first).
      const limitsAndNext = deps.plans.current(userId).then(async (plan) => {
        const limits = plan?.limits ?? NO_PLAN_LIMITS;
        return { limits, nextRun: await nextRun(userId, limits) };
      });
      const [
        { limits, nextRun: next },
        failures,
        lastRun,
        catalog,
        mapped,
        unmappedShopify,
        unmappedAcumatica,
        drift,
        unreadAlerts,
        days,
      ] = await Promise.all([
        limitsAndNext,
        deps.repo.failuresSince(userId, {
          day: new Date(now.getTime() - 24 * HOUR_MS).toISOString(),
          week: new Date(now.getTime() - 7 * 24 * HOUR_MS).toISOString(),
        }),
        deps.repo.lastRun(userId),
        deps.repo.catalog(userId),
        deps.mappings.count(userId),
        deps.mappings.unmappedTotal("shopify", userId, ""),
        deps.mappings.unmappedTotal("acumatica", userId, ""),
        driftOf(userId),
        deps.alerts.unreadCount(userId),
        deps.repo.days(userId, lastDays(query.timezone, now, DASHBOARD_DAYS)),
      ]);
      return {
        lastRun,
        nextRun: next,
        failures,
        catalog,
        mappings: { mapped, unmappedShopify, unmappedAcumatica },
        limits,
        drift,
        unreadAlerts,
        days,
        timezone: query.timezone,
      };
    },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
