import type { Migration } from "../migrate.ts";

export const alerts: Migration = {
  version: 22,
  name: "alerts: notifications, where they go, webhook secrets and deliveries",
  statements: [
    // One row per user who saved Settings > Notifications; without one the defaults apply (the
    // account's email, no webhook, failures and missed runs on). email / webhook_url NULL: off.
    `CREATE TABLE notification_settings (
        user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        email TEXT,
        webhook_url TEXT,
        on_failed INTEGER NOT NULL,
        on_partial INTEGER NOT NULL,
        on_missed INTEGER NOT NULL,
        on_held INTEGER NOT NULL,
        updated_at TEXT NOT NULL
      )`,
    // The webhook signing secret, sealed like connection secrets; replaced whole on rotation.
    `CREATE TABLE webhook_secrets (
        user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        secret_sealed TEXT NOT NULL,
        created_at TEXT NOT NULL
      )`,
    // dedupe_key names what the alert is about (run:<history id>, missed:<schedule id>:<due>), so
    // the run's own report and the tick's sweep, on any instance, record it once.
    `CREATE TABLE notifications (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        title TEXT NOT NULL,
        body TEXT NOT NULL,
        history_id TEXT,
        dedupe_key TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        read_at TEXT
      )`,
    "CREATE INDEX notifications_user ON notifications(user_id, created_at, id)",
    "CREATE INDEX notifications_unread ON notifications(user_id) WHERE read_at IS NULL",
    // An email or webhook to send, claimed by a tick with a lease like jobs are, so a restart
    // loses none. payload_json is fixed when the alert is recorded; the signature is made per attempt.
    `CREATE TABLE alert_deliveries (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        notification_id TEXT NOT NULL REFERENCES notifications(id) ON DELETE CASCADE,
        channel TEXT NOT NULL,
        target TEXT NOT NULL,
        payload_json TEXT NOT NULL,
        status TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        last_status_code INTEGER,
        last_error TEXT,
        next_attempt_at TEXT,
        lease_until TEXT,
        created_at TEXT NOT NULL,
        delivered_at TEXT
      )`,
    "CREATE INDEX alert_deliveries_due ON alert_deliveries(next_attempt_at) WHERE status = 'pending'",
    "CREATE INDEX alert_deliveries_user ON alert_deliveries(user_id, created_at, id)",
    // The tick looks for runs that ended lately without an alert (a run whose process stopped).
    "CREATE INDEX execution_history_ended ON execution_history(end_date)",
  ],
};
