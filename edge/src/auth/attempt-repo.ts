import type { Db } from "../db/client.ts";
import type { CountedLimit, SignInLimits } from "./attempt-limits.ts";

export type AttemptAction = "sign-in" | "register" | "password-check";

/** A reserved attempt (settle it after the hash), or how long until the limit that refused it admits one. */
export type Reservation = { admitted: true; seq: number } | { admitted: false; retryAfterMs: number };

/**
 * Attempts of one action, account and address since the last success among them, inside the window
 * (`seq` orders them: the clock may not move between two). In flight (NULL) counts as failed.
 */
const COUNTED_CTE = `counted AS (
  SELECT count(*) AS attempts, min(at_ms) AS oldest FROM auth_attempts
  WHERE action = :action AND account = :account AND address = :address
    AND outcome IS NOT 'succeeded' AND at_ms > :now - :windowMs
    AND seq > (SELECT coalesce(max(seq), 0) FROM auth_attempts
      WHERE action = :action AND account = :account AND address = :address AND outcome = 'succeeded')
)`;

/** The rules of attempt-limits.ts for a sign-in: when each one would let it through (NULL: now). */
const SIGN_IN_CTE = `WITH ${COUNTED_CTE},
known AS (
  SELECT EXISTS (SELECT 1 FROM auth_attempts WHERE action = :action AND account = :account
    AND address = :address AND outcome = 'succeeded' AND at_ms > :now - :knownAddressMs) AS yes
),
on_account AS (
  SELECT count(*) AS failures,
    (SELECT max(at_ms) FROM auth_attempts WHERE action = :action AND account = :account AND known = 0
      AND at_ms > :now - :windowMs) AS last_unknown
  FROM auth_attempts WHERE action = :action AND account = :account
    AND outcome IS NOT 'succeeded' AND at_ms > :now - :windowMs
),
from_address AS (
  SELECT count(DISTINCT account) AS accounts,
    (SELECT max(at_ms) FROM auth_attempts WHERE action = :action AND address = :address AND known = 0
      AND at_ms > :now - :windowMs) AS last_unknown
  FROM auth_attempts WHERE action = :action AND address = :address
    AND outcome IS NOT 'succeeded' AND at_ms > :now - :windowMs
),
verdict AS (
  SELECT known.yes AS known, max(
    CASE WHEN counted.attempts >= :perAccountAndAddress THEN counted.oldest + :windowMs ELSE 0 END,
    CASE WHEN NOT known.yes AND on_account.failures >= :accountUnderAttack
      AND on_account.last_unknown > :now - :accountSlotMs
      THEN on_account.last_unknown + :accountSlotMs ELSE 0 END,
    CASE WHEN NOT known.yes AND from_address.accounts >= :addressSpraying
      AND from_address.last_unknown > :now - :addressSlotMs
      THEN from_address.last_unknown + :addressSlotMs ELSE 0 END
  ) AS wait_until
  FROM counted, known, on_account, from_address
)`;

const COUNTED_VERDICT_CTE = `WITH ${COUNTED_CTE},
verdict AS (
  SELECT 0 AS known, CASE WHEN attempts >= :limit THEN oldest + :windowMs ELSE 0 END AS wait_until FROM counted
)`;

/** The only SQL for attempt rows: reserved before a password hash runs, settled after it. */
export function createAttemptRepo(db: Db) {
  /**
   * One write transaction: purge rows nothing reads any more, insert the attempt only if the
   * verdict lets it through, and read the verdict (which explains a refusal). Run as one batch, so
   * no other reservation lands between the count and the insert.
   */
  async function reserve(
    verdictCte: string,
    args: Record<string, string | number> & { now: number; windowMs: number },
  ): Promise<Reservation> {
    const [, inserted, verdict] = await db.batch(
      [
        { sql: "DELETE FROM auth_attempts WHERE expires_at_ms <= ?", args: [args.now] },
        {
          sql: `${verdictCte}
                INSERT INTO auth_attempts (action, account, address, known, at_ms, outcome, expires_at_ms)
                SELECT :action, :account, :address, known, :now, NULL, :now + :windowMs
                FROM verdict WHERE wait_until = 0
                RETURNING seq`,
          args,
        },
        { sql: `${verdictCte} SELECT wait_until FROM verdict`, args },
      ],
      "write",
    );
    const seq = inserted?.rows[0]?.seq;
    if (seq !== undefined && seq !== null) return { admitted: true, seq: Number(seq) };
    return { admitted: false, retryAfterMs: Number(verdict?.rows[0]?.wait_until ?? 0) - args.now };
  }

  return {
    /** A sign-in attempt on `account` (the normalized email) from `address`, under SIGN_IN_LIMITS. */
    reserveSignIn(attempt: { account: string; address: string; now: number; limits: SignInLimits }) {
      const { account, address, now, limits } = attempt;
      return reserve(SIGN_IN_CTE, { action: "sign-in", account, address, now, ...limits });
    },

    /** An attempt counted against one limit: every unsettled or failed one since the last success. */
    reserveAttempt(attempt: {
      action: Exclude<AttemptAction, "sign-in">;
      account: string;
      address: string;
      now: number;
      limit: CountedLimit;
    }) {
      const { action, account, address, now, limit } = attempt;
      return reserve(COUNTED_VERDICT_CTE, { action, account, address, now, ...limit });
    },

    async settleFailure(seq: number) {
      await db.execute({ sql: "UPDATE auth_attempts SET outcome = 'failed' WHERE seq = ?", args: [seq] });
    },

    /**
     * A success ends the count of its own account and address (and nothing wider) and is kept
     * `keepMs` as the pair's latest success; older successes of the pair are dropped.
     */
    async settleSuccess(seq: number, keepMs: number) {
      await db.batch(
        [
          {
            sql: "UPDATE auth_attempts SET outcome = 'succeeded', expires_at_ms = at_ms + ? WHERE seq = ?",
            args: [keepMs, seq],
          },
          {
            sql: `DELETE FROM auth_attempts WHERE outcome = 'succeeded' AND seq < :seq
                  AND (action, account, address) = (SELECT action, account, address FROM auth_attempts WHERE seq = :seq)`,
            args: { seq },
          },
        ],
        "write",
      );
    },
  };
}

export type AttemptRepo = ReturnType<typeof createAttemptRepo>;
