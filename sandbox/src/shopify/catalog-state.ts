import type { DemoCatalog } from "../seed/catalog.ts";

/** Per-location quantities in Shopify's inventory states (on_hand is derived). */
export interface LevelRecord {
  locationId: number;
  available: number;
  committed: number;
  reserved: number;
  damaged: number;
  safetyStock: number;
  qualityControl: number;
  incoming: number;
  createdAt: number;
  updatedAt: number;
}

export interface VariantRecord {
  id: number;
  productId: number;
  position: number;
  sku: string | null;
  title: string;
  priceCents: number;
  compareAtPriceCents: number | null;
  barcode: string | null;
  taxable: boolean;
  inventoryPolicy: "DENY" | "CONTINUE";
  inventoryItemId: number;
  tracked: boolean;
  requiresShipping: boolean;
  /** A bundle parent: its inventory cannot be set through the API. */
  isBundle: boolean;
  /** Sorted by location id; only where the item is stocked. */
  levels: LevelRecord[];
  createdAt: number;
  updatedAt: number;
}

export interface ProductRecord {
  id: number;
  title: string;
  handle: string;
  productType: string;
  variantIds: number[];
  createdAt: number;
  updatedAt: number;
}

export interface LocationRecord {
  id: number;
  name: string;
  isActive: boolean;
  createdAt: number;
}

/**
 * The store's catalog with the indexes requests need: by id, by inventory item, by SKU and an
 * ascending id list to page through without copying (100,000 variants stay cheap).
 */
export interface CatalogState {
  locations: LocationRecord[];
  locationsById: Map<number, LocationRecord>;
  products: Map<number, ProductRecord>;
  productIds: number[];
  variants: Map<number, VariantRecord>;
  variantIds: number[];
  variantByItem: Map<number, VariantRecord>;
  /** Lower-cased SKU -> variant ids (Shopify's search on sku is case-insensitive). */
  skus: Map<string, Set<number>>;
}

export const QUANTITY_NAMES = [
  "available",
  "committed",
  "damaged",
  "incoming",
  "on_hand",
  "quality_control",
  "reserved",
  "safety_stock",
] as const;
export type QuantityName = (typeof QUANTITY_NAMES)[number];

export function isQuantityName(name: string): name is QuantityName {
  return (QUANTITY_NAMES as readonly string[]).includes(name);
}

/** Copies the catalog (it is shared with the other simulators and must stay untouched). */
export function buildCatalogState(catalog: DemoCatalog): CatalogState {
  const locations = catalog.shopify.locations
    .map((location) => ({
      id: location.id,
      name: location.name,
      isActive: location.active,
      createdAt: Date.parse("2024-01-15T10:00:00Z"),
    }))
    .sort((a, b) => a.id - b.id);
  const state: CatalogState = {
    locations,
    locationsById: new Map(locations.map((location) => [location.id, location])),
    products: new Map(),
    productIds: [],
    variants: new Map(),
    variantIds: [],
    variantByItem: new Map(),
    skus: new Map(),
  };
  for (const product of catalog.shopify.products) {
    const updatedAt = Date.parse(product.updatedAt);
    const isService = product.variants.every((variant) => !variant.requiresShipping);
    state.products.set(product.id, {
      id: product.id,
      title: product.title,
      handle: product.handle,
      productType: isService ? "Service" : "Merchandise",
      variantIds: product.variants.map((variant) => variant.id),
      createdAt: updatedAt - 86_400_000,
      updatedAt,
    });
    state.productIds.push(product.id);
    product.variants.forEach((seed, index) => {
      const variantUpdatedAt = Date.parse(seed.updatedAt);
      const variant: VariantRecord = {
        id: seed.id,
        productId: product.id,
        position: index + 1,
        sku: seed.sku,
        title: seed.title,
        priceCents: seed.priceCents,
        compareAtPriceCents: seed.compareAtPriceCents,
        barcode: null,
        taxable: true,
        inventoryPolicy: "DENY",
        inventoryItemId: seed.inventoryItemId,
        tracked: seed.tracked,
        requiresShipping: seed.requiresShipping,
        isBundle: seed.isBundle,
        levels: seed.levels
          .map((level) => ({
            locationId: level.locationId,
            available: level.available,
            committed: level.committed,
            reserved: level.unavailable,
            damaged: 0,
            safetyStock: 0,
            qualityControl: 0,
            incoming: 0,
            createdAt: variantUpdatedAt - 86_400_000,
            updatedAt: variantUpdatedAt,
          }))
          .sort((a, b) => a.locationId - b.locationId),
        createdAt: variantUpdatedAt - 86_400_000,
        updatedAt: variantUpdatedAt,
      };
      state.variants.set(variant.id, variant);
      state.variantIds.push(variant.id);
      state.variantByItem.set(variant.inventoryItemId, variant);
      indexSku(state, variant);
    });
  }
  state.productIds.sort((a, b) => a - b);
  state.variantIds.sort((a, b) => a - b);
  return state;
}

function indexSku(state: CatalogState, variant: VariantRecord) {
  if (variant.sku === null || variant.sku === "") return;
  const key = variant.sku.toLowerCase();
  let ids = state.skus.get(key);
  if (!ids) {
    ids = new Set();
    state.skus.set(key, ids);
  }
  ids.add(variant.id);
}

/** A variant a merchant adds to a product in the Shopify admin (the sandbox's control API plays it). */
export interface NewVariant {
  productId: number;
  sku: string | null;
  priceCents: number;
  /** Default: "Variant N", N its position. */
  title?: string;
}

/**
 * Adds the variant with the next variant and inventory item ids, created and updated `now` (to
 * the second, as Shopify's DateTime), tracked and stocked nowhere yet. Null when the product is
 * unknown or already has a variant of that title (one per option combination).
 */
export function addVariant(state: CatalogState, input: NewVariant & { now: number }): VariantRecord | null {
  const product = state.products.get(input.productId);
  if (!product) return null;
  const title = input.title ?? `Variant ${product.variantIds.length + 1}`;
  const titles = product.variantIds.map((id) => state.variants.get(id)?.title.toLowerCase());
  if (titles.includes(title.toLowerCase())) return null;
  let inventoryItemId = 0;
  for (const id of state.variantByItem.keys()) inventoryItemId = Math.max(inventoryItemId, id);
  const at = Math.floor(input.now / 1000) * 1000;
  const variant: VariantRecord = {
    // variantIds is ascending, so the new (largest) id keeps it sorted.
    id: (state.variantIds.at(-1) ?? 0) + 1,
    productId: product.id,
    position: product.variantIds.length + 1,
    sku: input.sku,
    title,
    priceCents: input.priceCents,
    compareAtPriceCents: null,
    barcode: null,
    taxable: true,
    inventoryPolicy: "DENY",
    inventoryItemId: inventoryItemId + 1,
    tracked: true,
    requiresShipping: true,
    isBundle: false,
    levels: [],
    createdAt: at,
    updatedAt: at,
  };
  state.variants.set(variant.id, variant);
  state.variantIds.push(variant.id);
  state.variantByItem.set(variant.inventoryItemId, variant);
  indexSku(state, variant);
  product.variantIds.push(variant.id);
  product.updatedAt = at;
  return variant;
}

export function changeSku(state: CatalogState, variant: VariantRecord, sku: string | null) {
  if (variant.sku) state.skus.get(variant.sku.toLowerCase())?.delete(variant.id);
  variant.sku = sku;
  indexSku(state, variant);
}

/** Other inventory items carrying exactly this SKU (InventoryItem.duplicateSkuCount). */
export function duplicateSkuCount(state: CatalogState, variant: VariantRecord): number {
  if (!variant.sku) return 0;
  let count = 0;
  for (const id of state.skus.get(variant.sku.toLowerCase()) ?? []) {
    if (id !== variant.id && state.variants.get(id)?.sku === variant.sku) count += 1;
  }
  return count;
}

export function levelAt(variant: VariantRecord, locationId: number): LevelRecord | undefined {
  return variant.levels.find((level) => level.locationId === locationId);
}

/** Units physically present but not sellable or committed (reserved, damaged, safety stock, QC). */
export function unavailableOf(level: LevelRecord): number {
  return level.reserved + level.damaged + level.safetyStock + level.qualityControl;
}

export function quantityOf(level: LevelRecord, name: QuantityName): number {
  switch (name) {
    case "available":
      return level.available;
    case "committed":
      return level.committed;
    case "damaged":
      return level.damaged;
    case "incoming":
      return level.incoming;
    case "on_hand":
      return level.available + level.committed + unavailableOf(level);
    case "quality_control":
      return level.qualityControl;
    case "reserved":
      return level.reserved;
    case "safety_stock":
      return level.safetyStock;
  }
}

/** Sum of `available` over the locations where the variant is stocked (ProductVariant.inventoryQuantity). */
export function totalAvailable(variant: VariantRecord): number {
  let total = 0;
  for (const level of variant.levels) total += level.available;
  return total;
}
