import type { Row } from "@libsql/client";
import type { AlertDelivery } from "@stockbridge/shared";
import type { Db } from "../db/client.ts";

/** A delivery a tick claimed: everything needed to send it once more. */
export interface ClaimedDelivery {
  id: string;
  userId: string;
  channel: "email" | "webhook";
  target: string;
  payload: unknown;
  attempts: number;
  createdAt: string;
}

/** What one attempt came to: delivered, tried again at `nextAttemptAt`, or given up (failed). */
export type AttemptOutcome =
  | { status: "delivered"; statusCode: number | null }
  | { status: "pending"; statusCode: number | null; error: string; nextAttemptAt: string }
  | { status: "failed"; statusCode: number | null; error: string };

const LISTED = 50;

/** The only SQL for alert deliveries. Claims are one UPDATE with a lease, as job claims are. */
export function createDeliveryRepo(db: Db) {
  return {
    /**
     * Claims up to `limit` pending deliveries that are due and not held by another tick (their
     * lease ran out or was never taken), in one statement: two instances never send one twice.
     */
    async claimDue({
      now,
      leaseUntil,
      limit,
    }: {
      now: string;
      leaseUntil: string;
      limit: number;
    }): Promise<ClaimedDelivery[]> {
      const result = await db.execute({
        sql: `UPDATE alert_deliveries SET lease_until = ?
              WHERE id IN (
                SELECT id FROM alert_deliveries
                WHERE status = 'pending' AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until < ?)
                ORDER BY next_attempt_at LIMIT ?)
              RETURNING id, user_id, channel, target, payload_json, attempts, created_at`,
        args: [leaseUntil, now, now, limit],
      });
      return result.rows.map((row) => ({
        id: String(row.id),
        userId: String(row.user_id),
        channel: String(row.channel) === "email" ? "email" : "webhook",
        target: String(row.target),
        payload: JSON.parse(String(row.payload_json)) as unknown,
        attempts: Number(row.attempts),
        createdAt: String(row.created_at),
      }));
    },

    /** Records one attempt and releases the claim. */
    async settle(id: string, { outcome, now }: { outcome: AttemptOutcome; now: string }): Promise<void> {
      await db.execute({
        sql: `UPDATE alert_deliveries SET status = ?, attempts = attempts + 1, last_status_code = ?, last_error = ?,
                next_attempt_at = ?, delivered_at = ?, lease_until = NULL
              WHERE id = ?`,
        args: [
          outcome.status,
          outcome.statusCode,
          outcome.status === "delivered" ? null : outcome.error,
          outcome.status === "pending" ? outcome.nextAttemptAt : null,
          outcome.status === "delivered" ? now : null,
          id,
        ],
      });
    },

    /** The user's newest deliveries, each with its notification's title. */
    async list(userId: string): Promise<AlertDelivery[]> {
      const result = await db.execute({
        sql: `SELECT d.id, d.notification_id, d.channel, d.target, n.title, d.status, d.attempts, d.last_status_code,
                d.last_error, d.next_attempt_at, d.created_at, d.delivered_at
              FROM alert_deliveries d JOIN notifications n ON n.id = d.notification_id
              WHERE d.user_id = ? ORDER BY d.created_at DESC, d.rowid DESC LIMIT ?`,
        args: [userId, LISTED],
      });
      return result.rows.map(toDelivery);
    },
  };
}

export type DeliveryRepo = ReturnType<typeof createDeliveryRepo>;

function toDelivery(row: Row): AlertDelivery {
  const status = String(row.status);
  return {
    _id: String(row.id),
    notificationId: String(row.notification_id),
    channel: String(row.channel) === "email" ? "email" : "webhook",
    target: String(row.target),
    title: String(row.title),
    status: status === "delivered" || status === "failed" ? status : "pending",
    attempts: Number(row.attempts),
    lastStatusCode: row.last_status_code === null ? null : Number(row.last_status_code),
    lastError: row.last_error === null ? null : String(row.last_error),
    nextAttemptAt: row.next_attempt_at === null ? null : String(row.next_attempt_at),
    createdAt: String(row.created_at),
    deliveredAt: row.delivered_at === null ? null : String(row.delivered_at),
  };
}
