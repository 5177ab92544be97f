import type { Migration } from "../migrate.ts";

export const unmappedIndex: Migration = {
  version: 16,
  name: "unmapped products paged by SKU from an index",
  statements: [
    // A page of unmapped products walks the user's rows in SKU order and skips those a mapping
    // uses: with the external id in the index, neither the skipping (a deep OFFSET) nor the
    // count reads a table row. Ties order by that id, unique per user.
    "CREATE INDEX shopify_products_unmapped ON shopify_products(user_id, sku_key, variant_id)",
    "CREATE INDEX acumatica_products_unmapped ON acumatica_products(user_id, sku_key, acumatica_id)",
  ],
};
