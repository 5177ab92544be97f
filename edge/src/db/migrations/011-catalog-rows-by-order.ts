import type { Migration } from "../migrate.ts";

// Helpers of this migration, frozen with it as the migration itself is.

const SHOPIFY_COLUMNS_DDL = `product_id TEXT NOT NULL,
        inventory_item_id TEXT,
        title TEXT NOT NULL,
        sku TEXT NOT NULL,
        sku_key TEXT NOT NULL,
        price_cents INTEGER NOT NULL,
        compare_at_price_cents INTEGER,
        is_physical INTEGER NOT NULL,
        tracked INTEGER NOT NULL,
        location_id TEXT,
        available INTEGER,
        on_hand INTEGER,
        locations_json TEXT NOT NULL DEFAULT '[]'`;

const ACUMATICA_COLUMNS_DDL = `sku TEXT NOT NULL,
        sku_key TEXT NOT NULL,
        description TEXT NOT NULL,
        default_price_cents INTEGER NOT NULL,
        msrp_cents INTEGER,
        available INTEGER,
        on_hand INTEGER,
        available_for_shipping INTEGER,
        is_stock_item INTEGER NOT NULL`;

/** Columns whose change re-sorts a list: an in-place update of one bumps the catalog's version. */
const ORDER_COLUMNS = {
  shopify: ["id", "sku_key", "price_cents", "compare_at_price_cents", "available", "on_hand"],
  acumatica: [
    "id",
    "sku_key",
    "default_price_cents",
    "msrp_cents",
    "available",
    "on_hand",
    "available_for_shipping",
  ],
};

function rebuildCatalogTable(system: "shopify" | "acumatica", key: string, columnsDdl: string): string[] {
  const table = `${system}_products`;
  const columnNames = columnsDdl.split(",").map((line) => line.trim().split(" ")[0]);
  const copied = ["id", "user_id", key, ...columnNames].join(", ");
  const orderColumns = ORDER_COLUMNS[system];
  return [
    ...["added", "removed", "sku_changed", "order_changed"].map((name) => `DROP TRIGGER ${table}_${name}`),
    `CREATE TABLE ${table}_rebuilt (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        ${key} TEXT NOT NULL,
        ${columnsDdl},
        UNIQUE (user_id, ${key})
      )`,
    `INSERT INTO ${table}_rebuilt (seq, ${copied}) SELECT rowid, ${copied} FROM ${table} ORDER BY rowid`,
    `DROP TABLE ${table}`,
    `ALTER TABLE ${table}_rebuilt RENAME TO ${table}`,
    `CREATE INDEX ${table}_sku ON ${table}(user_id, sku_key)`,
    // Rows a swap adds are left to indexSearch (above unindexed_from); any other insert is indexed.
    `CREATE TRIGGER ${table}_added AFTER INSERT ON ${table}
      WHEN NOT EXISTS (SELECT 1 FROM catalog_state c
        WHERE c.user_id = new.user_id AND c.system = '${system}' AND new.seq > c.unindexed_from) BEGIN
        INSERT OR REPLACE INTO ${table}_sku_search (rowid, sku_key) VALUES (new.seq, new.sku_key);
      END`,
    `CREATE TRIGGER ${table}_removed AFTER DELETE ON ${table} BEGIN
        DELETE FROM ${table}_sku_search WHERE rowid = old.rowid;
      END`,
    `CREATE TRIGGER ${table}_sku_changed AFTER UPDATE OF sku_key ON ${table}
      WHEN old.sku_key IS NOT new.sku_key BEGIN
        INSERT OR REPLACE INTO ${table}_sku_search (rowid, sku_key) VALUES (new.rowid, new.sku_key);
      END`,
    `CREATE TRIGGER ${table}_order_changed AFTER UPDATE OF ${orderColumns.join(", ")} ON ${table}
      WHEN ${orderColumns.map((column) => `old.${column} IS NOT new.${column}`).join(" OR ")} BEGIN
        UPDATE catalog_state SET version = version + 1 WHERE user_id = new.user_id AND system = '${system}';
      END`,
  ];
}

export const catalogRowsByOrder: Migration = {
  version: 11,
  name: "catalog rows keyed by their stored order, lastSynced per catalog, search index after the swap",
  statements: [
    // Rows a pull's swap adds get their SKU search entries right after it, in their own
    // transaction (CatalogRepo.indexSearch): that index was a fifth of the swap's time, and the
    // swap holds the database's one write lock. Until then searches scan the user's SKU index.
    // unindexed_from: the user's rows with a seq above it may have no search entry yet.
    "ALTER TABLE catalog_state ADD COLUMN unindexed_from INTEGER",
    // The catalog tables are rebuilt:
    // - without the unique index on id: nothing looks a product up by it;
    // - without last_synced: only a pull's swap wrote it, to every row of the catalog, so it was
    //   always catalog_state.last_synced, and a pull of 50,000 unchanged rows rewrote them all;
    // - with `seq` naming the rowid, so the stored order that breaks sort ties (and that sorting
    //   by lastSynced is), and the rowids the search index points at, survive a VACUUM.
    // Triggers go first: the DROP would fire them.
    ...rebuildCatalogTable("shopify", "variant_id", SHOPIFY_COLUMNS_DDL),
    ...rebuildCatalogTable("acumatica", "acumatica_id", ACUMATICA_COLUMNS_DDL),
  ],
};
