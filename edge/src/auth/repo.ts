import type { Db } from "../db/client.ts";

/** The only SQL for accounts and sessions (attempt-repo.ts has the attempts). */
export function createAuthRepo(db: Db) {
  return {
    async insertUser(user: { id: string; name: string; email: string; passwordHash: string; now: string }) {
      await db.execute({
        sql: `INSERT INTO users (id, name, email, email_normalized, password_hash, password_changed_at, created_at, updated_at)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        args: [
          user.id,
          user.name,
          user.email,
          normalizeEmail(user.email),
          user.passwordHash,
          user.now,
          user.now,
          user.now,
        ],
      });
    },

    async findCredentialsByEmail(email: string) {
      const result = await db.execute({
        sql: "SELECT id, password_hash FROM users WHERE email_normalized = ?",
        args: [normalizeEmail(email)],
      });
      const row = result.rows[0];
      return row ? { id: String(row.id), passwordHash: String(row.password_hash) } : null;
    },

    async findPasswordHash(userId: string) {
      const result = await db.execute({
        sql: "SELECT password_hash FROM users WHERE id = ?",
        args: [userId],
      });
      const row = result.rows[0];
      return row ? String(row.password_hash) : null;
    },

    async updatePassword(userId: string, passwordHash: string, now: string) {
      await db.batch(
        [
          {
            sql: "UPDATE users SET password_hash = ?, password_changed_at = ?, updated_at = ? WHERE id = ?",
            args: [passwordHash, now, now, userId],
          },
          {
            sql: "UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL",
            args: [now, userId],
          },
        ],
        "write",
      );
    },

    async insertSession(session: { id: string; userId: string; now: string; expiresAt: string }) {
      await db.execute({
        sql: "INSERT INTO sessions (id, user_id, created_at, expires_at, last_seen_at) VALUES (?, ?, ?, ?, ?)",
        args: [session.id, session.userId, session.now, session.expiresAt, session.now],
      });
    },

    /**
     * A session is live when it is the user's, not revoked and not past its absolute expiry. A live
     * one answers the user's subscription status and period end too (null without one): every
     * gated request needs both, and one query costs the driver half of two.
     */
    async liveSession(
      sessionId: string,
      userId: string,
      now: string,
    ): Promise<{ subscription: { status: string; currentPeriodEnd: string | null } | null } | null> {
      const result = await db.execute({
        sql: `SELECT b.status, b.current_period_end FROM sessions s LEFT JOIN subscriptions b ON b.user_id = s.user_id
              WHERE s.id = ? AND s.user_id = ? AND s.revoked_at IS NULL AND s.expires_at > ?`,
        args: [sessionId, userId, now],
      });
      const row = result.rows[0];
      if (!row) return null;
      if (row.status === null || row.status === undefined) return { subscription: null };
      return {
        subscription: {
          status: String(row.status),
          currentPeriodEnd: row.current_period_end === null ? null : String(row.current_period_end),
        },
      };
    },

    async touchSession(sessionId: string, now: string) {
      await db.execute({ sql: "UPDATE sessions SET last_seen_at = ? WHERE id = ?", args: [now, sessionId] });
    },

    async revokeSession(sessionId: string, now: string) {
      await db.execute({
        sql: "UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
        args: [now, sessionId],
      });
    },
  };
}

export type AuthRepo = ReturnType<typeof createAuthRepo>;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** SQLite's unique-constraint failure, as libSQL reports it. */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Error && /UNIQUE constraint failed/i.test(error.message);
}
