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
}

const FAILURE_CHUNK = 500;

/** The only SQL for execution history: a run is opened as "running" and closed with its counts and failures. */
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
        sql: `INSERT INTO execution_history (id, user_id, schedule_id, schedule_name, trigger, start_date, status)
              VALUES (?, ?, ?, ?, ?, ?, 'running')`,
        args: [run.id, run.userId, run.scheduleId, run.scheduleName, run.trigger, run.startDate],
      });
    },

    /** Closes a run and stores its failures in one transaction, so a reader never sees half of it. */
    async finish(run: RunEnd): Promise<void> {
      const statements = [
        {
          sql: `UPDATE execution_history SET end_date = ?, success_count = ?, failure_count = ?, skipped_count = ?, status = ?, error = ?
                WHERE id = ? AND user_id = ?`,
          args: [
            run.endDate,
            run.successCount,
            run.failureCount,
            run.skippedCount,
            run.status,
            run.error,
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
  };
}
