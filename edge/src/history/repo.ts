import type { Row } from "@libsql/client";
import type { ExecutionHistory } from "@stockbridge/shared";
import type { Db } from "../db/client.ts";

export interface RunStart {
  id: string;
  userId: string;
  trigger: ExecutionHistory["trigger"];
  scheduleId: string | null;
  scheduleName: string | null;
  startDate: string;
  /** Until when the entry counts as alive without a renewal (the run renews it while it works). */
  leaseUntil: string;
  /** The job the run belongs to (multi-mapping and full syncs): a dead job ends its entry. */
  jobId?: string | null;
  /** A check-only schedule's run: it reads and records drift, and writes nothing. */
  checkOnly?: boolean;
}

/** How a run that stopped with its process is closed: when, and with which error text. */
export interface RunStop {
  endDate: string;
  error: string;
}

export interface RunFailure {
  mappingId: string | null;
  shopifySku: string;
  acumaticaSku: string;
  error: string;
}

export interface RunEnd {
  id: string;
  userId: string;
  endDate: string;
  successCount: number;
  failureCount: number;
  skippedCount: number;
  status: "completed" | "failed";
  error: string | null;
  failures: RunFailure[];
  /** How many of the run's mappings still differ from the ERP after it (left out: not recorded). */
  drifted?: number | null;
}

const FAILURE_CHUNK = 500;

/**
 * The only SQL for execution history: a run is opened as "running" with a lease and closed with its
 * counts and failures; an entry whose lease ran out, or whose job died, is closed as failed.
 */
export function createHistoryRepo(db: Db) {
  async function failuresOf(historyIds: string[]): Promise<Map<string, ExecutionHistory["failedMappings"]>> {
    const byHistory = new Map<string, ExecutionHistory["failedMappings"]>();
    if (historyIds.length === 0) return byHistory;
    const result = await db.execute({
      sql: `SELECT history_id, mapping_id, shopify_sku, acumatica_sku, error FROM execution_failures
            WHERE history_id IN (${historyIds.map(() => "?").join(", ")}) ORDER BY rowid`,
      args: historyIds,
    });
    for (const row of result.rows) {
      const list = byHistory.get(String(row.history_id)) ?? [];
      list.push({
        mappingId: row.mapping_id === null ? null : String(row.mapping_id),
        shopifySku: String(row.shopify_sku),
        acumaticaSku: String(row.acumatica_sku),
        error: String(row.error),
      });
      byHistory.set(String(row.history_id), list);
    }
    return byHistory;
  }

  return {
    async start(run: RunStart): Promise<void> {
      await db.execute({
        sql: `INSERT INTO execution_history (id, user_id, schedule_id, schedule_name, trigger, start_date, status, lease_until, job_id,
                check_only)
              VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?, ?)`,
        args: [
          run.id,
          run.userId,
          run.scheduleId,
          run.scheduleName,
          run.trigger,
          run.startDate,
          run.leaseUntil,
          run.jobId ?? null,
          run.checkOnly ? 1 : 0,
        ],
      });
    },

    /** Keeps a working run's entry alive; false when it was already closed (e.g. declared dead). */
    async renew(id: string, leaseUntil: string): Promise<boolean> {
      const result = await db.execute({
        sql: "UPDATE execution_history SET lease_until = ? WHERE id = ? AND status = 'running'",
        args: [leaseUntil, id],
      });
      return result.rowsAffected > 0;
    },

    /**
     * Fails the open entries whose lease ran out before `now` (their process stopped), of one user
     * or of everyone. A read first: the usual answer is "none", and that should not take the write lock.
     */
    async failExpired(now: string, stop: RunStop, userId?: string): Promise<number> {
      const scope = userId === undefined ? "" : " AND user_id = ?";
      const scopeArgs = userId === undefined ? [] : [userId];
      const open = await db.execute({
        sql: `SELECT 1 FROM execution_history WHERE status = 'running' AND lease_until < ?${scope} LIMIT 1`,
        args: [now, ...scopeArgs],
      });
      if (open.rows.length === 0) return 0;
      const result = await db.execute({
        sql: `UPDATE execution_history SET status = 'failed', end_date = ?, error = ?, lease_until = NULL
              WHERE status = 'running' AND lease_until < ?${scope}`,
        args: [stop.endDate, stop.error, now, ...scopeArgs],
      });
      return result.rowsAffected;
    },

    /** Fails the open entries of jobs that were declared dead. */
    async failOfJobs(jobIds: string[], stop: RunStop): Promise<number> {
      if (jobIds.length === 0) return 0;
      const result = await db.execute({
        sql: `UPDATE execution_history SET status = 'failed', end_date = ?, error = ?, lease_until = NULL
              WHERE status = 'running' AND job_id IN (SELECT value FROM json_each(?))`,
        args: [stop.endDate, stop.error, JSON.stringify(jobIds)],
      });
      return result.rowsAffected;
    },

    /**
     * Fails the entries a stopped scheduled run left open; answers how many entries that run has,
     * open or already closed by a sweep (zero when the process stopped before the engine opened one).
     */
    async failOfSchedule(
      userId: string,
      schedule: { id: string; since: string },
      stop: RunStop,
    ): Promise<number> {
      const [, count] = await db.batch(
        [
          {
            sql: `UPDATE execution_history SET status = 'failed', end_date = ?, error = ?, lease_until = NULL
                  WHERE user_id = ? AND schedule_id = ? AND status = 'running' AND start_date >= ?`,
            args: [stop.endDate, stop.error, userId, schedule.id, schedule.since],
          },
          {
            sql: `SELECT COUNT(*) AS entries FROM execution_history
                  WHERE user_id = ? AND schedule_id = ? AND start_date >= ?`,
            args: [userId, schedule.id, schedule.since],
          },
        ],
        "write",
      );
      return Number(count?.rows[0]?.entries ?? 0);
    },

    /** Closes a run and stores its failures in one transaction, so a reader never sees half of it. */
    async finish(run: RunEnd): Promise<void> {
      const statements = [
        {
          sql: `UPDATE execution_history SET end_date = ?, success_count = ?, failure_count = ?, skipped_count = ?, status = ?, error = ?,
                  lease_until = NULL, drifted_count = ?
                WHERE id = ? AND user_id = ?`,
          args: [
            run.endDate,
            run.successCount,
            run.failureCount,
            run.skippedCount,
            run.status,
            run.error,
            run.drifted ?? null,
            run.id,
            run.userId,
          ],
        },
      ];
      for (let start = 0; start < run.failures.length; start += FAILURE_CHUNK) {
        const chunk = run.failures.slice(start, start + FAILURE_CHUNK);
        statements.push({
          sql: `INSERT INTO execution_failures (id, history_id, mapping_id, shopify_sku, acumatica_sku, error)
                VALUES ${chunk.map(() => "(?, ?, ?, ?, ?, ?)").join(", ")}`,
          args: chunk.flatMap((failure, index) => [
            `${run.id}:${start + index}`,
            run.id,
            failure.mappingId,
            failure.shopifySku,
            failure.acumaticaSku,
            failure.error,
          ]),
        });
      }
      await db.batch(statements, "write");
    },

    /** Newest first. */
    async page(
      userId: string,
      options: { offset: number; limit: number },
    ): Promise<{ histories: ExecutionHistory[]; total: number }> {
      const [rows, count] = await db.batch(
        [
          {
            sql: "SELECT * FROM execution_history WHERE user_id = ? ORDER BY start_date DESC, id DESC LIMIT ? OFFSET ?",
            args: [userId, options.limit, options.offset],
          },
          { sql: "SELECT COUNT(*) AS total FROM execution_history WHERE user_id = ?", args: [userId] },
        ],
        "read",
      );
      const entries = rows?.rows ?? [];
      const failures = await failuresOf(entries.map((row) => String(row.id)));
      return {
        histories: entries.map((row) => toHistory(row, failures.get(String(row.id)) ?? [])),
        total: Number(count?.rows[0]?.total ?? 0),
      };
    },

    async get(userId: string, id: string): Promise<ExecutionHistory | null> {
      const result = await db.execute({
        sql: "SELECT * FROM execution_history WHERE user_id = ? AND id = ?",
        args: [userId, id],
      });
      const row = result.rows[0];
      if (!row) return null;
      const failures = await failuresOf([id]);
      return toHistory(row, failures.get(id) ?? []);
    },
  };
}

export type HistoryRepo = ReturnType<typeof createHistoryRepo>;

function toHistory(row: Row, failedMappings: ExecutionHistory["failedMappings"]): ExecutionHistory {
  const status = String(row.status);
  return {
    _id: String(row.id),
    schedule:
      row.schedule_name === null
        ? null
        : { _id: row.schedule_id === null ? null : String(row.schedule_id), name: String(row.schedule_name) },
    trigger: String(row.trigger) === "schedule" ? "schedule" : "manual",
    startDate: String(row.start_date),
    endDate: row.end_date === null ? null : String(row.end_date),
    successCount: Number(row.success_count),
    failureCount: Number(row.failure_count),
    skippedCount: Number(row.skipped_count),
    status: status === "completed" || status === "failed" ? status : "running",
    error: row.error === null ? null : String(row.error),
    failedMappings,
    checkOnly: Number(row.check_only) === 1,
    drifted: row.drifted_count === null || row.drifted_count === undefined ? null : Number(row.drifted_count),
  };
}
