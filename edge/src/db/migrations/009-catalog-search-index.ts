import type { Migration } from "../migrate.ts";

export const catalogSearchIndex: Migration = {
  version: 9,
  name: "catalog list search index and order versions",
  statements: [
    // A trigram index of each SKU key narrows a "contains" search to candidate rows (the list
    // still checks instr on each), kept in step by triggers. Contentless: it only yields rowids.
    // Every change to a row's presence or to a sortable column bumps the catalog's version, so
    // cached sort orders and searches (keyed by it) never outlive the rows they were read from,
    // whoever writes: the pull, the sync engine's in-place updates, or later code.
    `CREATE VIRTUAL TABLE shopify_products_sku_search USING fts5(
        sku_key, tokenize = 'trigram case_sensitive 1', detail = none, content = '', contentless_delete = 1
      )`,
    "INSERT INTO shopify_products_sku_search (rowid, sku_key) SELECT rowid, sku_key FROM shopify_products",
    `CREATE TRIGGER shopify_products_added AFTER INSERT ON shopify_products BEGIN
        INSERT OR REPLACE INTO shopify_products_sku_search (rowid, sku_key) VALUES (new.rowid, new.sku_key);
        UPDATE catalog_state SET version = version + 1 WHERE user_id = new.user_id AND system = 'shopify';
      END`,
    `CREATE TRIGGER shopify_products_removed AFTER DELETE ON shopify_products BEGIN
        DELETE FROM shopify_products_sku_search WHERE rowid = old.rowid;
        UPDATE catalog_state SET version = version + 1 WHERE user_id = old.user_id AND system = 'shopify';
      END`,
    `CREATE TRIGGER shopify_products_sku_changed AFTER UPDATE OF sku_key ON shopify_products
      WHEN old.sku_key IS NOT new.sku_key BEGIN
        INSERT OR REPLACE INTO shopify_products_sku_search (rowid, sku_key) VALUES (new.rowid, new.sku_key);
      END`,
    `CREATE TRIGGER shopify_products_order_changed AFTER UPDATE OF id, sku_key, price_cents, compare_at_price_cents, available, on_hand, last_synced ON shopify_products
      WHEN old.id IS NOT new.id OR old.sku_key IS NOT new.sku_key OR old.price_cents IS NOT new.price_cents OR old.compare_at_price_cents IS NOT new.compare_at_price_cents OR old.available IS NOT new.available OR old.on_hand IS NOT new.on_hand OR old.last_synced IS NOT new.last_synced BEGIN
        UPDATE catalog_state SET version = version + 1 WHERE user_id = new.user_id AND system = 'shopify';
      END`,
    `CREATE VIRTUAL TABLE acumatica_products_sku_search USING fts5(
        sku_key, tokenize = 'trigram case_sensitive 1', detail = none, content = '', contentless_delete = 1
      )`,
    "INSERT INTO acumatica_products_sku_search (rowid, sku_key) SELECT rowid, sku_key FROM acumatica_products",
    `CREATE TRIGGER acumatica_products_added AFTER INSERT ON acumatica_products BEGIN
        INSERT OR REPLACE INTO acumatica_products_sku_search (rowid, sku_key) VALUES (new.rowid, new.sku_key);
        UPDATE catalog_state SET version = version + 1 WHERE user_id = new.user_id AND system = 'acumatica';
      END`,
    `CREATE TRIGGER acumatica_products_removed AFTER DELETE ON acumatica_products BEGIN
        DELETE FROM acumatica_products_sku_search WHERE rowid = old.rowid;
        UPDATE catalog_state SET version = version + 1 WHERE user_id = old.user_id AND system = 'acumatica';
      END`,
    `CREATE TRIGGER acumatica_products_sku_changed AFTER UPDATE OF sku_key ON acumatica_products
      WHEN old.sku_key IS NOT new.sku_key BEGIN
        INSERT OR REPLACE INTO acumatica_products_sku_search (rowid, sku_key) VALUES (new.rowid, new.sku_key);
      END`,
    `CREATE TRIGGER acumatica_products_order_changed AFTER UPDATE OF id, sku_key, default_price_cents, msrp_cents, available, on_hand, available_for_shipping, last_synced ON acumatica_products
      WHEN old.id IS NOT new.id OR old.sku_key IS NOT new.sku_key OR old.default_price_cents IS NOT new.default_price_cents OR old.msrp_cents IS NOT new.msrp_cents OR old.available IS NOT new.available OR old.on_hand IS NOT new.on_hand OR old.available_for_shipping IS NOT new.available_for_shipping OR old.last_synced IS NOT new.last_synced BEGIN
        UPDATE catalog_state SET version = version + 1 WHERE user_id = new.user_id AND system = 'acumatica';
      END`,
  ],
};
