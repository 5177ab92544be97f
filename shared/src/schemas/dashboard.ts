import * as v from "valibot";
import { isValidTimeZone } from "../schedule.ts";
import { PlanLimitsSchema } from "./billing.ts";
import { EXECUTION_STATUSES } from "./history.ts";

export const DASHBOARD_DAYS = 30;

export const DashboardQuerySchema = v.object({
  /** The IANA zone whose calendar days the chart counts (the browser's). */
  timezone: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(64, "timezone is too long"),
      v.check(isValidTimeZone, "timezone must be an IANA time zone, e.g. Europe/Berlin"),
    ),
    "UTC",
  ),
});
export type DashboardQuery = v.InferOutput<typeof DashboardQuerySchema>;

/** Runs that had any failure in a window, and how many items failed in them. */
const FailureWindowSchema = v.object({ runs: v.number(), items: v.number() });

export const DashboardRunSchema = v.object({
  _id: v.string(),
  schedule: v.nullable(v.object({ _id: v.nullable(v.string()), name: v.string() })),
  trigger: v.picklist(["manual", "schedule"]),
  startDate: v.string(),
  endDate: v.nullable(v.string()),
  status: v.picklist(EXECUTION_STATUSES),
  successCount: v.number(),
  failureCount: v.number(),
  skippedCount: v.number(),
});
export type DashboardRun = v.InferOutput<typeof DashboardRunSchema>;

/** One calendar day of the chart: its runs and the items they synced, failed and skipped. */
export const DashboardDaySchema = v.object({
  /** YYYY-MM-DD in the asked time zone. */
  date: v.string(),
  runs: v.number(),
  successes: v.number(),
  failures: v.number(),
  skipped: v.number(),
});
export type DashboardDay = v.InferOutput<typeof DashboardDaySchema>;

/** "Is my store in sync?" in one answer. */
export const DashboardSchema = v.object({
  /** The newest run, running or ended; null before the first. */
  lastRun: v.nullable(DashboardRunSchema),
  /** The next run an active schedule will make (schedules the plan pauses are left out). */
  nextRun: v.nullable(v.object({ scheduleId: v.string(), scheduleName: v.string(), at: v.string() })),
  failures: v.object({ last24Hours: FailureWindowSchema, last7Days: FailureWindowSchema }),
  catalog: v.object({
    shopifyProducts: v.number(),
    shopifyVariants: v.number(),
    acumaticaItems: v.number(),
  }),
  mappings: v.object({
    mapped: v.number(),
    unmappedShopify: v.number(),
    unmappedAcumatica: v.number(),
  }),
  /** The plan's limits, so the counts can be read against them. */
  limits: PlanLimitsSchema,
  /** How many mappings differ from the ERP at the latest check (null before the first check). */
  drift: v.object({
    checkedAt: v.nullable(v.string()),
    mappings: v.number(),
    drifted: v.number(),
  }),
  /** Alerts not read yet (the bell's count). */
  unreadAlerts: v.number(),
  /** The last 30 days, oldest first, today last. */
  days: v.array(DashboardDaySchema),
  timezone: v.string(),
});
export type Dashboard = v.InferOutput<typeof DashboardSchema>;
