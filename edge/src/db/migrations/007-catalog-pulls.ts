import type { Migration } from "../migrate.ts";

export const catalogPulls: Migration = {
  version: 7,
  name: "catalog pulls: staging, totals and list indexes",
  statements: [
    // A pull writes here page by page, then swaps into the catalog in one transaction, so a
    // failed pull leaves the previous catalog untouched and memory stays flat. (Rowid tables:
    // appending wide rows is several times faster than into a WITHOUT ROWID key of random ids.)
    `CREATE TABLE shopify_products_staging (
        job_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        variant_id TEXT NOT NULL,
        new_id TEXT NOT NULL,
        product_id TEXT NOT NULL,
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
        locations_json TEXT NOT NULL,
        UNIQUE (job_id, variant_id)
      )`,
    `CREATE TABLE acumatica_products_staging (
        job_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        acumatica_id TEXT NOT NULL,
        new_id TEXT NOT NULL,
        sku TEXT NOT NULL,
        sku_key TEXT NOT NULL,
        description TEXT NOT NULL,
        default_price_cents INTEGER NOT NULL,
        msrp_cents INTEGER,
        available INTEGER,
        on_hand INTEGER,
        available_for_shipping INTEGER,
        is_stock_item INTEGER NOT NULL,
        UNIQUE (job_id, acumatica_id)
      )`,
    // Row count and a version per user and system, written by each pull: an unfiltered list needs
    // no COUNT over 100,000 rows, and cached search results know when they are stale.
    `CREATE TABLE catalog_state (
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        system TEXT NOT NULL,
        total INTEGER NOT NULL,
        version INTEGER NOT NULL,
        last_synced TEXT NOT NULL,
        PRIMARY KEY (user_id, system)
      )`,
    // One index per sortable column: the id breaks ties, and sku_key lets a SKU search filter on
    // the index itself while it walks it in sort order (no table row read for non-matches).
    "DROP INDEX shopify_products_synced",
    "DROP INDEX shopify_products_sku",
    "DROP INDEX shopify_products_price",
    "CREATE INDEX shopify_products_synced ON shopify_products(user_id, last_synced, id, sku_key)",
    "CREATE INDEX shopify_products_sku ON shopify_products(user_id, sku_key, id)",
    "CREATE INDEX shopify_products_price ON shopify_products(user_id, price_cents, id, sku_key)",
    "CREATE INDEX shopify_products_compare_at ON shopify_products(user_id, compare_at_price_cents, id, sku_key)",
    "CREATE INDEX shopify_products_available ON shopify_products(user_id, available, id, sku_key)",
    "CREATE INDEX shopify_products_on_hand ON shopify_products(user_id, on_hand, id, sku_key)",
    "DROP INDEX acumatica_products_synced",
    "DROP INDEX acumatica_products_sku",
    "DROP INDEX acumatica_products_price",
    "CREATE INDEX acumatica_products_synced ON acumatica_products(user_id, last_synced, id, sku_key)",
    "CREATE INDEX acumatica_products_sku ON acumatica_products(user_id, sku_key, id)",
    "CREATE INDEX acumatica_products_price ON acumatica_products(user_id, default_price_cents, id, sku_key)",
    "CREATE INDEX acumatica_products_msrp ON acumatica_products(user_id, msrp_cents, id, sku_key)",
    "CREATE INDEX acumatica_products_available ON acumatica_products(user_id, available, id, sku_key)",
    "CREATE INDEX acumatica_products_on_hand ON acumatica_products(user_id, on_hand, id, sku_key)",
    "CREATE INDEX acumatica_products_shipping ON acumatica_products(user_id, available_for_shipping, id, sku_key)",
  ],
};
