import type { Migration } from "../migrate.ts";

export const safetyLimits: Migration = {
  version: 23,
  name: "safety limits, and runs held for review with their plan",
  statements: [
    // Whole percentages; 0 turns a limit off. A user without a settings row reads the defaults.
    "ALTER TABLE settings ADD COLUMN max_price_change_percent INTEGER NOT NULL DEFAULT 50",
    "ALTER TABLE settings ADD COLUMN max_zeroed_percent INTEGER NOT NULL DEFAULT 20",
    // A held run's review: its reasons (a short JSON list of texts), when it was held, how many
    // changes its plan has, and what was decided (approved / discarded) and when.
    "ALTER TABLE execution_history ADD COLUMN held_reasons TEXT",
    "ALTER TABLE execution_history ADD COLUMN held_at TEXT",
    "ALTER TABLE execution_history ADD COLUMN held_change_count INTEGER",
    "ALTER TABLE execution_history ADD COLUMN decision TEXT",
    "ALTER TABLE execution_history ADD COLUMN decided_at TEXT",
    // The held plan, one row per field change (a 10,000-mapping run is rows, not one JSON value):
    // what the write needs (ids, quantity name, location), the value Shopify held and the new one
    // (cents for prices, units for quantities, null for no compare-at price), and what approving
    // did with it. seq runs 0..n-1 per run, so a page is a range of the primary key.
    `CREATE TABLE held_changes (
        history_id TEXT NOT NULL REFERENCES execution_history(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        mapping_id TEXT NOT NULL,
        shopify_sku TEXT NOT NULL,
        acumatica_sku TEXT NOT NULL,
        field TEXT NOT NULL,
        product_id TEXT NOT NULL,
        variant_id TEXT NOT NULL,
        inventory_item_id TEXT,
        location_id TEXT,
        location_name TEXT,
        quantity_name TEXT,
        old_value INTEGER,
        new_value INTEGER,
        result TEXT,
        note TEXT,
        PRIMARY KEY (history_id, seq)
      ) WITHOUT ROWID`,
  ],
};
