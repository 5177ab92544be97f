import type { AcumaticaWarehouse, LocationMapping, Settings, ShopifyLocation } from "@stockbridge/shared";

/**
 * The warehouses feeding each active location, as the card edits them. An empty saved mapping
 * (the store's locations were not known when settings were read) shows the default: the primary
 * location fed by every warehouse.
 */
export function feedsOf(
  saved: Settings["locationMapping"],
  known: { locations: readonly ShopifyLocation[]; warehouses: readonly AcumaticaWarehouse[] },
): Map<string, string[]> {
  const feeds = new Map<string, string[]>(known.locations.map((location) => [location.id, []]));
  if (saved.locations.length === 0) {
    const primary = known.locations.find((location) => location.isPrimary);
    if (primary)
      feeds.set(
        primary.id,
        known.warehouses.map((warehouse) => warehouse.id),
      );
    return feeds;
  }
  for (const location of saved.locations)
    if (feeds.has(location.shopifyLocationId))
      feeds.set(location.shopifyLocationId, [...location.warehouseIds]);
  return feeds;
}

/** Ticks or unticks a warehouse under a location; ticking it moves it from any other location. */
export function toggleWarehouse(
  feeds: ReadonlyMap<string, readonly string[]>,
  { locationId, warehouseId, checked }: { locationId: string; warehouseId: string; checked: boolean },
): Map<string, string[]> {
  const next = new Map<string, string[]>();
  for (const [id, warehouseIds] of feeds) {
    const others = warehouseIds.filter((candidate) => candidate !== warehouseId);
    next.set(id, id === locationId && checked ? [...others, warehouseId] : others);
  }
  return next;
}

/** The body to save: every location fed by at least one warehouse, in the store's order. */
export function mappingOf(
  feeds: ReadonlyMap<string, readonly string[]>,
  locations: readonly ShopifyLocation[],
): LocationMapping {
  return {
    locations: locations
      .filter((location) => (feeds.get(location.id) ?? []).length > 0)
      .map((location) => ({
        shopifyLocationId: location.id,
        warehouseIds: [...(feeds.get(location.id) ?? [])],
      })),
  };
}
