import type { Row } from "@libsql/client";
import type { PersonalToken } from "@stockbridge/shared";
import type { Db } from "../db/client.ts";

/** What authentication needs of a token found by its hash: whose it is and the owner's subscription. */
export interface TokenBearer {
  id: string;
  userId: string;
  lastUsedAt: string | null;
  subscription: { status: string; currentPeriodEnd: string | null } | null;
}

/** The only SQL for personal API tokens; every query but the hash lookup filters by the owner. */
export function createTokenRepo(db: Db) {
  return {
    /**
     * Inserts the token unless the user already holds `limit` of them (one statement, so parallel
     * creates cannot pass the count together). False when the limit refused it.
     */
    async insert(
      token: {
        id: string;
        userId: string;
        name: string;
        prefix: string;
        tokenHash: string;
        createdAt: string;
        expiresAt: string | null;
      },
      limit: number,
    ): Promise<boolean> {
      const result = await db.execute({
        sql: `INSERT INTO personal_tokens (id, user_id, name, prefix, token_hash, created_at, expires_at)
              SELECT ?, ?, ?, ?, ?, ?, ?
              WHERE (SELECT COUNT(*) FROM personal_tokens WHERE user_id = ?) < ?`,
        args: [
          token.id,
          token.userId,
          token.name,
          token.prefix,
          token.tokenHash,
          token.createdAt,
          token.expiresAt,
          token.userId,
          limit,
        ],
      });
      return result.rowsAffected === 1;
    },

    async list(userId: string): Promise<PersonalToken[]> {
      const result = await db.execute({
        sql: `SELECT id, name, prefix, created_at, expires_at, last_used_at FROM personal_tokens
              WHERE user_id = ? ORDER BY created_at DESC, id`,
        args: [userId],
      });
      return result.rows.map(toPersonalToken);
    },

    /** False when the user has no such token (someone else's id included). */
    async delete(userId: string, id: string): Promise<boolean> {
      const result = await db.execute({
        sql: "DELETE FROM personal_tokens WHERE id = ? AND user_id = ?",
        args: [id, userId],
      });
      return result.rowsAffected === 1;
    },

    /**
     * The unexpired token with this hash and its owner's subscription (read together: the
     * subscription gate then needs no second query), or null.
     */
    async findBearer(tokenHash: string, now: string): Promise<TokenBearer | null> {
      const result = await db.execute({
        sql: `SELECT t.id, t.user_id, t.last_used_at, b.status, b.current_period_end
              FROM personal_tokens t LEFT JOIN subscriptions b ON b.user_id = t.user_id
              WHERE t.token_hash = ? AND (t.expires_at IS NULL OR t.expires_at > ?)`,
        args: [tokenHash, now],
      });
      const row = result.rows[0];
      if (!row) return null;
      return {
        id: String(row.id),
        userId: String(row.user_id),
        lastUsedAt: nullableText(row.last_used_at),
        subscription:
          row.status === null || row.status === undefined
            ? null
            : { status: String(row.status), currentPeriodEnd: nullableText(row.current_period_end) },
      };
    },

    /**
     * Records a use unless one was recorded after `unlessAfter`: the condition sits in the UPDATE,
     * so requests racing in the same minute write the row once between them.
     */
    async touch(id: string, options: { now: string; unlessAfter: string }): Promise<void> {
      await db.execute({
        sql: `UPDATE personal_tokens SET last_used_at = ?
              WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)`,
        args: [options.now, id, options.unlessAfter],
      });
    },
  };
}

export type TokenRepo = ReturnType<typeof createTokenRepo>;

function toPersonalToken(row: Row): PersonalToken {
  return {
    _id: String(row.id),
    name: String(row.name),
    prefix: String(row.prefix),
    createdAt: String(row.created_at),
    expiresAt: nullableText(row.expires_at),
    lastUsedAt: nullableText(row.last_used_at),
  };
}

function nullableText(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}
