import type { Migration } from "../migrate.ts";

export const mappingSchedules: Migration = {
  version: 8,
  name: "mapping schedules",
  statements: [
    // lease_owner / lease_until: a tick claims a due row with one UPDATE, so many instances never
    // run one schedule twice. running_since marks a run in progress; interrupted_at receives it
    // when an expired lease is taken over (the old value, in the same UPDATE).
    `CREATE TABLE schedules (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        type TEXT NOT NULL,
        time TEXT,
        day INTEGER,
        interval_hours INTEGER,
        minute_interval INTEGER,
        timezone TEXT NOT NULL,
        mapping_ids_json TEXT NOT NULL DEFAULT '[]',
        is_full_sync INTEGER NOT NULL,
        sync_price INTEGER NOT NULL,
        sync_quantity INTEGER NOT NULL,
        status TEXT NOT NULL,
        last_run TEXT,
        next_run TEXT,
        lease_owner TEXT,
        lease_until TEXT,
        running_since TEXT,
        interrupted_at TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      )`,
    "CREATE INDEX schedules_user_created ON schedules(user_id, created_at, id)",
    "CREATE INDEX schedules_due ON schedules(status, next_run)",
    "CREATE INDEX schedules_running ON schedules(running_since, lease_until)",
  ],
};
