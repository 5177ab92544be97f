import type { Row } from "@libsql/client";
import type { Job } from "@stockbridge/shared";
import type { Db } from "../db/client.ts";

export type JobKind = Job["kind"];

/** A job as a worker claimed it: the row, what the work needs and where it got to. */
export interface ClaimedJob {
  job: Job;
  userId: string;
  /** The work's parameters as stored at enqueue (JSON); the handler of its kind validates them. */
  input: unknown;
  /** What the work saved after its last finished step; null on a first attempt. */
  checkpoint: unknown;
  /** 1 on the first claim; more when the job is resumed after its instance stopped. */
  attempt: number;
  scheduleId: string | null;
}

const LIVE = "status IN ('queued', 'running')";

/**
 * Jobs a worker may claim, each with its turn among its user's jobs of the same kind: queued ones
 * and running ones whose lease ran out (their instance stopped), with attempts left, and none while
 * that user's job of the kind runs under a live lease elsewhere (one user's syncs share their
 * Shopify bucket). Turn 1 is the one to take. Arguments: claimableArgs.
 */
const CLAIMABLE = `SELECT j.id, j.created_at, j.status,
    ROW_NUMBER() OVER (PARTITION BY j.user_id, j.kind ORDER BY j.created_at, j.id) AS turn
  FROM jobs j
  WHERE (j.status = 'queued' OR (j.status = 'running' AND j.lease_until < ?)) AND j.attempts < ?
    AND NOT EXISTS (
      SELECT 1 FROM jobs o WHERE o.user_id = j.user_id AND o.kind = j.kind AND o.id <> j.id
        AND o.status = 'running' AND o.lease_until >= ?)`;

function claimableArgs(now: string, maxAttempts: number): (string | number)[] {
  return [now, maxAttempts, now];
}

/** The only SQL for job rows. */
export function createJobsRepo(db: Db) {
  return {
    /**
     * Queues a job. `exclusive`: unless the user already has a live job of this kind, in one
     * statement, so two requests at the same moment cannot both start (a job whose lease ran out
     * still counts: it is waiting to be resumed). With `scheduleId`: unless that schedule already
     * has a live job. Answers whether it was queued.
     */
    async enqueue(job: {
      id: string;
      userId: string;
      kind: JobKind;
      now: string;
      phase: string;
      input: unknown;
      exclusive: boolean;
      scheduleId?: string | null;
    }): Promise<boolean> {
      const conditions: string[] = [];
      const args: (string | null)[] = [];
      if (job.exclusive) {
        conditions.push(`NOT EXISTS (SELECT 1 FROM jobs WHERE user_id = ? AND kind = ? AND ${LIVE})`);
        args.push(job.userId, job.kind);
      }
      if (job.scheduleId) {
        conditions.push(`NOT EXISTS (SELECT 1 FROM jobs WHERE schedule_id = ? AND ${LIVE})`);
        args.push(job.scheduleId);
      }
      const result = await db.execute({
        sql: `INSERT INTO jobs (id, user_id, kind, status, phase, input_json, schedule_id, created_at)
              SELECT ?, ?, ?, 'queued', ?, ?, ?, ?
              ${conditions.length > 0 ? `WHERE ${conditions.join(" AND ")}` : ""}`,
        args: [
          job.id,
          job.userId,
          job.kind,
          job.phase,
          JSON.stringify(job.input ?? {}),
          job.scheduleId ?? null,
          job.now,
          ...args,
        ],
      });
      return result.rowsAffected === 1;
    },

    /** The user's live job of this kind (what an exclusive `enqueue` found in the way), if any. */
    async liveJobId(userId: string, kind: JobKind): Promise<string | null> {
      const result = await db.execute({
        sql: `SELECT id FROM jobs WHERE user_id = ? AND kind = ? AND ${LIVE} ORDER BY created_at DESC LIMIT 1`,
        args: [userId, kind],
      });
      const row = result.rows[0];
      return row ? String(row.id) : null;
    },

    /**
     * Claims up to `limit` claimable jobs (CLAIMABLE) for `owner` in one UPDATE, so two instances
     * never claim the same one: oldest first, at most one per user and kind. `id`: only that job.
     */
    async claim(claim: {
      owner: string;
      now: string;
      leaseUntil: string;
      limit: number;
      maxAttempts: number;
      id?: string;
      /** Only jobs whose instance stopped (their lease ran out), not freshly queued ones. */
      stoppedOnly?: boolean;
    }): Promise<ClaimedJob[]> {
      if (claim.limit <= 0) return [];
      const only =
        (claim.id === undefined ? "" : " AND id = ?") + (claim.stoppedOnly ? " AND status = 'running'" : "");
      const idArgs = claim.id === undefined ? [] : [claim.id];
      // A read first: a job's readers (its event stream, every second) and the polls ask often, and
      // "nothing to take" must not take the write lock.
      const candidate = await db.execute({
        sql: `SELECT 1 FROM (${CLAIMABLE}) WHERE turn = 1${only} LIMIT 1`,
        args: [...claimableArgs(claim.now, claim.maxAttempts), ...idArgs],
      });
      if (candidate.rows.length === 0) return [];
      const result = await db.execute({
        sql: `UPDATE jobs SET status = 'running', owner = ?, lease_until = ?, attempts = attempts + 1,
                started_at = COALESCE(started_at, ?)
              WHERE id IN (SELECT id FROM (${CLAIMABLE}) WHERE turn = 1${only} ORDER BY created_at LIMIT ?)
              RETURNING *`,
        args: [
          claim.owner,
          claim.leaseUntil,
          claim.now,
          ...claimableArgs(claim.now, claim.maxAttempts),
          ...idArgs,
          claim.limit,
        ],
      });
      return result.rows.map((row) => ({
        job: toJob(row),
        userId: String(row.user_id),
        input: parseJson(row.input_json),
        checkpoint: parseJson(row.checkpoint_json),
        attempt: Number(row.attempts),
        scheduleId: row.schedule_id === null ? null : String(row.schedule_id),
      }));
    },

    /** Whether a run of the schedule was queued at or after `since`. */
    async queuedForScheduleSince(scheduleId: string, since: string): Promise<boolean> {
      const result = await db.execute({
        sql: "SELECT 1 FROM jobs WHERE schedule_id = ? AND created_at >= ? LIMIT 1",
        args: [scheduleId, since],
      });
      return result.rows.length > 0;
    },

    async find(userId: string, id: string): Promise<Job | null> {
      const result = await db.execute({
        sql: "SELECT * FROM jobs WHERE id = ? AND user_id = ?",
        args: [id, userId],
      });
      const row = result.rows[0];
      return row ? toJob(row) : null;
    },

    /** Progress and a renewed lease; false when `owner` no longer holds the job (another instance took it over). */
    async progress(
      id: string,
      owner: string,
      update: { done: number; total: number | null; phase: string; leaseUntil: string },
    ): Promise<boolean> {
      const result = await db.execute({
        sql: "UPDATE jobs SET progress_done = ?, progress_total = ?, phase = ?, lease_until = ? WHERE id = ? AND owner = ? AND status = 'running'",
        args: [update.done, update.total, update.phase, update.leaseUntil, id, owner],
      });
      return result.rowsAffected > 0;
    },

    /** Saves where the work got to, for whichever instance resumes it; false when `owner` lost the job. */
    async checkpoint(id: string, owner: string, value: unknown): Promise<boolean> {
      const result = await db.execute({
        sql: "UPDATE jobs SET checkpoint_json = ? WHERE id = ? AND owner = ? AND status = 'running'",
        args: [JSON.stringify(value), id, owner],
      });
      return result.rowsAffected > 0;
    },

    /** Ends the job; false (nothing written) when `owner` no longer holds it. */
    async finish(
      id: string,
      owner: string,
      outcome: { status: "succeeded" | "failed"; message: string | null; result: unknown; now: string },
    ): Promise<boolean> {
      const done = await db.execute({
        sql: `UPDATE jobs SET status = ?, message = ?, result_json = ?, finished_at = ?, lease_until = NULL
              WHERE id = ? AND owner = ? AND status = 'running'`,
        args: [
          outcome.status,
          outcome.message,
          outcome.result === null ? null : JSON.stringify(outcome.result),
          outcome.now,
          id,
          owner,
        ],
      });
      return done.rowsAffected > 0;
    },

    async leaseExpired(id: string, now: string): Promise<boolean> {
      const result = await db.execute({
        sql: "SELECT lease_until < ? AS expired FROM jobs WHERE id = ?",
        args: [now, id],
      });
      return Number(result.rows[0]?.expired) === 1;
    },

    /**
     * Fails the live jobs no instance will resume: their lease ran out after their last allowed
     * attempt. Answers the ids it failed.
     */
    async failExhausted(now: string, message: string, maxAttempts: number): Promise<string[]> {
      // A read first: every poll and start asks, the answer is nearly always "none", and that must
      // not take the write lock (as history's failExpired).
      const exhausted = await db.execute({
        sql: "SELECT 1 FROM jobs WHERE status = 'running' AND lease_until < ? AND attempts >= ? LIMIT 1",
        args: [now, maxAttempts],
      });
      if (exhausted.rows.length === 0) return [];
      const result = await db.execute({
        sql: `UPDATE jobs SET status = 'failed', message = ?, finished_at = ?, lease_until = NULL
              WHERE status = 'running' AND lease_until < ? AND attempts >= ?
              RETURNING id`,
        args: [message, now, now, maxAttempts],
      });
      return result.rows.map((row) => String(row.id));
    },

    /** Fails one job held by `owner` at once (its input cannot be run: nothing would resume it). */
    async fail(
      id: string,
      { owner, message, now }: { owner: string; message: string; now: string },
    ): Promise<boolean> {
      const result = await db.execute({
        sql: `UPDATE jobs SET status = 'failed', message = ?, finished_at = ?, lease_until = NULL
              WHERE id = ? AND owner = ? AND status = 'running'`,
        args: [message, now, id, owner],
      });
      return result.rowsAffected > 0;
    },

    /**
     * Hands the named jobs `owner` holds back to the queue (this instance stops): another instance,
     * or this one's next start, claims them at once and resumes from their checkpoint.
     */
    async release(ids: string[], owner: string): Promise<string[]> {
      const result = await db.execute({
        sql: `UPDATE jobs SET status = 'queued', owner = NULL, lease_until = NULL
              WHERE owner = ? AND status = 'running' AND id IN (SELECT value FROM json_each(?))
              RETURNING id`,
        args: [owner, JSON.stringify(ids)],
      });
      return result.rows.map((row) => String(row.id));
    },
  };
}

export type JobsRepo = ReturnType<typeof createJobsRepo>;

function parseJson(value: unknown): unknown {
  return typeof value === "string" ? JSON.parse(value) : null;
}

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
