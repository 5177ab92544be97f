import * as v from "valibot";
import { PageQueryEntries, SortDirectionSchema } from "./common.ts";

export const InventoryLocationSchema = v.object({
  locationId: v.string(),
  name: v.string(),
  available: v.nullable(v.number()),
  onHandInventory: v.nullable(v.number()),
});

/** One warehouse's quantities of an ERP item. */
export const WarehouseQuantitySchema = v.object({
  warehouseId: v.string(),
  available: v.number(),
  onHandInventory: v.number(),
  availableForShipping: v.number(),
});

export const ShopifyProductSchema = v.object({
  _id: v.string(),
  variantId: v.string(),
  productId: v.string(),
  inventoryItemId: v.nullable(v.string()),
  title: v.string(),
  sku: v.string(),
  price: v.number(),
  compareAtPrice: v.nullable(v.number()),
  isPhysicalProduct: v.boolean(),
  tracked: v.boolean(),
  inventoryLocations: v.array(InventoryLocationSchema),
  lastSynced: v.string(),
});
export type ShopifyProduct = v.InferOutput<typeof ShopifyProductSchema>;

export const AcumaticaProductSchema = v.object({
  _id: v.string(),
  acumaticaId: v.string(),
  sku: v.string(),
  description: v.string(),
  defaultPrice: v.number(),
  msrp: v.nullable(v.number()),
  available: v.nullable(v.number()),
  onHandInventory: v.nullable(v.number()),
  availableForShipping: v.nullable(v.number()),
  isStockItem: v.boolean(),
  warehouses: v.pipe(
    v.array(WarehouseQuantitySchema),
    v.description("Per-warehouse quantities (the totals above are their sums)."),
  ),
  lastSynced: v.string(),
});
export type AcumaticaProduct = v.InferOutput<typeof AcumaticaProductSchema>;

export const SHOPIFY_SORT_FIELDS = [
  "sku",
  "price",
  "compareAtPrice",
  "available",
  "onHandInventory",
  "lastSynced",
] as const;
export const ACUMATICA_SORT_FIELDS = [
  "sku",
  "defaultPrice",
  "msrp",
  "available",
  "onHandInventory",
  "availableForShipping",
  "lastSynced",
] as const;

function productQuery<T extends readonly [string, ...string[]]>(sortFields: T) {
  return v.object({
    ...PageQueryEntries,
    sortBy: v.optional(
      v.picklist(sortFields, `sortBy must be one of ${sortFields.join(", ")}`),
      "lastSynced",
    ),
    sortDirection: v.optional(SortDirectionSchema, "desc"),
  });
}

export const ShopifyProductQuerySchema = productQuery(SHOPIFY_SORT_FIELDS);
export type ShopifyProductQuery = v.InferOutput<typeof ShopifyProductQuerySchema>;
export const AcumaticaProductQuerySchema = productQuery(ACUMATICA_SORT_FIELDS);
export type AcumaticaProductQuery = v.InferOutput<typeof AcumaticaProductQuerySchema>;

function productList<T extends v.GenericSchema>(item: T, currency: string) {
  return v.object({
    products: v.array(item),
    total: v.number(),
    page: v.number(),
    totalPages: v.number(),
    currencyCode: v.pipe(v.nullable(v.string()), v.description(currency)),
  });
}
export const ShopifyProductListSchema = productList(
  ShopifyProductSchema,
  "The store's currency (ISO 4217) the prices are in, as the last connection test read it; null before.",
);
export type ShopifyProductList = v.InferOutput<typeof ShopifyProductListSchema>;
export const AcumaticaProductListSchema = productList(
  AcumaticaProductSchema,
  "The ERP company's base currency (ISO 4217) the prices are in, as the last connection test read it; null before.",
);
export type AcumaticaProductList = v.InferOutput<typeof AcumaticaProductListSchema>;

/** What a catalog pull did to the cached catalog (the swap of the staged rows). */
const PullCountsEntries = {
  total: v.pipe(v.number(), v.description("Products in the catalog after the pull.")),
  added: v.number(),
  updated: v.pipe(v.number(), v.description("Rows whose values changed.")),
  unchanged: v.number(),
  removed: v.pipe(v.number(), v.description("Rows gone from the outside system since the last pull.")),
  calls: v.pipe(v.number(), v.description("HTTP calls the pull made.")),
  waitedMs: v.pipe(v.number(), v.description("Time spent waiting on rate limits or backing off, in ms.")),
};

/** `job.result` of a "shopify-pull" job. */
export const ShopifyPullResultSchema = v.object({
  ...PullCountsEntries,
  skippedWithoutSku: v.pipe(v.number(), v.description("Variants without an SKU: they cannot be mapped.")),
  mode: v.pipe(
    v.picklist(["paged", "bulk"]),
    v.description("Paged reads, or a bulk export for a large store."),
  ),
  servedApiVersion: v.pipe(v.nullable(v.string()), v.description("The Admin API version Shopify served.")),
  points: v.pipe(v.number(), v.description("GraphQL cost points spent.")),
  throttled: v.pipe(v.number(), v.description("Calls Shopify answered THROTTLED (then retried).")),
  exportWaitMs: v.pipe(v.number(), v.description("Time spent waiting for a bulk export, in ms.")),
});
export type ShopifyPullResult = v.InferOutput<typeof ShopifyPullResultSchema>;

/** `job.result` of an "acumatica-pull" job. */
export const AcumaticaPullResultSchema = v.object({
  ...PullCountsEntries,
  stockItems: v.number(),
  nonStockItems: v.number(),
  quantityRows: v.pipe(v.number(), v.description("Warehouse quantity rows read and summed.")),
  retries: v.number(),
});
export type AcumaticaPullResult = v.InferOutput<typeof AcumaticaPullResultSchema>;
