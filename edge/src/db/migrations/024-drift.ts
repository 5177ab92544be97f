import type { Migration } from "../migrate.ts";

export const drift: Migration = {
  version: 24,
  name: "drift between Shopify and the ERP, and check-only schedules",
  statements: [
    // The latest check of every mapping, per user: when, how many mappings, which fields it
    // compared, and what ran it. A newer check replaces the row and the user's items.
    `CREATE TABLE drift_checks (
        user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        checked_at TEXT NOT NULL,
        mappings INTEGER NOT NULL,
        fields_json TEXT NOT NULL,
        source TEXT NOT NULL,
        history_id TEXT
      )`,
    // One row per differing field (prices in cents, quantities in units). AUTOINCREMENT keeps ids
    // rising across replacements, so the CSV pages by id in the order the check read them. A
    // deleted mapping takes its rows with it.
    `CREATE TABLE drift_items (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        mapping_id TEXT NOT NULL REFERENCES mappings(id) ON DELETE CASCADE,
        shopify_sku TEXT NOT NULL,
        acumatica_sku TEXT NOT NULL,
        field TEXT NOT NULL,
        location_id TEXT,
        shopify_value INTEGER,
        erp_value INTEGER
      )`,
    "CREATE INDEX drift_items_user ON drift_items(user_id)",
    "CREATE INDEX drift_items_mapping ON drift_items(mapping_id)",
    // A mapping pointed at another variant or item no longer differs the way it was read.
    `CREATE TRIGGER drift_items_repointed AFTER UPDATE OF shopify_variant_id, acumatica_id ON mappings
        WHEN old.shopify_variant_id IS NOT new.shopify_variant_id OR old.acumatica_id IS NOT new.acumatica_id
        BEGIN DELETE FROM drift_items WHERE mapping_id = new.id; END`,
    "ALTER TABLE schedules ADD COLUMN check_only INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE execution_history ADD COLUMN check_only INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE execution_history ADD COLUMN drifted_count INTEGER",
  ],
};
