import type { TestApp } from "./helpers.ts";

/**
 * A check's list as a large store leaves it, written with SQL: `count` mappings (`bulk-1`...), each
 * with its quantity off by one at one location. The CSV of it reads
 * `bulk-N,S-N,E-N,quantity,gid://shopify/Location/1,1,2`.
 */
export async function insertDriftList(db: TestApp["db"], userId: string, count: number): Promise<void> {
  await db.batch(
    [
      {
        sql: `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
              INSERT INTO mappings (id, user_id, shopify_variant_id, shopify_sku, acumatica_id, acumatica_sku, mapping_type, created_at, updated_at)
              SELECT 'bulk-' || i, ?, 'gid://shopify/ProductVariant/9' || i, 'S-' || i, 'bulk-erp-' || i, 'E-' || i, 'manual',
                '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z' FROM n`,
        args: [count, userId],
      },
      {
        sql: `INSERT INTO drift_items (user_id, mapping_id, shopify_sku, acumatica_sku, field, location_id, shopify_value, erp_value)
              SELECT ?, id, shopify_sku, acumatica_sku, 'quantity', 'gid://shopify/Location/1', 1, 2 FROM mappings
              WHERE user_id = ? AND id LIKE 'bulk-%' ORDER BY rowid`,
        args: [userId, userId],
      },
      {
        sql: `INSERT INTO drift_checks (user_id, checked_at, mappings, fields_json, source) VALUES (?, ?, ?, '["quantity"]', 'check')`,
        args: [userId, "2026-11-21T10:00:00.000Z", count],
      },
    ],
    "write",
  );
}

export function driftCsvLine(n: number): string {
  return `bulk-${n},S-${n},E-${n},quantity,gid://shopify/Location/1,1,2`;
}
