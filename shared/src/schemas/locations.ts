import * as v from "valibot";
import { LOCATION_RULES, MESSAGES } from "../messages.ts";

/** A Shopify location as Settings and the product list name it. */
export const ShopifyLocationSchema = v.object({
  id: v.pipe(v.string(), v.description("The location's GID, e.g. gid://shopify/Location/1.")),
  name: v.string(),
  isActive: v.pipe(v.boolean(), v.description("Deactivated locations stock nothing and cannot be mapped.")),
  isPrimary: v.pipe(v.boolean(), v.description("The shop's primary (fallback) location.")),
});
export type ShopifyLocation = v.InferOutput<typeof ShopifyLocationSchema>;
export const ShopifyLocationListSchema = v.array(ShopifyLocationSchema);

/** An Acumatica warehouse (the Warehouse entity's WarehouseID and Description). */
export const AcumaticaWarehouseSchema = v.object({
  id: v.pipe(v.string(), v.description("The WarehouseID.")),
  description: v.string(),
});
export type AcumaticaWarehouse = v.InferOutput<typeof AcumaticaWarehouseSchema>;
export const AcumaticaWarehouseListSchema = v.array(AcumaticaWarehouseSchema);

export const LocationFeedSchema = v.object({
  shopifyLocationId: v.pipe(
    v.string("shopifyLocationId must be a Shopify location id"),
    v.trim(),
    v.minLength(1, "shopifyLocationId must be a Shopify location id"),
  ),
  warehouseIds: v.array(
    v.pipe(
      v.string("warehouseIds must list Acumatica warehouse ids"),
      v.trim(),
      v.minLength(1, "warehouseIds must list Acumatica warehouse ids"),
    ),
    "warehouseIds must list Acumatica warehouse ids",
  ),
});
export type LocationFeed = v.InferOutput<typeof LocationFeedSchema>;

/**
 * Which ERP warehouses feed each Shopify location: a location's quantity is the chosen Acumatica
 * quantity summed over its warehouses. The rules that need no outside system are checked here; an
 * unknown location or warehouse id is the server's to find.
 */
export const LocationMappingSchema = v.pipe(
  v.object({
    locations: v.pipe(
      v.array(LocationFeedSchema, "locations must be a list"),
      v.minLength(1, MESSAGES.settings.locationRequired),
      v.maxLength(250, "locations must list at most 250 locations"),
    ),
  }),
  v.forward(
    v.check(
      (mapping) => duplicateLocation(mapping.locations) === null,
      (issue) => LOCATION_RULES.locationTwice(duplicateLocation(issue.input.locations) ?? ""),
    ),
    ["locations"],
  ),
  v.forward(
    v.check(
      (mapping) => sharedWarehouse(mapping.locations) === null,
      (issue) => LOCATION_RULES.warehouseTwice(sharedWarehouse(issue.input.locations) ?? ""),
    ),
    ["locations"],
  ),
);
export type LocationMapping = v.InferOutput<typeof LocationMappingSchema>;

export const LocationMappingResultSchema = v.object({
  locationMapping: v.object({ locations: v.array(LocationFeedSchema) }),
});

function duplicateLocation(locations: readonly { shopifyLocationId: string }[]): string | null {
  const seen = new Set<string>();
  for (const location of locations) {
    if (seen.has(location.shopifyLocationId)) return location.shopifyLocationId;
    seen.add(location.shopifyLocationId);
  }
  return null;
}

/** A warehouse feeds at most one location: its stock cannot be offered in two places. */
function sharedWarehouse(locations: readonly { warehouseIds: readonly string[] }[]): string | null {
  const seen = new Set<string>();
  for (const location of locations) {
    for (const id of new Set(location.warehouseIds.map((warehouseId) => warehouseId.toUpperCase()))) {
      if (seen.has(id)) return id;
      seen.add(id);
    }
  }
  return null;
}
