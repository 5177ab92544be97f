import { grantSubscription, type TestApp } from "./helpers.ts";

/*
 * Catalog rows as a pull leaves them, written with SQL so mapping tests control every field.
 * Ids follow the pull's shapes: Shopify GIDs, Acumatica InventoryIDs as given.
 */
let counter = 0;

export interface VariantRow {
  id: string;
  variantId: string;
  productId: string;
  inventoryItemId: string;
  sku: string;
}

export async function insertVariant(
  db: TestApp["db"],
  userId: string,
  fields: Partial<{
    sku: string;
    variantId: string;
    productId: string;
    inventoryItemId: string;
    locationId: string | null;
    priceCents: number;
    compareAtCents: number | null;
    tracked: boolean;
    available: number | null;
    onHand: number | null;
  }> = {},
): Promise<VariantRow> {
  counter += 1;
  const row = {
    id: crypto.randomUUID(),
    variantId: fields.variantId ?? `gid://shopify/ProductVariant/${900_000 + counter}`,
    productId: fields.productId ?? `gid://shopify/Product/${800_000 + counter}`,
    inventoryItemId: fields.inventoryItemId ?? `gid://shopify/InventoryItem/${700_000 + counter}`,
    sku: fields.sku ?? `SKU-${counter}`,
  };
  await db.execute({
    sql: `INSERT INTO shopify_products (id, user_id, variant_id, product_id, inventory_item_id, title, sku, sku_key, price_cents,
            compare_at_price_cents, is_physical, tracked, location_id, available, on_hand, locations_json)
          VALUES (?, ?, ?, ?, ?, 'Test product', ?, ?, ?, ?, 1, ?, ?, ?, ?, '[]')`,
    args: [
      row.id,
      userId,
      row.variantId,
      row.productId,
      row.inventoryItemId,
      row.sku,
      skuKey(row.sku),
      fields.priceCents ?? 1000,
      fields.compareAtCents ?? null,
      fields.tracked === false ? 0 : 1,
      fields.locationId === undefined ? "gid://shopify/Location/70001" : fields.locationId,
      fields.available ?? 5,
      fields.onHand ?? 5,
    ],
  });
  return row;
}

export interface ItemRow {
  id: string;
  acumaticaId: string;
  sku: string;
}

export async function insertItem(
  db: TestApp["db"],
  userId: string,
  fields: Partial<{
    sku: string;
    acumaticaId: string;
    priceCents: number;
    msrpCents: number | null;
    isStockItem: boolean;
  }> = {},
): Promise<ItemRow> {
  counter += 1;
  const sku = fields.sku ?? `ERP-${counter}`;
  const row = { id: crypto.randomUUID(), acumaticaId: fields.acumaticaId ?? sku, sku };
  await db.execute({
    sql: `INSERT INTO acumatica_products (id, user_id, acumatica_id, sku, sku_key, description, default_price_cents, msrp_cents,
            available, on_hand, available_for_shipping, is_stock_item)
          VALUES (?, ?, ?, ?, ?, 'Test item', ?, ?, 5, 5, 5, ?)`,
    args: [
      row.id,
      userId,
      row.acumaticaId,
      row.sku,
      skuKey(row.sku),
      fields.priceCents ?? 1000,
      fields.msrpCents ?? null,
      fields.isStockItem === false ? 0 : 1,
    ],
  });
  return row;
}

export async function deleteVariant(db: TestApp["db"], userId: string, variantId: string) {
  await db.execute({
    sql: "DELETE FROM shopify_products WHERE user_id = ? AND variant_id = ?",
    args: [userId, variantId],
  });
}

export async function deleteItem(db: TestApp["db"], userId: string, acumaticaId: string) {
  await db.execute({
    sql: "DELETE FROM acumatica_products WHERE user_id = ? AND acumatica_id = ?",
    args: [userId, acumaticaId],
  });
}

function skuKey(sku: string): string {
  return sku.trim().toLowerCase();
}

/** A registered user with an active subscription: what every mapping and sync route needs. */
export async function registerSubscriber(app: TestApp) {
  const { user, token } = await app.registerUser();
  await grantSubscription(app.db, user._id);
  return { userId: user._id, token, api: app.client(token) };
}

/**
 * A large catalog in one statement per side: Shopify SKUs `SKU-000001`.., Acumatica SKUs
 * `ERP-000001`.. (ids follow the same numbers), as many rows as asked (at least one a side).
 */
export async function insertCatalogs(
  db: TestApp["db"],
  userId: string,
  counts: { shopify: number; acumatica: number },
): Promise<void> {
  const numbers = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)";
  await db.execute({
    sql: `${numbers}
          INSERT INTO shopify_products (id, user_id, variant_id, product_id, inventory_item_id, title, sku, sku_key, price_cents,
            compare_at_price_cents, is_physical, tracked, location_id, available, on_hand, locations_json)
          SELECT lower(hex(randomblob(16))), ?, 'gid://shopify/ProductVariant/' || i, 'gid://shopify/Product/' || i,
            'gid://shopify/InventoryItem/' || i, 'Test product', printf('SKU-%06d', i), printf('sku-%06d', i), 1000,
            NULL, 1, 1, 'gid://shopify/Location/70001', 5, 5, '[]'
          FROM n`,
    args: [counts.shopify, userId],
  });
  await db.execute({
    sql: `${numbers}
          INSERT INTO acumatica_products (id, user_id, acumatica_id, sku, sku_key, description, default_price_cents, msrp_cents,
            available, on_hand, available_for_shipping, is_stock_item)
          SELECT lower(hex(randomblob(16))), ?, printf('ERP-%06d', i), printf('ERP-%06d', i), printf('erp-%06d', i),
            'Test item', 1000, NULL, 5, 5, 5, 1
          FROM n`,
    args: [counts.acumatica, userId],
  });
}
