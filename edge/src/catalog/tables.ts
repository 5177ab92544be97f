import type { AcumaticaProductQuery, ShopifyProductQuery } from "@stockbridge/shared";

export type CatalogSystem = "shopify" | "acumatica";

/** How a catalog table is listed: each sortable field maps to a column (ties fall to the rowid). */
export interface CatalogTable {
  system: CatalogSystem;
  table: string;
  /** The natural key the pull matches rows on. */
  key: string;
  columns: string[];
  sorts: Record<string, { column: string }>;
  skuIndex: string;
  /** Trigram index of sku_key (migration 9): narrows a SKU search to candidate rowids. */
  skuSearch: string;
  /** One listed product as a JSON array (table alias `p`): one value per row to cross into JS. */
  listed: string;
}

const SHOPIFY_COLUMNS = [
  "product_id",
  "inventory_item_id",
  "title",
  "sku",
  "sku_key",
  "price_cents",
  "compare_at_price_cents",
  "is_physical",
  "tracked",
  "location_id",
  "available",
  "on_hand",
  "locations_json",
];

const ACUMATICA_COLUMNS = [
  "sku",
  "sku_key",
  "description",
  "default_price_cents",
  "msrp_cents",
  "available",
  "on_hand",
  "available_for_shipping",
  "is_stock_item",
  "warehouses_json",
];

export const SHOPIFY_TABLE: CatalogTable = {
  system: "shopify",
  table: "shopify_products",
  key: "variant_id",
  columns: SHOPIFY_COLUMNS,
  skuIndex: "shopify_products_sku",
  skuSearch: "shopify_products_sku_search",
  listed: `json_array(p.id, p.variant_id, p.product_id, p.inventory_item_id, p.title, p.sku, p.price_cents,
    p.compare_at_price_cents, p.is_physical, p.tracked, json(p.locations_json))`,
  sorts: {
    sku: { column: "sku_key" },
    price: { column: "price_cents" },
    compareAtPrice: { column: "compare_at_price_cents" },
    available: { column: "available" },
    onHandInventory: { column: "on_hand" },
    // One lastSynced for the whole catalog: its order is the ties' order, the order rows were stored in.
    lastSynced: { column: "seq" },
  } satisfies Record<ShopifyProductQuery["sortBy"], unknown>,
};

export const ACUMATICA_TABLE: CatalogTable = {
  system: "acumatica",
  table: "acumatica_products",
  key: "acumatica_id",
  columns: ACUMATICA_COLUMNS,
  skuIndex: "acumatica_products_sku",
  skuSearch: "acumatica_products_sku_search",
  listed: `json_array(p.id, p.acumatica_id, p.sku, p.description, p.default_price_cents, p.msrp_cents, p.available,
    p.on_hand, p.available_for_shipping, p.is_stock_item, json(p.warehouses_json))`,
  sorts: {
    sku: { column: "sku_key" },
    defaultPrice: { column: "default_price_cents" },
    msrp: { column: "msrp_cents" },
    available: { column: "available" },
    onHandInventory: { column: "on_hand" },
    availableForShipping: { column: "available_for_shipping" },
    // One lastSynced for the whole catalog: its order is the ties' order, the order rows were stored in.
    lastSynced: { column: "seq" },
  } satisfies Record<AcumaticaProductQuery["sortBy"], unknown>,
};
