import type { Db } from "../db/client.ts";

/** A write request as a key was first sent with: a repeat must match it to get its answer. */
interface KeyedRequest {
  userId: string;
  key: string;
  method: string;
  path: string;
  bodyHash: string;
}

/** A stored key: `answer` null while its first request is still running. */
interface KeyRecord {
  method: string;
  path: string;
  bodyHash: string;
  answer: StoredAnswer | null;
}

export interface StoredAnswer {
  status: number;
  contentType: string | null;
  body: string;
}

/** The only SQL for idempotency keys (migration 031). */
export function createIdempotencyRepo(db: Db) {
  return {
    /**
     * Takes the key for a request that runs now, in one statement (two requests at once cannot
     * both take it): a new key, or one whose row has expired, or one whose run was claimed before
     * `staleBefore` and never finished (its process stopped). True when this claim holds it.
     */
    async claim(
      request: KeyedRequest,
      claim: { claimId: string; at: string; expiresAt: string; staleBefore: string },
    ): Promise<boolean> {
      const result = await db.execute({
        sql: `INSERT INTO idempotency_keys (user_id, idempotency_key, claim_id, method, path, body_hash,
                status, content_type, response_body, claimed_at, expires_at)
              VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, NULL, ?, ?)
              ON CONFLICT (user_id, idempotency_key) DO UPDATE SET
                claim_id = excluded.claim_id, method = excluded.method, path = excluded.path,
                body_hash = excluded.body_hash, status = NULL, content_type = NULL,
                response_body = NULL, claimed_at = excluded.claimed_at, expires_at = excluded.expires_at
              WHERE idempotency_keys.expires_at <= excluded.claimed_at
                OR (idempotency_keys.status IS NULL AND idempotency_keys.claimed_at < ?)`,
        args: [
          request.userId,
          request.key,
          claim.claimId,
          request.method,
          request.path,
          request.bodyHash,
          claim.at,
          claim.expiresAt,
          claim.staleBefore,
        ],
      });
      return result.rowsAffected === 1;
    },

    async find(userId: string, key: string): Promise<KeyRecord | null> {
      const { rows } = await db.execute({
        sql: `SELECT method, path, body_hash, status, content_type, response_body FROM idempotency_keys
              WHERE user_id = ? AND idempotency_key = ?`,
        args: [userId, key],
      });
      const row = rows[0];
      if (!row) return null;
      return {
        method: String(row.method),
        path: String(row.path),
        bodyHash: String(row.body_hash),
        answer:
          row.status === null
            ? null
            : {
                status: Number(row.status),
                contentType: row.content_type === null ? null : String(row.content_type),
                body: String(row.response_body ?? ""),
              },
      };
    },

    /** Stores the answer of the run that holds the claim (a claim taken over since stores nothing). */
    async complete(owner: { userId: string; key: string; claimId: string }, answer: StoredAnswer) {
      await db.execute({
        sql: `UPDATE idempotency_keys SET status = ?, content_type = ?, response_body = ?
              WHERE user_id = ? AND idempotency_key = ? AND claim_id = ?`,
        args: [answer.status, answer.contentType, answer.body, owner.userId, owner.key, owner.claimId],
      });
    },

    /** Frees the key of a run that answered no lasting answer (a 5xx), so it can be tried again. */
    async release(owner: { userId: string; key: string; claimId: string }) {
      await db.execute({
        sql: "DELETE FROM idempotency_keys WHERE user_id = ? AND idempotency_key = ? AND claim_id = ?",
        args: [owner.userId, owner.key, owner.claimId],
      });
    },

    /** Deletes the keys expired at `at`; answers how many. */
    async prune(at: string): Promise<number> {
      const result = await db.execute({
        sql: "DELETE FROM idempotency_keys WHERE expires_at <= ?",
        args: [at],
      });
      return result.rowsAffected;
    },
  };
}

export type IdempotencyRepo = ReturnType<typeof createIdempotencyRepo>;
