import type { Migration } from "../migrate.ts";

export const catalogStagingChunks: Migration = {
  version: 10,
  name: "catalog staging by chunk, sort orders without indexes",
  statements: [
    // A pull stages each chunk it reads as one JSON row; the swap spreads them into columns.
    "DROP TABLE shopify_products_staging",
    "DROP TABLE acumatica_products_staging",
    `CREATE TABLE catalog_staging (
        job_id TEXT NOT NULL,
        chunk INTEGER NOT NULL,
        user_id TEXT NOT NULL,
        system TEXT NOT NULL,
        rows_json TEXT NOT NULL,
        PRIMARY KEY (job_id, chunk)
      )`,
    "CREATE INDEX catalog_staging_user ON catalog_staging(user_id, system)",
    // No index per sortable column any more: lists read each sort order once per catalog version
    // and keep it in memory (catalog/sort-orders.ts), and writing six indexes was two thirds of
    // saving a 50,000-row pull. The SKU index stays (searches scan it), without the id migration 7
    // added to it: ties sort by rowid, the order rows were first stored in.
    ...["synced", "price", "compare_at", "available", "on_hand"].map(
      (suffix) => `DROP INDEX shopify_products_${suffix}`,
    ),
    ...["synced", "price", "msrp", "available", "on_hand", "shipping"].map(
      (suffix) => `DROP INDEX acumatica_products_${suffix}`,
    ),
    "DROP INDEX shopify_products_sku",
    "CREATE INDEX shopify_products_sku ON shopify_products(user_id, sku_key)",
    "DROP INDEX acumatica_products_sku",
    "CREATE INDEX acumatica_products_sku ON acumatica_products(user_id, sku_key)",
    // Rows are only added and removed, and last_synced only written, by a pull's swap, which bumps
    // the catalog's version once itself: a bump per row made a 50,000-row pull update
    // catalog_state 50,000 times. In-place changes to listed columns (the sync engine's) still
    // bump it per row, below.
    ...(["shopify", "acumatica"] as const).flatMap((system) => [
      `DROP TRIGGER ${system}_products_added`,
      `CREATE TRIGGER ${system}_products_added AFTER INSERT ON ${system}_products BEGIN
          INSERT OR REPLACE INTO ${system}_products_sku_search (rowid, sku_key) VALUES (new.rowid, new.sku_key);
        END`,
      `DROP TRIGGER ${system}_products_removed`,
      `CREATE TRIGGER ${system}_products_removed AFTER DELETE ON ${system}_products BEGIN
          DELETE FROM ${system}_products_sku_search WHERE rowid = old.rowid;
        END`,
    ]),
    "DROP TRIGGER shopify_products_order_changed",
    `CREATE TRIGGER shopify_products_order_changed AFTER UPDATE OF id, sku_key, price_cents, compare_at_price_cents, available, on_hand ON shopify_products
      WHEN old.id IS NOT new.id OR old.sku_key IS NOT new.sku_key OR old.price_cents IS NOT new.price_cents OR old.compare_at_price_cents IS NOT new.compare_at_price_cents OR old.available IS NOT new.available OR old.on_hand IS NOT new.on_hand BEGIN
        UPDATE catalog_state SET version = version + 1 WHERE user_id = new.user_id AND system = 'shopify';
      END`,
    "DROP TRIGGER acumatica_products_order_changed",
    `CREATE TRIGGER acumatica_products_order_changed AFTER UPDATE OF id, sku_key, default_price_cents, msrp_cents, available, on_hand, available_for_shipping ON acumatica_products
      WHEN old.id IS NOT new.id OR old.sku_key IS NOT new.sku_key OR old.default_price_cents IS NOT new.default_price_cents OR old.msrp_cents IS NOT new.msrp_cents OR old.available IS NOT new.available OR old.on_hand IS NOT new.on_hand OR old.available_for_shipping IS NOT new.available_for_shipping BEGIN
        UPDATE catalog_state SET version = version + 1 WHERE user_id = new.user_id AND system = 'acumatica';
      END`,
  ],
};
