import type {
  AcumaticaProduct,
  AcumaticaProductQuery,
  ShopifyProduct,
  ShopifyProductQuery,
} from "@stockbridge/shared";
import { fromCents } from "@stockbridge/shared";
import type { AcumaticaItemRow } from "../connectors/acumatica/catalog-reader.ts";
import type { ShopifyVariantRow } from "../connectors/shopify/catalog-reader.ts";

export type CatalogSystem = "shopify" | "acumatica";

/** A value as SQLite stores it: booleans are 0 / 1, lists are JSON text. */
export type SqlValue = string | number | null;

/**
 * One column of a catalog table: its SQL name, what a pulled row stores in it, and, when the
 * product lists show it, the product field it is and how its stored value reads back. Columns with
 * no field are only sorted or searched on (sku_key, the first location's quantities).
 */
export type CatalogColumn<Pulled, Product> = (
  | { sql: string; encode: (row: Pulled) => SqlValue }
  // A JSON column is staged as JSON inside the staged row, not as text of JSON: no escaping to
  // write and undo for every row (a third of staging 52,000 items with their warehouses).
  | { sql: string; json: true; encode: (row: Pulled) => readonly unknown[] }
) & { field?: ListedField<Product> };

/** The product field a column is listed as; `json` columns cross into JS as JSON, not as text. */
type ListedField<Product> = {
  [K in keyof Product]: { name: K; decode: (value: unknown) => Product[K]; json?: true };
}[keyof Product];

/** How a catalog table is listed: each sortable field maps to a column (ties fall to the rowid). */
export interface CatalogTable {
  system: CatalogSystem;
  table: string;
  /** The natural key the pull matches rows on. */
  key: string;
  /** Every value column (key, id and bookkeeping columns aside), in staging order. */
  columns: string[];
  /** The columns of `columns` that hold JSON (staged as JSON values, stored as their text). */
  jsonColumns: string[];
  sorts: Record<string, { column: string }>;
  skuIndex: string;
  /** Trigram index of sku_key (migration 9): narrows a SKU search to candidate rowids. */
  skuSearch: string;
  /** One listed product as a JSON array (table alias `p`): one value per row to cross into JS. */
  listed: string;
}

/** A catalog table with what its columns make: staged rows from a pull, products from listed values. */
export interface Catalog<Pulled, Product> extends CatalogTable {
  /** A pulled row as the swap reads it from staging: `[key, newId, ...columns]`. */
  stage(row: Pulled, id: string): (SqlValue | readonly unknown[])[];
  /** The values of `listed`, in that order, as a product; lastSynced is the catalog's. */
  decode(values: unknown[], lastSynced: string): Product;
}

/**
 * Builds a catalog from its columns: the SQL column list, the staged row, the listed array and its
 * decoder all follow the one list, so a new field is one column here (and its DDL in a migration).
 */
function defineCatalog<Pulled, Product>(spec: {
  system: CatalogSystem;
  table: string;
  key: { sql: string; field: keyof Product & string; encode: (row: Pulled) => string };
  columns: CatalogColumn<Pulled, Product>[];
  sorts: CatalogTable["sorts"];
  skuIndex: string;
  skuSearch: string;
}): Catalog<Pulled, Product> {
  const listed = spec.columns.flatMap((column) =>
    column.field ? [{ sql: column.sql, ...column.field }] : [],
  );
  return {
    system: spec.system,
    table: spec.table,
    key: spec.key.sql,
    columns: spec.columns.map((column) => column.sql),
    jsonColumns: spec.columns.flatMap((column) => ("json" in column ? [column.sql] : [])),
    sorts: spec.sorts,
    skuIndex: spec.skuIndex,
    skuSearch: spec.skuSearch,
    listed: `json_array(p.id, p.${spec.key.sql}, ${listed
      .map((column) => (column.json ? `json(p.${column.sql})` : `p.${column.sql}`))
      .join(", ")})`,
    stage: (row, id) => [spec.key.encode(row), id, ...spec.columns.map((column) => column.encode(row))],
    decode(values, lastSynced) {
      const product: Record<string, unknown> = {
        _id: String(values[0]),
        [spec.key.field]: String(values[1]),
      };
      listed.forEach((column, index) => {
        product[column.name as string] = column.decode(values[index + 2]);
      });
      product.lastSynced = lastSynced;
      return listedProduct<Product>(product);
    },
  };
}

/** Safe: `decode` sets the id, the key, every listed field (each by its column's decoder) and lastSynced. */
function listedProduct<Product>(fields: Record<string, unknown>): Product {
  return fields as Product;
}

export const SHOPIFY_TABLE = defineCatalog<ShopifyVariantRow, ShopifyProduct>({
  system: "shopify",
  table: "shopify_products",
  key: { sql: "variant_id", field: "variantId", encode: (row) => row.variantId },
  columns: [
    { sql: "product_id", encode: (row) => row.productId, field: { name: "productId", decode: String } },
    {
      sql: "inventory_item_id",
      encode: (row) => row.inventoryItemId,
      field: { name: "inventoryItemId", decode: nullableText },
    },
    { sql: "title", encode: (row) => row.title, field: { name: "title", decode: String } },
    { sql: "sku", encode: (row) => row.sku, field: { name: "sku", decode: String } },
    { sql: "sku_key", encode: (row) => row.sku.toLowerCase() },
    { sql: "price_cents", encode: (row) => row.priceCents, field: { name: "price", decode: money } },
    {
      sql: "compare_at_price_cents",
      encode: (row) => row.compareAtPriceCents,
      field: { name: "compareAtPrice", decode: nullableMoney },
    },
    {
      sql: "is_physical",
      encode: (row) => flag(row.isPhysical),
      field: { name: "isPhysicalProduct", decode: isSet },
    },
    { sql: "tracked", encode: (row) => flag(row.tracked), field: { name: "tracked", decode: isSet } },
    // The first location's quantities, kept apart for sorting (the lists show every location's).
    { sql: "location_id", encode: (row) => row.locationId },
    { sql: "available", encode: (row) => row.available },
    { sql: "on_hand", encode: (row) => row.onHand },
    {
      sql: "locations_json",
      json: true,
      encode: (row) =>
        row.levels.map((level) => ({
          locationId: level.locationId,
          name: level.name,
          available: level.available,
          onHandInventory: level.onHand,
        })),
      field: { name: "inventoryLocations", decode: storedLocations, json: true },
    },
  ],
  skuIndex: "shopify_products_sku",
  skuSearch: "shopify_products_sku_search",
  sorts: {
    sku: { column: "sku_key" },
    price: { column: "price_cents" },
    compareAtPrice: { column: "compare_at_price_cents" },
    available: { column: "available" },
    onHandInventory: { column: "on_hand" },
    // One lastSynced for the whole catalog: its order is the ties' order, the order rows were stored in.
    lastSynced: { column: "seq" },
  } satisfies Record<ShopifyProductQuery["sortBy"], unknown>,
});

export const ACUMATICA_TABLE = defineCatalog<AcumaticaItemRow, AcumaticaProduct>({
  system: "acumatica",
  table: "acumatica_products",
  key: { sql: "acumatica_id", field: "acumaticaId", encode: (row) => row.acumaticaId },
  columns: [
    { sql: "sku", encode: (row) => row.sku, field: { name: "sku", decode: String } },
    { sql: "sku_key", encode: (row) => row.sku.toLowerCase() },
    { sql: "description", encode: (row) => row.description, field: { name: "description", decode: String } },
    {
      sql: "default_price_cents",
      encode: (row) => row.defaultPriceCents,
      field: { name: "defaultPrice", decode: money },
    },
    { sql: "msrp_cents", encode: (row) => row.msrpCents, field: { name: "msrp", decode: nullableMoney } },
    {
      sql: "available",
      encode: (row) => row.available,
      field: { name: "available", decode: nullableNumber },
    },
    {
      sql: "on_hand",
      encode: (row) => row.onHand,
      field: { name: "onHandInventory", decode: nullableNumber },
    },
    {
      sql: "available_for_shipping",
      encode: (row) => row.availableForShipping,
      field: { name: "availableForShipping", decode: nullableNumber },
    },
    {
      sql: "is_stock_item",
      encode: (row) => flag(row.isStockItem),
      field: { name: "isStockItem", decode: isSet },
    },
    {
      sql: "warehouses_json",
      json: true,
      // [warehouseId, available, onHand, availableForShipping] per warehouse (migration 30): a
      // quarter of the text of named fields, which every pull writes and compares 150,000 times.
      encode: (row) =>
        row.warehouses.map((warehouse) => [
          warehouse.warehouseId,
          warehouse.available,
          warehouse.onHand,
          warehouse.availableForShipping,
        ]),
      field: { name: "warehouses", decode: storedWarehouses, json: true },
    },
  ],
  skuIndex: "acumatica_products_sku",
  skuSearch: "acumatica_products_sku_search",
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
});

export const TABLES = { shopify: SHOPIFY_TABLE, acumatica: ACUMATICA_TABLE } as const;

function flag(value: boolean): number {
  return value ? 1 : 0;
}

function isSet(value: unknown): boolean {
  return Number(value) === 1;
}

function money(value: unknown): number {
  return fromCents(Number(value));
}

function nullableMoney(value: unknown): number | null {
  return value === null ? null : fromCents(Number(value));
}

function nullableText(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

function nullableNumber(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

/** warehouses_json is only written by the pull, always as `[warehouseId, available, onHand, availableForShipping][]`. */
function storedWarehouses(value: unknown): AcumaticaProduct["warehouses"] {
  if (!Array.isArray(value)) return [];
  return value.map((stored) => {
    const [warehouseId, available, onHandInventory, availableForShipping] = stored as [
      string,
      number,
      number,
      number,
    ];
    return { warehouseId, available, onHandInventory, availableForShipping };
  });
}

/**
 * locations_json is only written by the pull and the sync engine, always as this list's shape;
 * rows pulled before locations had names (migration 28) read an empty name until the next pull.
 */
function storedLocations(value: unknown): ShopifyProduct["inventoryLocations"] {
  const levels = value as Omit<ShopifyProduct["inventoryLocations"][number], "name">[];
  return levels.map((level) => ({ name: "", ...level }));
}
