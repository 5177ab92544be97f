import { MIGRATIONS } from "../db/migrations/index.ts";
import type { GaugeReading } from "../observability/metrics.ts";
import type { SystemRepo } from "./repo.ts";

/** The cron job's name in cron_ticks (main.ts registers it with Deno.cron every minute). */
export const SCHEDULES_CRON = "stockbridge-schedules";
/** A minute-by-minute cron that has not ticked for this long has stopped. */
const CRON_LATE_MS = 3 * 60_000;
/** A job queued this long is not being picked up. */
const QUEUED_JOB_LATE_MS = 10 * 60_000;

export type CheckState = "ok" | "unavailable" | "behind" | "late" | "stuck";

export interface HealthReport {
  healthy: boolean;
  checks: { db: CheckState; schema: CheckState; cron: CheckState; queue: CheckState };
  schemaVersion: number | null;
  expectedSchemaVersion: number;
  lastTickAt: string | null;
  oldestQueuedJobAgeSeconds: number | null;
}

/**
 * What `/api/health` and the metrics endpoint know about the whole system, read from the database
 * so every instance answers the same. Lateness counts from `startedAt` at the earliest: a process
 * started on a database whose last tick (or oldest queued job) is old has not yet had the time to
 * tick (or pick the job up), and a restart must not start out unhealthy.
 */
export function createSystemService(deps: { repo: SystemRepo; now: () => Date; startedAt: Date }) {
  const expectedSchemaVersion = Math.max(...MIGRATIONS.map((migration) => migration.version));
  return {
    async health(): Promise<HealthReport> {
      const report: HealthReport = {
        healthy: false,
        checks: { db: "unavailable", schema: "unavailable", cron: "unavailable", queue: "unavailable" },
        schemaVersion: null,
        expectedSchemaVersion,
        lastTickAt: null,
        oldestQueuedJobAgeSeconds: null,
      };
      try {
        await deps.repo.ping();
        report.checks.db = "ok";
        const [schemaVersion, lastTickAt, oldestQueued] = await Promise.all([
          deps.repo.schemaVersion(),
          deps.repo.lastTick(SCHEDULES_CRON),
          deps.repo.oldestQueuedJob(),
        ]);
        const now = deps.now().getTime();
        report.schemaVersion = schemaVersion;
        // Ahead is fine: a newer deploy migrated while this instance still runs.
        report.checks.schema = schemaVersion >= expectedSchemaVersion ? "ok" : "behind";
        report.lastTickAt = lastTickAt;
        const started = deps.startedAt.getTime();
        const tickedAt = Math.max(lastTickAt ? Date.parse(lastTickAt) : 0, started);
        report.checks.cron = now - tickedAt > CRON_LATE_MS ? "late" : "ok";
        const queuedAt = oldestQueued ? Date.parse(oldestQueued) : null;
        report.oldestQueuedJobAgeSeconds =
          queuedAt === null ? null : Math.round(Math.max(0, now - queuedAt) / 1000);
        report.checks.queue =
          queuedAt !== null && now - Math.max(queuedAt, started) > QUEUED_JOB_LATE_MS ? "stuck" : "ok";
      } catch {
        // The database stopped answering part-way: the checks not reached stay "unavailable".
      }
      report.healthy = Object.values(report.checks).every((state) => state === "ok");
      return report;
    },

    recordTick(): Promise<void> {
      return deps.repo.recordTick(SCHEDULES_CRON, deps.now());
    },

    /** Gauges for the metrics endpoint: jobs by kind and status, sync items by outcome. */
    async gauges(): Promise<GaugeReading[]> {
      const [jobs, items] = await Promise.all([deps.repo.jobCounts(), deps.repo.syncItemCounts()]);
      return [
        {
          name: "stockbridge_jobs",
          help: "Jobs in the database, by kind and status (succeeded and failed are outcomes)",
          series: jobs.map((row) => ({ labels: { kind: row.kind, status: row.status }, value: row.count })),
        },
        {
          name: "stockbridge_sync_items",
          help: "Items of all recorded sync runs, by outcome",
          series: Object.entries(items).map(([outcome, value]) => ({ labels: { outcome }, value })),
        },
      ];
    },
  };
}

export type SystemService = ReturnType<typeof createSystemService>;
