import type { Row } from "@libsql/client";
import type { Job } from "@stockbridge/shared";
import type { Db } from "../db/client.ts";

export type JobKind = Job["kind"];

/** The only SQL for job rows. */
export function createJobsRepo(db: Db) {
  return {
    /**
     * Inserts a running job unless the user already has a live one of this kind: one statement, so
     * two requests at the same moment cannot both start. A job whose lease ran out does not count.
     */
    async insertIfIdle(job: {
      id: string;
      userId: string;
      kind: JobKind;
      now: string;
      leaseUntil: string;
      phase: string;
    }): Promise<boolean> {
      const result = await db.execute({
        sql: `INSERT INTO jobs (id, user_id, kind, status, phase, lease_until, created_at, started_at)
              SELECT ?, ?, ?, 'running', ?, ?, ?, ?
              WHERE NOT EXISTS (
                SELECT 1 FROM jobs WHERE user_id = ? AND kind = ? AND status IN ('queued', 'running')
                  AND (lease_until IS NULL OR lease_until > ?))`,
        args: [
          job.id,
          job.userId,
          job.kind,
          job.phase,
          job.leaseUntil,
          job.now,
          job.now,
          job.userId,
          job.kind,
          job.now,
        ],
      });
      return result.rowsAffected === 1;
    },

    /** The user's live job of this kind (what `insertIfIdle` found in the way), if any. */
    async liveJobId(userId: string, kind: JobKind, now: string): Promise<string | null> {
      const result = await db.execute({
        sql: `SELECT id FROM jobs WHERE user_id = ? AND kind = ? AND status IN ('queued', 'running')
                AND (lease_until IS NULL OR lease_until > ?) ORDER BY created_at DESC LIMIT 1`,
        args: [userId, kind, now],
      });
      const row = result.rows[0];
      return row ? String(row.id) : null;
    },

    async find(userId: string, id: string): Promise<Job | null> {
      const result = await db.execute({
        sql: "SELECT * FROM jobs WHERE id = ? AND user_id = ?",
        args: [id, userId],
      });
      const row = result.rows[0];
      return row ? toJob(row) : null;
    },

    async progress(
      id: string,
      update: { done: number; total: number | null; phase: string; leaseUntil: string },
    ) {
      await db.execute({
        sql: "UPDATE jobs SET progress_done = ?, progress_total = ?, phase = ?, lease_until = ? WHERE id = ? AND status = 'running'",
        args: [update.done, update.total, update.phase, update.leaseUntil, id],
      });
    },

    async finish(
      id: string,
      outcome: { status: "succeeded" | "failed"; message: string | null; result: unknown; now: string },
    ) {
      await db.execute({
        sql: `UPDATE jobs SET status = ?, message = ?, result_json = ?, finished_at = ?, lease_until = NULL WHERE id = ?`,
        args: [
          outcome.status,
          outcome.message,
          outcome.result === null ? null : JSON.stringify(outcome.result),
          outcome.now,
          id,
        ],
      });
    },

    async leaseExpired(id: string, now: string): Promise<boolean> {
      const result = await db.execute({
        sql: "SELECT lease_until < ? AS expired FROM jobs WHERE id = ?",
        args: [now, id],
      });
      return Number(result.rows[0]?.expired) === 1;
    },

    /** Marks jobs whose lease ran out (their process stopped) as failed; answers the ids it failed. */
    async failExpired(now: string, message: string, keep: string[]): Promise<string[]> {
      const result = await db.execute({
        sql: `UPDATE jobs SET status = 'failed', message = ?, finished_at = ?, lease_until = NULL
              WHERE status IN ('queued', 'running') AND lease_until IS NOT NULL AND lease_until < ?
                AND id NOT IN (SELECT value FROM json_each(?))
              RETURNING id`,
        args: [message, now, now, JSON.stringify(keep)],
      });
      return result.rows.map((row) => String(row.id));
    },

    /** Fails the named jobs that are still live (this process stops with them unfinished). */
    async failLive(ids: string[], message: string, now: string): Promise<string[]> {
      const result = await db.execute({
        sql: `UPDATE jobs SET status = 'failed', message = ?, finished_at = ?, lease_until = NULL
              WHERE status IN ('queued', 'running') AND id IN (SELECT value FROM json_each(?))
              RETURNING id`,
        args: [message, now, JSON.stringify(ids)],
      });
      return result.rows.map((row) => String(row.id));
    },
  };
}

export type JobsRepo = ReturnType<typeof createJobsRepo>;

function toJob(row: Row): Job {
  let result: Record<string, unknown> | null = null;
  if (typeof row.result_json === "string") {
    const parsed: unknown = JSON.parse(row.result_json);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed))
      result = parsed as Record<string, unknown>;
  }
  return {
    _id: String(row.id),
    kind: String(row.kind) as Job["kind"],
    status: String(row.status) as Job["status"],
    progress: {
      done: Number(row.progress_done),
      total: row.progress_total === null ? null : Number(row.progress_total),
      phase: String(row.phase),
    },
    message: row.message === null ? null : String(row.message),
    result,
    createdAt: String(row.created_at),
    finishedAt: row.finished_at === null ? null : String(row.finished_at),
  };
}
