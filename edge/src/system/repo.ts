import type { Db } from "../db/client.ts";

/** The SQL behind health and the metrics read from the database (the same for every instance). */
export function createSystemRepo(db: Db) {
  return {
    async ping(): Promise<void> {
      await db.execute("SELECT 1");
    },

    async schemaVersion(): Promise<number> {
      const row = (await db.execute("SELECT MAX(version) AS version FROM schema_migrations")).rows[0];
      return Number(row?.version ?? 0);
    },

    /** Kept by every instance's cron tick: health reads it, whichever instance ticked. */
    async recordTick(name: string, at: Date): Promise<void> {
      await db.execute({
        sql: `INSERT INTO cron_ticks (name, ticked_at) VALUES (?, ?)
              ON CONFLICT(name) DO UPDATE SET ticked_at = excluded.ticked_at`,
        args: [name, at.toISOString()],
      });
    },

    async lastTick(name: string): Promise<string | null> {
      const row = (await db.execute({ sql: "SELECT ticked_at FROM cron_ticks WHERE name = ?", args: [name] }))
        .rows[0];
      return row ? String(row.ticked_at) : null;
    },

    async oldestQueuedJob(): Promise<string | null> {
      const row = (await db.execute("SELECT MIN(created_at) AS created_at FROM jobs WHERE status = 'queued'"))
        .rows[0];
      return row?.created_at == null ? null : String(row.created_at);
    },

    async jobCounts(): Promise<{ kind: string; status: string; count: number }[]> {
      const result = await db.execute(
        "SELECT kind, status, COUNT(*) AS count FROM jobs GROUP BY kind, status",
      );
      return result.rows.map((row) => ({
        kind: String(row.kind),
        status: String(row.status),
        count: Number(row.count),
      }));
    },

    /** Items of every recorded sync run, by outcome. */
    async syncItemCounts(): Promise<{ succeeded: number; failed: number; skipped: number }> {
      const row = (
        await db.execute(
          `SELECT COALESCE(SUM(success_count), 0) AS succeeded, COALESCE(SUM(failure_count), 0) AS failed,
                  COALESCE(SUM(skipped_count), 0) AS skipped
           FROM execution_history`,
        )
      ).rows[0];
      return {
        succeeded: Number(row?.succeeded ?? 0),
        failed: Number(row?.failed ?? 0),
        skipped: Number(row?.skipped ?? 0),
      };
    },
  };
}

export type SystemRepo = ReturnType<typeof createSystemRepo>;
