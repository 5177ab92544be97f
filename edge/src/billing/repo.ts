import type { Row } from "@libsql/client";
import type { PlanLimits } from "@stockbridge/shared";
import type { Db } from "../db/client.ts";

/** A subscription as stored: one row per user, the one that decides access. */
export interface StoredSubscription {
  subscriptionId: string;
  customerId: string;
  planId: string;
  planName: string | null;
  /** The plan's limits as Stripe's catalogue last gave them; null while not known. */
  planLimits: PlanLimits | null;
  status: string;
  /** ISO-8601 UTC. */
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  sourceEventCreated: number;
  updatedAt: string;
}

export type SubscriptionWrite = Omit<StoredSubscription, "updatedAt">;

/** Statuses after which a subscription never grants access again. */
const ENDED = "('canceled', 'incomplete_expired')";

/** The only SQL of billing; every user-owned read filters by user_id. */
export function createBillingRepo(db: Db) {
  return {
    async findCustomerId(userId: string): Promise<string | null> {
      const result = await db.execute({
        sql: "SELECT customer_id FROM stripe_customers WHERE user_id = ?",
        args: [userId],
      });
      return result.rows[0] ? String(result.rows[0].customer_id) : null;
    },

    /** Keeps the first customer stored for the user and answers it (a racing second one is dropped). */
    async saveCustomer(userId: string, customerId: string, now: string): Promise<string> {
      await db.execute({
        sql: "INSERT INTO stripe_customers (user_id, customer_id, created_at) VALUES (?, ?, ?) ON CONFLICT(user_id) DO NOTHING",
        args: [userId, customerId, now],
      });
      return (await this.findCustomerId(userId)) ?? customerId;
    },

    async findUserIdByCustomer(customerId: string): Promise<string | null> {
      const result = await db.execute({
        sql: "SELECT user_id FROM stripe_customers WHERE customer_id = ?",
        args: [customerId],
      });
      return result.rows[0] ? String(result.rows[0].user_id) : null;
    },

    async findContact(userId: string): Promise<{ email: string; name: string } | null> {
      const result = await db.execute({ sql: "SELECT email, name FROM users WHERE id = ?", args: [userId] });
      const row = result.rows[0];
      return row ? { email: String(row.email), name: String(row.name) } : null;
    },

    async saveCheckoutSession(session: { id: string; userId: string; priceId: string; now: string }) {
      await db.execute({
        sql: "INSERT INTO checkout_sessions (id, user_id, price_id, created_at) VALUES (?, ?, ?, ?) ON CONFLICT(id) DO NOTHING",
        args: [session.id, session.userId, session.priceId, session.now],
      });
    },

    async hasCheckoutSession(id: string, userId: string): Promise<boolean> {
      const result = await db.execute({
        sql: "SELECT 1 FROM checkout_sessions WHERE id = ? AND user_id = ?",
        args: [id, userId],
      });
      return result.rows.length > 0;
    },

    /** The plan a checkout session of this user was started for; null for sessions not theirs. */
    async findCheckoutSessionPrice(id: string, userId: string): Promise<string | null> {
      const result = await db.execute({
        sql: "SELECT price_id FROM checkout_sessions WHERE id = ? AND user_id = ?",
        args: [id, userId],
      });
      return result.rows[0] ? String(result.rows[0].price_id) : null;
    },

    async findUserIdByCheckoutSession(id: string): Promise<string | null> {
      const result = await db.execute({
        sql: "SELECT user_id FROM checkout_sessions WHERE id = ?",
        args: [id],
      });
      return result.rows[0] ? String(result.rows[0].user_id) : null;
    },

    async latestCheckoutSessionId(userId: string, createdAfter: string): Promise<string | null> {
      const result = await db.execute({
        sql: "SELECT id FROM checkout_sessions WHERE user_id = ? AND created_at > ? ORDER BY created_at DESC LIMIT 1",
        args: [userId, createdAfter],
      });
      return result.rows[0] ? String(result.rows[0].id) : null;
    },

    /**
     * Only what the access check of every gated request needs: the full row costs the driver about
     * 10 µs per column on each request.
     */
    async findAccessState(
      userId: string,
    ): Promise<Pick<StoredSubscription, "status" | "currentPeriodEnd"> | null> {
      const result = await db.execute({
        sql: "SELECT status, current_period_end FROM subscriptions WHERE user_id = ?",
        args: [userId],
      });
      const row = result.rows[0];
      if (!row) return null;
      return {
        status: String(row.status),
        currentPeriodEnd: row.current_period_end === null ? null : String(row.current_period_end),
      };
    },

    async findSubscription(userId: string): Promise<StoredSubscription | null> {
      const result = await db.execute({
        sql: `SELECT subscription_id, customer_id, plan_id, plan_name, plan_limits_json, status, current_period_end,
                     cancel_at_period_end, source_event_created, updated_at
              FROM subscriptions WHERE user_id = ?`,
        args: [userId],
      });
      return result.rows[0] ? toStored(result.rows[0]) : null;
    },

    /**
     * Stores what Stripe reported. A live subscription is never replaced by an ended one of the same
     * user (a late `deleted` of an old subscription must not take access from the new one).
     */
    async saveSubscription(userId: string, write: SubscriptionWrite, now: string): Promise<void> {
      await db.execute({
        sql: `INSERT INTO subscriptions (user_id, subscription_id, customer_id, plan_id, plan_name, plan_limits_json, status,
                                         current_period_end, cancel_at_period_end, source_event_created, updated_at)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
              ON CONFLICT(user_id) DO UPDATE SET
                subscription_id = excluded.subscription_id,
                customer_id = excluded.customer_id,
                plan_name = COALESCE(excluded.plan_name, CASE WHEN subscriptions.plan_id = excluded.plan_id THEN subscriptions.plan_name END),
                plan_limits_json = COALESCE(excluded.plan_limits_json,
                  CASE WHEN subscriptions.plan_id = excluded.plan_id THEN subscriptions.plan_limits_json END),
                plan_id = excluded.plan_id,
                status = excluded.status,
                current_period_end = excluded.current_period_end,
                cancel_at_period_end = excluded.cancel_at_period_end,
                source_event_created = MAX(excluded.source_event_created,
                  CASE WHEN subscriptions.subscription_id = excluded.subscription_id THEN subscriptions.source_event_created ELSE 0 END),
                updated_at = excluded.updated_at
              WHERE subscriptions.subscription_id = excluded.subscription_id
                 OR (subscriptions.subscription_id != excluded.subscription_id
                     AND (subscriptions.status IN ${ENDED} OR excluded.status NOT IN ${ENDED}))`,
        args: [
          userId,
          write.subscriptionId,
          write.customerId,
          write.planId,
          write.planName,
          write.planLimits === null ? null : JSON.stringify(write.planLimits),
          write.status,
          write.currentPeriodEnd,
          write.cancelAtPeriodEnd ? 1 : 0,
          write.sourceEventCreated,
          now,
        ],
      });
    },

    /**
     * Every subscription on `planId` takes the plan's limits as the catalogue now has them (a
     * product's metadata edited in Stripe reaches its subscribers at the next catalogue read).
     */
    /** Every plan's limits onto its subscribers' rows, in one write transaction (one round trip). */
    async refreshPlanLimits(plans: readonly { planId: string; limits: PlanLimits }[]): Promise<void> {
      if (plans.length === 0) return;
      await db.batch(
        plans.map(({ planId, limits }) => {
          const json = JSON.stringify(limits);
          return {
            sql: "UPDATE subscriptions SET plan_limits_json = ? WHERE plan_id = ? AND plan_limits_json IS NOT ?",
            args: [json, planId, json],
          };
        }),
        "write",
      );
    },

    /**
     * Claims the user's billing lock in one statement: free, or held past `heldUntil` by a process
     * that died. Answers the generation to derive idempotency keys from, or null when it is held.
     */
    async claimBillingLock(
      userId: string,
      claim: { holder: string; operation: string; now: string; heldUntil: string },
    ): Promise<number | null> {
      const result = await db.execute({
        sql: `INSERT INTO billing_locks (user_id, holder, operation, held_until) VALUES (?, ?, ?, ?)
              ON CONFLICT(user_id) DO UPDATE SET
                holder = excluded.holder, operation = excluded.operation, held_until = excluded.held_until
              WHERE billing_locks.holder IS NULL OR billing_locks.held_until <= ?
              RETURNING generation`,
        args: [userId, claim.holder, claim.operation, claim.heldUntil, claim.now],
      });
      const row = result.rows[0];
      return row ? Number(row.generation) : null;
    },

    /** Frees the lock if `holder` still has it; `settled` moves to the next generation of keys. */
    async releaseBillingLock(userId: string, release: { holder: string; settled: boolean }): Promise<void> {
      await db.execute({
        sql: `UPDATE billing_locks SET holder = NULL, operation = NULL, held_until = NULL, generation = generation + ?
              WHERE user_id = ? AND holder = ?`,
        args: [release.settled ? 1 : 0, userId, release.holder],
      });
    },

    async isEventProcessed(id: string): Promise<boolean> {
      const result = await db.execute({ sql: "SELECT 1 FROM stripe_events WHERE id = ?", args: [id] });
      return result.rows.length > 0;
    },

    async markEventProcessed(event: { id: string; type: string; created: number; now: string }) {
      await db.execute({
        sql: "INSERT INTO stripe_events (id, type, created, processed_at) VALUES (?, ?, ?, ?) ON CONFLICT(id) DO NOTHING",
        args: [event.id, event.type, event.created, event.now],
      });
    },
  };
}

export type BillingRepo = ReturnType<typeof createBillingRepo>;

function toStored(row: Row): StoredSubscription {
  return {
    subscriptionId: String(row.subscription_id),
    customerId: String(row.customer_id),
    planId: String(row.plan_id),
    planName: row.plan_name === null || row.plan_name === undefined ? null : String(row.plan_name),
    planLimits: planLimitsOf(row.plan_limits_json),
    status: String(row.status),
    currentPeriodEnd: row.current_period_end === null ? null : String(row.current_period_end),
    cancelAtPeriodEnd: Number(row.cancel_at_period_end) === 1,
    sourceEventCreated: Number(row.source_event_created),
    updatedAt: String(row.updated_at),
  };
}

/** The stored limits column: null when not known (or not readable, which refuses nothing). */
export function planLimitsOf(value: unknown): PlanLimits | null {
  if (typeof value !== "string") return null;
  try {
    const parsed: unknown = JSON.parse(value);
    if (typeof parsed !== "object" || parsed === null) return null;
    const limit = (entry: unknown): number | null =>
      typeof entry === "number" && Number.isSafeInteger(entry) && entry > 0 ? entry : null;
    return {
      minScheduleMinutes: limit("minScheduleMinutes" in parsed ? parsed.minScheduleMinutes : null),
      maxMappings: limit("maxMappings" in parsed ? parsed.maxMappings : null),
    };
  } catch {
    return null;
  }
}
