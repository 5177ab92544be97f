import * as v from "valibot";
import { PageQueryEntries, SortDirectionSchema } from "./common.ts";

export const InventoryLocationSchema = v.object({
  locationId: v.string(),
  available: v.nullable(v.number()),
  onHandInventory: v.nullable(v.number()),
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

function productList<T extends v.GenericSchema>(item: T) {
  return v.object({ products: v.array(item), total: v.number(), page: v.number(), totalPages: v.number() });
}
export const ShopifyProductListSchema = productList(ShopifyProductSchema);
export type ShopifyProductList = v.InferOutput<typeof ShopifyProductListSchema>;
export const AcumaticaProductListSchema = productList(AcumaticaProductSchema);
export type AcumaticaProductList = v.InferOutput<typeof AcumaticaProductListSchema>;
