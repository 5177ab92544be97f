import type { InStatement, InValue, Row } from "@libsql/client";
import {
  type ChangesSince,
  type DashboardRun,
  EXECUTION_STATUSES,
  type ExecutionHistory,
  type ExecutionHistorySummary,
  type ExecutionStatus,
  type HeldReview,
  type SyncOptions,
} from "@stockbridge/shared";
import { type Db, withoutMemoryMapFor } from "../db/client.ts";

/**
 * The mappings a run covers: every mapping of the user (a full sync), the named ones, or the failed
 * mappings of an earlier run (a retry). A run that fails as a whole lists each of them.
 */
export type RunScope = "all" | { mappingIds: readonly string[] } | { retryOf: string };

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
  scope: RunScope;
  syncOptions: SyncOptions;
  /** A check-only schedule's run: it reads and records drift, and writes nothing. */
  checkOnly?: boolean;
}

/** How a run that failed as a whole is closed: when, and with which error text (each mapping gets it). */
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

export interface RunSkip {
  mappingId: string | null;
  shopifySku: string;
  acumaticaSku: string;
  reason: string;
}

export interface RunEnd {
  id: string;
  userId: string;
  endDate: string;
  successCount: number;
  failureCount: number;
  skippedCount: number;
  status: Exclude<ExecutionStatus, "running">;
  error: string | null;
  failures: RunFailure[];
  skips: RunSkip[];
  /** How many of the run's mappings still differ from the ERP after it (left out: not recorded). */
  drifted?: number | null;
  /** A run of every mapping that read only what changed: since when, of how many mappings. */
  changesSince?: ChangesSince | null;
}

/** What a retry needs to know about the run it retries. */
export interface RetrySource {
  status: ExecutionStatus;
  jobId: string | null;
  syncOptions: SyncOptions | null;
  failureCount: number;
}

const ROW_CHUNK = 500;

export const COLUMNS = `id, schedule_id, schedule_name, trigger, start_date, end_date, success_count, failure_count,
  skipped_count, status, error, sync_price, sync_quantity, retry_of,
  held_reasons, held_at, held_change_count, decision, decided_at, check_only, drifted_count, changes_since, changes_of`;

/** Which open entries a statement closes: SQL over the alias `h` (execution_history), and its arguments. */
interface Closing {
  where: string;
  args: InValue[];
}

/**
 * The only SQL for execution history: a run is opened as "running" with a lease and its scope, and
 * closed with its counts, failures and skips. An entry whose lease ran out, or whose job died, is
 * closed as failed, listing every mapping in its scope with the reason.
 */
export function createHistoryRepo(db: Db) {
  async function rowsOf<T>(
    table: "execution_failures" | "execution_skips",
    historyIds: string[],
    toItem: (row: Row) => T,
  ): Promise<Map<string, T[]>> {
    const byHistory = new Map<string, T[]>();
    if (historyIds.length === 0) return byHistory;
    const [text, order] = table === "execution_failures" ? ["error", "rowid"] : ["reason", "seq"];
    const result = await db.execute({
      sql: `SELECT history_id, mapping_id, shopify_sku, acumatica_sku, ${text} FROM ${table}
            WHERE history_id IN (${historyIds.map(() => "?").join(", ")}) ORDER BY history_id, ${order}`,
      args: historyIds,
    });
    for (const row of result.rows) {
      const list = byHistory.get(String(row.history_id)) ?? [];
      list.push(toItem(row));
      byHistory.set(String(row.history_id), list);
    }
    return byHistory;
  }

  const failuresOf = (historyIds: string[]) =>
    rowsOf("execution_failures", historyIds, (row) => ({ ...itemOf(row), error: String(row.error) }));
  const skipsOf = (historyIds: string[]) =>
    rowsOf("execution_skips", historyIds, (row) => ({ ...itemOf(row), reason: String(row.reason) }));

  /**
   * Fails the entries `closing` selects as a whole: each mapping in an entry's scope becomes a
   * failure with `stop.error`, written by the database from the mappings table (a full sync of
   * 10,000 mappings is one INSERT ... SELECT, nothing built in memory). Mappings deleted since are
   * gone and not listed; a full sync covers the mappings that existed when it started. CROSS JOIN
   * keeps SQLite's join order: the closed entries first, each mapping found by its key (left to the
   * planner, a 10,000-id scope was matched against every mapping: 16 s instead of 0.1 s).
   */
  function closeAsFailed(closing: Closing, stop: RunStop): InStatement[] {
    const insert = `INSERT OR IGNORE INTO execution_failures (id, history_id, mapping_id, shopify_sku, acumatica_sku, error)
      SELECT h.id || ':' || m.id, h.id, m.id, m.shopify_sku, m.acumatica_sku, ?`;
    const order = "ORDER BY h.id, m.created_at, m.id";
    return [
      {
        sql: `${insert} FROM execution_history h
              CROSS JOIN mappings m ON m.user_id = h.user_id AND m.created_at <= h.start_date
              WHERE h.scope = 'all' AND ${closing.where} ${order}`,
        args: [stop.error, ...closing.args],
      },
      {
        sql: `${insert} FROM execution_history h
              CROSS JOIN execution_scopes s ON s.history_id = h.id
              CROSS JOIN json_each(s.mapping_ids_json) j
              CROSS JOIN mappings m ON m.id = j.value AND m.user_id = h.user_id
              WHERE h.scope = 'ids' AND ${closing.where} ${order}`,
        args: [stop.error, ...closing.args],
      },
      {
        sql: `${insert} FROM execution_history h
              CROSS JOIN execution_failures f ON f.history_id = h.retry_of
              CROSS JOIN mappings m ON m.id = f.mapping_id AND m.user_id = h.user_id
              WHERE h.scope = 'retry' AND ${closing.where} ${order}`,
        args: [stop.error, ...closing.args],
      },
      {
        sql: `UPDATE execution_history AS h SET status = 'failed', end_date = ?, error = ?, lease_until = NULL,
                success_count = 0, skipped_count = 0,
                failure_count = (SELECT COUNT(*) FROM execution_failures f WHERE f.history_id = h.id)
              WHERE ${closing.where}`,
        args: [stop.endDate, stop.error, ...closing.args],
      },
    ];
  }

  /** Runs `closing`'s statements in one transaction; answers how many entries it closed. */
  async function fail(closing: Closing, stop: RunStop, before: InStatement[] = []): Promise<number> {
    const results = await db.batch([...before, ...closeAsFailed(closing, stop)], "write");
    return results.at(-1)?.rowsAffected ?? 0;
  }

  return {
    async start(run: RunStart): Promise<void> {
      const scope = run.scope === "all" ? "all" : "retryOf" in run.scope ? "retry" : "ids";
      const statements: InStatement[] = [
        {
          sql: `INSERT INTO execution_history (id, user_id, schedule_id, schedule_name, trigger, start_date, status, lease_until, job_id,
                  sync_price, sync_quantity, scope, retry_of, check_only)
                VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?, ?, ?, ?)`,
          args: [
            run.id,
            run.userId,
            run.scheduleId,
            run.scheduleName,
            run.trigger,
            run.startDate,
            run.leaseUntil,
            run.jobId ?? null,
            run.syncOptions.price ? 1 : 0,
            run.syncOptions.quantity ? 1 : 0,
            scope,
            run.scope !== "all" && "retryOf" in run.scope ? run.scope.retryOf : null,
            run.checkOnly ? 1 : 0,
          ],
        },
      ];
      if (run.scope !== "all" && "mappingIds" in run.scope) {
        statements.push({
          sql: "INSERT INTO execution_scopes (history_id, mapping_ids_json) VALUES (?, ?)",
          args: [run.id, JSON.stringify([...new Set(run.scope.mappingIds)])],
        });
      }
      await db.batch(statements, "write");
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
      const scope = userId === undefined ? "" : " AND h.user_id = ?";
      const args = userId === undefined ? [now] : [now, userId];
      // A run whose job is still live is the job's to end: resumed elsewhere, or failed with it.
      const where = `h.status = 'running' AND h.lease_until < ?${scope}
        AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.id = h.job_id AND j.status IN ('queued', 'running'))`;
      const open = await db.execute({
        sql: `SELECT 1 FROM execution_history h WHERE ${where} LIMIT 1`,
        args,
      });
      if (open.rows.length === 0) return 0;
      return fail({ where, args }, stop);
    },

    /** Fails the open entries of jobs that were declared dead. */
    async failOfJobs(jobIds: string[], stop: RunStop): Promise<number> {
      if (jobIds.length === 0) return 0;
      return fail(
        {
          where: "h.status = 'running' AND h.job_id IN (SELECT value FROM json_each(?))",
          args: [JSON.stringify(jobIds)],
        },
        stop,
      );
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
      await fail(
        {
          where: "h.user_id = ? AND h.schedule_id = ? AND h.status = 'running' AND h.start_date >= ?",
          args: [userId, schedule.id, schedule.since],
        },
        stop,
      );
      const count = await db.execute({
        sql: `SELECT COUNT(*) AS entries FROM execution_history
              WHERE user_id = ? AND schedule_id = ? AND start_date >= ?`,
        args: [userId, schedule.id, schedule.since],
      });
      return Number(count.rows[0]?.entries ?? 0);
    },

    /**
     * Closes one run that failed as a whole (its connection failed, its process stopped before it
     * opened the entry), listing every mapping in its scope with the error. What a sweep may have
     * written for it first is replaced: the run's own reason is the better one.
     */
    async failRun(run: { id: string; userId: string }, stop: RunStop): Promise<void> {
      await fail({ where: "h.id = ? AND h.user_id = ?", args: [run.id, run.userId] }, stop, [
        { sql: "DELETE FROM execution_failures WHERE history_id = ?", args: [run.id] },
        { sql: "DELETE FROM execution_skips WHERE history_id = ?", args: [run.id] },
      ]);
    },

    /**
     * Closes a run and stores its failures and skips in one transaction, so a reader never sees half
     * of it. A run that a sweep declared dead while it still worked ends with its real outcome.
     */
    async finish(run: RunEnd): Promise<void> {
      const statements: InStatement[] = [
        { sql: "DELETE FROM execution_failures WHERE history_id = ?", args: [run.id] },
        { sql: "DELETE FROM execution_skips WHERE history_id = ?", args: [run.id] },
        {
          sql: `UPDATE execution_history SET end_date = ?, success_count = ?, failure_count = ?, skipped_count = ?, status = ?, error = ?,
                  lease_until = NULL, drifted_count = ?, changes_since = ?, changes_of = ?
                WHERE id = ? AND user_id = ?`,
          args: [
            run.endDate,
            run.successCount,
            run.failureCount,
            run.skippedCount,
            run.status,
            run.error,
            run.drifted ?? null,
            run.changesSince?.since ?? null,
            run.changesSince?.mappings ?? null,
            run.id,
            run.userId,
          ],
        },
      ];
      for (let start = 0; start < run.failures.length; start += ROW_CHUNK) {
        const chunk = run.failures.slice(start, start + ROW_CHUNK);
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
      for (let start = 0; start < run.skips.length; start += ROW_CHUNK) {
        const chunk = run.skips.slice(start, start + ROW_CHUNK);
        statements.push({
          sql: `INSERT INTO execution_skips (history_id, seq, mapping_id, shopify_sku, acumatica_sku, reason)
                VALUES ${chunk.map(() => "(?, ?, ?, ?, ?, ?)").join(", ")}`,
          args: chunk.flatMap((skip, index) => [
            run.id,
            start + index,
            skip.mappingId,
            skip.shopifySku,
            skip.acumaticaSku,
            skip.reason,
          ]),
        });
      }
      await withoutMemoryMapFor(db, run.failures.length + run.skips.length, () =>
        db.batch(statements, "write"),
      );
    },

    /** Entries read with COLUMNS as the list shows them (the change feed's rows). */
    async summaries(rows: Row[]): Promise<ExecutionHistorySummary[]> {
      const failures = await failuresOf(rows.map((row) => String(row.id)));
      return rows.map((row) => toSummary(row, failures.get(String(row.id)) ?? []));
    },

    /** Newest first, without the skipped mappings (a page of ten large runs would carry thousands). */
    async page(
      userId: string,
      options: { offset: number; limit: number },
    ): Promise<{ histories: ExecutionHistorySummary[]; total: number }> {
      const [rows, count] = await db.batch(
        [
          {
            sql: `SELECT ${COLUMNS} FROM execution_history WHERE user_id = ? ORDER BY start_date DESC, id DESC LIMIT ? OFFSET ?`,
            args: [userId, options.limit, options.offset],
          },
          { sql: "SELECT COUNT(*) AS total FROM execution_history WHERE user_id = ?", args: [userId] },
        ],
        "read",
      );
      const entries = rows?.rows ?? [];
      const failures = await failuresOf(entries.map((row) => String(row.id)));
      return {
        histories: entries.map((row) => toSummary(row, failures.get(String(row.id)) ?? [])),
        total: Number(count?.rows[0]?.total ?? 0),
      };
    },

    async get(userId: string, id: string): Promise<ExecutionHistory | null> {
      const result = await db.execute({
        sql: `SELECT ${COLUMNS} FROM execution_history WHERE user_id = ? AND id = ?`,
        args: [userId, id],
      });
      const row = result.rows[0];
      if (!row) return null;
      const [failures, skips] = await Promise.all([failuresOf([id]), skipsOf([id])]);
      return { ...toSummary(row, failures.get(id) ?? []), skippedMappings: skips.get(id) ?? [] };
    },

    /** A run's outcome without its failed and skipped mappings (an alert needs only the counts). */
    async outcome(userId: string, id: string): Promise<RunOutcome | null> {
      const result = await db.execute({
        sql: `SELECT ${COLUMNS} FROM execution_history WHERE user_id = ? AND id = ?`,
        args: [userId, id],
      });
      const row = result.rows[0];
      return row ? { ...runBasicsOf(row), error: row.error === null ? null : String(row.error) } : null;
    },

    /** The user's run `id` as a retry sees it; null when it is not theirs or does not exist. */
    async retrySource(userId: string, id: string): Promise<RetrySource | null> {
      const result = await db.execute({
        sql: `SELECT status, job_id, sync_price, sync_quantity,
                (SELECT COUNT(*) FROM execution_failures f WHERE f.history_id = h.id) AS failures
              FROM execution_history h WHERE h.id = ? AND h.user_id = ?`,
        args: [id, userId],
      });
      const row = result.rows[0];
      if (!row) return null;
      return {
        status: statusOf(row.status),
        jobId: row.job_id === null ? null : String(row.job_id),
        syncOptions: syncOptionsOf(row),
        failureCount: Number(row.failures),
      };
    },

    /** The ids of the run's failed mappings that are still the user's mappings, in the run's order. */
    async failedMappingIds(userId: string, id: string): Promise<string[]> {
      const result = await db.execute({
        sql: `SELECT m.id FROM execution_failures f JOIN mappings m ON m.id = f.mapping_id AND m.user_id = ?
              WHERE f.history_id = ? ORDER BY f.rowid`,
        args: [userId, id],
      });
      return [...new Set(result.rows.map((row) => String(row.id)))];
    },
  };
}

export type HistoryRepo = ReturnType<typeof createHistoryRepo>;

function itemOf(row: Row) {
  return {
    mappingId: row.mapping_id === null ? null : String(row.mapping_id),
    shopifySku: String(row.shopify_sku),
    acumaticaSku: String(row.acumatica_sku),
  };
}

function statusOf(value: unknown): ExecutionStatus {
  return EXECUTION_STATUSES.find((status) => status === value) ?? "running";
}

function syncOptionsOf(row: Row): SyncOptions | null {
  if (row.sync_price === null || row.sync_quantity === null) return null;
  return { price: Number(row.sync_price) === 1, quantity: Number(row.sync_quantity) === 1 };
}

/** A finished run's status, counts and error, without the lists of mappings. */
export type RunOutcome = DashboardRun & { error: string | null };

/** What every view of a run shows (the list, one entry, the dashboard's last run). */
export function runBasicsOf(row: Row): DashboardRun {
  return {
    _id: String(row.id),
    schedule:
      row.schedule_name === null
        ? null
        : { _id: row.schedule_id === null ? null : String(row.schedule_id), name: String(row.schedule_name) },
    trigger: String(row.trigger) === "schedule" ? "schedule" : "manual",
    startDate: String(row.start_date),
    endDate: row.end_date === null ? null : String(row.end_date),
    status: statusOf(row.status),
    successCount: Number(row.success_count),
    failureCount: Number(row.failure_count),
    skippedCount: Number(row.skipped_count),
  };
}

function toSummary(row: Row, failedMappings: ExecutionHistory["failedMappings"]): ExecutionHistorySummary {
  return {
    ...runBasicsOf(row),
    error: row.error === null ? null : String(row.error),
    failedMappings,
    syncOptions: syncOptionsOf(row),
    retryOf: row.retry_of === null ? null : String(row.retry_of),
    checkOnly: Number(row.check_only) === 1,
    drifted: row.drifted_count === null || row.drifted_count === undefined ? null : Number(row.drifted_count),
    ...(row.changes_since === null || row.changes_since === undefined
      ? {}
      : { changesSince: { since: String(row.changes_since), mappings: Number(row.changes_of) } }),
    ...(row.held_at === null || row.held_at === undefined ? {} : { review: reviewOf(row) }),
  };
}

/** A held run's review as stored: the reasons are a short JSON list of texts. */
function reviewOf(row: Row): HeldReview {
  const parsed: unknown = JSON.parse(String(row.held_reasons ?? "[]"));
  const decision = String(row.decision);
  return {
    reasons: Array.isArray(parsed) ? parsed.map(String) : [],
    heldAt: String(row.held_at),
    changes: Number(row.held_change_count ?? 0),
    decision: decision === "approved" || decision === "discarded" ? decision : null,
    decidedAt: row.decided_at === null ? null : String(row.decided_at),
  };
}
