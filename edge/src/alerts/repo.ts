import type { Row } from "@libsql/client";
import type { Notification, NotificationKind, NotificationSettingsInput } from "@stockbridge/shared";
import { NOTIFICATION_KINDS } from "@stockbridge/shared";
import type { Db } from "../db/client.ts";

/** A notification to record, with the email and webhook deliveries that carry it out of the app. */
export interface NewAlert {
  id: string;
  userId: string;
  kind: NotificationKind;
  title: string;
  body: string;
  historyId: string | null;
  dedupeKey: string;
  createdAt: string;
  deliveries: { id: string; channel: "email" | "webhook"; target: string; payload: unknown }[];
}

/** A run that ended lately and may still lack its alert (see `endedRunsWithoutAlert`). */
export interface EndedRun {
  id: string;
  userId: string;
}

/** The only SQL for alert settings, webhook secrets and notifications; every query filters by the owner. */
export function createAlertsRepo(db: Db) {
  return {
    /** The saved settings, or null when the user never saved any. */
    async settings(userId: string): Promise<NotificationSettingsInput | null> {
      const result = await db.execute({
        sql: `SELECT email, webhook_url, on_failed, on_partial, on_missed, on_held
              FROM notification_settings WHERE user_id = ?`,
        args: [userId],
      });
      const row = result.rows[0];
      if (!row) return null;
      return {
        email: row.email === null ? null : String(row.email),
        webhookUrl: row.webhook_url === null ? null : String(row.webhook_url),
        onFailed: Number(row.on_failed) === 1,
        onPartial: Number(row.on_partial) === 1,
        onMissed: Number(row.on_missed) === 1,
        onHeld: Number(row.on_held) === 1,
      };
    },

    async saveSettings(
      userId: string,
      { settings, updatedAt }: { settings: NotificationSettingsInput; updatedAt: string },
    ): Promise<void> {
      await db.execute({
        sql: `INSERT INTO notification_settings (user_id, email, webhook_url, on_failed, on_partial, on_missed, on_held, updated_at)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?)
              ON CONFLICT(user_id) DO UPDATE SET email = excluded.email, webhook_url = excluded.webhook_url,
                on_failed = excluded.on_failed, on_partial = excluded.on_partial, on_missed = excluded.on_missed,
                on_held = excluded.on_held, updated_at = excluded.updated_at`,
        args: [
          userId,
          settings.email,
          settings.webhookUrl,
          settings.onFailed ? 1 : 0,
          settings.onPartial ? 1 : 0,
          settings.onMissed ? 1 : 0,
          settings.onHeld ? 1 : 0,
          updatedAt,
        ],
      });
    },

    /** The account's email: where alerts go until the user saves settings of their own. */
    async accountEmail(userId: string): Promise<string | null> {
      const result = await db.execute({ sql: "SELECT email FROM users WHERE id = ?", args: [userId] });
      const row = result.rows[0];
      return row ? String(row.email) : null;
    },

    async webhookSecret(userId: string): Promise<{ sealed: string; createdAt: string } | null> {
      const result = await db.execute({
        sql: "SELECT secret_sealed, created_at FROM webhook_secrets WHERE user_id = ?",
        args: [userId],
      });
      const row = result.rows[0];
      return row ? { sealed: String(row.secret_sealed), createdAt: String(row.created_at) } : null;
    },

    async saveWebhookSecret(
      userId: string,
      { sealed, createdAt }: { sealed: string; createdAt: string },
    ): Promise<void> {
      await db.execute({
        sql: `INSERT INTO webhook_secrets (user_id, secret_sealed, created_at) VALUES (?, ?, ?)
              ON CONFLICT(user_id) DO UPDATE SET secret_sealed = excluded.secret_sealed, created_at = excluded.created_at`,
        args: [userId, sealed, createdAt],
      });
    },

    /**
     * Records the notification and its deliveries in one transaction, unless one with the same
     * dedupe key exists (then nothing is written). True when this call recorded it.
     */
    async record(alert: NewAlert): Promise<boolean> {
      const [inserted] = await db.batch(
        [
          {
            sql: `INSERT INTO notifications (id, user_id, kind, title, body, history_id, dedupe_key, created_at)
                  VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(dedupe_key) DO NOTHING`,
            args: [
              alert.id,
              alert.userId,
              alert.kind,
              alert.title,
              alert.body,
              alert.historyId,
              alert.dedupeKey,
              alert.createdAt,
            ],
          },
          // Only beside the notification this batch inserted (its id is new): a lost race adds none.
          ...alert.deliveries.map((delivery) => ({
            sql: `INSERT INTO alert_deliveries (id, user_id, notification_id, channel, target, payload_json, status,
                    next_attempt_at, created_at)
                  SELECT ?, ?, ?, ?, ?, ?, 'pending', ?, ? WHERE EXISTS (SELECT 1 FROM notifications WHERE id = ?)`,
            args: [
              delivery.id,
              alert.userId,
              alert.id,
              delivery.channel,
              delivery.target,
              JSON.stringify(delivery.payload),
              alert.createdAt,
              alert.createdAt,
              alert.id,
            ],
          })),
        ],
        "write",
      );
      return (inserted?.rowsAffected ?? 0) === 1;
    },

    /** How many of the user's notifications are unread. */
    async unreadCount(userId: string): Promise<number> {
      const result = await db.execute({
        sql: "SELECT COUNT(*) AS unread FROM notifications WHERE user_id = ? AND read_at IS NULL",
        args: [userId],
      });
      return Number(result.rows[0]?.unread ?? 0);
    },

    /** Newest first, with the user's unread count. */
    async page(
      userId: string,
      options: { offset: number; limit: number },
    ): Promise<{ notifications: Notification[]; unread: number }> {
      const [rows, unread] = await db.batch(
        [
          {
            sql: `SELECT id, kind, title, body, history_id, created_at, read_at FROM notifications
                  WHERE user_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`,
            args: [userId, options.limit, options.offset],
          },
          {
            sql: "SELECT COUNT(*) AS unread FROM notifications WHERE user_id = ? AND read_at IS NULL",
            args: [userId],
          },
        ],
        "read",
      );
      return {
        notifications: (rows?.rows ?? []).map(toNotification),
        unread: Number(unread?.rows[0]?.unread ?? 0),
      };
    },

    /** Sets read_at once (a second read keeps the first time); null when the user has no such notification. */
    async markRead(
      userId: string,
      { id, readAt }: { id: string; readAt: string },
    ): Promise<{ notification: Notification; unread: number } | null> {
      const [updated, unread] = await db.batch(
        [
          {
            sql: `UPDATE notifications SET read_at = COALESCE(read_at, ?) WHERE id = ? AND user_id = ?
                  RETURNING id, kind, title, body, history_id, created_at, read_at`,
            args: [readAt, id, userId],
          },
          {
            sql: "SELECT COUNT(*) AS unread FROM notifications WHERE user_id = ? AND read_at IS NULL",
            args: [userId],
          },
        ],
        "write",
      );
      const row = updated?.rows[0];
      if (!row) return null;
      return { notification: toNotification(row), unread: Number(unread?.rows[0]?.unread ?? 0) };
    },

    async markAllRead(userId: string, readAt: string): Promise<void> {
      await db.execute({
        sql: "UPDATE notifications SET read_at = ? WHERE user_id = ? AND read_at IS NULL",
        args: [readAt, userId],
      });
    },

    /**
     * Runs that ended at or after `since` with an outcome alertKindForRun alerts on and no
     * notification yet: those whose process stopped, and any whose own report was lost.
     */
    async endedRunsWithoutAlert(since: string, limit: number): Promise<EndedRun[]> {
      const result = await db.execute({
        sql: `SELECT h.id, h.user_id FROM execution_history h
              WHERE h.end_date >= ?
                AND (h.status IN ('failed', 'partial', 'held') OR (h.status = 'completed' AND h.failure_count > 0))
                AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.dedupe_key = 'run:' || h.id)
              ORDER BY h.end_date LIMIT ?`,
        args: [since, limit],
      });
      return result.rows.map((row) => ({ id: String(row.id), userId: String(row.user_id) }));
    },
  };
}

export type AlertsRepo = ReturnType<typeof createAlertsRepo>;

/** The dedupe key of a run's alert: one per history entry, whoever records it. */
export function runAlertKey(historyId: string): string {
  return `run:${historyId}`;
}

function toNotification(row: Row): Notification {
  const kind = String(row.kind);
  return {
    _id: String(row.id),
    kind: (NOTIFICATION_KINDS as readonly string[]).includes(kind) ? (kind as NotificationKind) : "failed",
    title: String(row.title),
    body: String(row.body),
    historyId: row.history_id === null ? null : String(row.history_id),
    createdAt: String(row.created_at),
    readAt: row.read_at === null ? null : String(row.read_at),
  };
}
