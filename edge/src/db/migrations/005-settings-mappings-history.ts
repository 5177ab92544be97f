import type { Migration } from "../migrate.ts";

export const settingsMappingsHistory: Migration = {
  version: 5,
  name: "settings, mappings and execution history",
  statements: [
    `CREATE TABLE settings (
        user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        acumatica_quantity TEXT NOT NULL DEFAULT 'Available',
        shopify_quantity TEXT NOT NULL DEFAULT 'Available',
        sync_price INTEGER NOT NULL DEFAULT 0,
        sync_msrp INTEGER NOT NULL DEFAULT 0,
        updated_at TEXT NOT NULL
      )`,
    `CREATE TABLE mappings (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        shopify_variant_id TEXT NOT NULL,
        shopify_sku TEXT NOT NULL,
        acumatica_id TEXT NOT NULL,
        acumatica_sku TEXT NOT NULL,
        mapping_type TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        last_synced_at TEXT,
        UNIQUE (user_id, shopify_variant_id),
        UNIQUE (user_id, acumatica_id)
      )`,
    "CREATE INDEX mappings_user_created ON mappings(user_id, created_at, id)",
    `CREATE TABLE execution_history (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        schedule_id TEXT,
        schedule_name TEXT,
        trigger TEXT NOT NULL,
        start_date TEXT NOT NULL,
        end_date TEXT,
        success_count INTEGER NOT NULL DEFAULT 0,
        failure_count INTEGER NOT NULL DEFAULT 0,
        skipped_count INTEGER NOT NULL DEFAULT 0,
        status TEXT NOT NULL,
        error TEXT
      )`,
    "CREATE INDEX execution_history_user_start ON execution_history(user_id, start_date, id)",
    `CREATE TABLE execution_failures (
        id TEXT PRIMARY KEY,
        history_id TEXT NOT NULL REFERENCES execution_history(id) ON DELETE CASCADE,
        mapping_id TEXT,
        shopify_sku TEXT NOT NULL,
        acumatica_sku TEXT NOT NULL,
        error TEXT NOT NULL
      )`,
    "CREATE INDEX execution_failures_history ON execution_failures(history_id)",
  ],
};
