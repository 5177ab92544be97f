import { type CatalogState, totalAvailable, type VariantRecord } from "./catalog-state.ts";
import {
  matchBoolean,
  matchId,
  matchNumber,
  matchText,
  matchTime,
  type SearchFields,
  type Term,
} from "./search-query.ts";

/** The `productVariants(query:)` filters from the 2025-01 argument description that our data carries. */
export function variantSearch(catalog: CatalogState, now: number): SearchFields<VariantRecord> {
  const productTitle = (variant: VariantRecord) => catalog.products.get(variant.productId)?.title ?? "";
  const productType = (variant: VariantRecord) => catalog.products.get(variant.productId)?.productType ?? "";
  return {
    fields: {
      sku: (variant, term) => matchText(variant.sku, term),
      barcode: (variant, term) => matchText(variant.barcode, term),
      id: (variant, term) => matchId(variant.id, term),
      product_id: (variant, term) => matchId(variant.productId, term),
      product_ids: (variant, term) => listOfIds(term).includes(variant.productId),
      location_id: (variant, term) => variant.levels.some((level) => matchId(level.locationId, term)),
      inventory_quantity: (variant, term) => matchNumber(totalAvailable(variant), term),
      gift_card: (_variant, term) => matchBoolean(false, term),
      managed: (variant, term) => matchBoolean(variant.tracked, term),
      managed_by: (variant, term) => variant.tracked && matchText("shopify", term),
      requires_components: (variant, term) => matchBoolean(variant.isBundle, term),
      exclude_composite: (variant, term) => !(matchBoolean(true, term) && variant.isBundle),
      taxable: (variant, term) => matchBoolean(variant.taxable, term),
      title: (variant, term) => matchText(variant.title, term),
      product_type: (variant, term) => matchText(productType(variant), term),
      product_status: (_variant, term) => term.value.toUpperCase().split(",").includes("ACTIVE"),
      vendor: (_variant, term) => matchText("Stockbridge Demo", term),
      updated_at: (variant, term) => matchTime(variant.updatedAt, term, now),
      created_at: (variant, term) => matchTime(variant.createdAt, term, now),
      tag: () => false,
      tag_not: () => true,
    },
    text: (variant, value) =>
      contains(variant.sku, value) ||
      contains(variant.title, value) ||
      contains(productTitle(variant), value),
  };
}

/** `inventoryItems(query:)`: id, sku and times. */
export function inventoryItemSearch(now: number): SearchFields<VariantRecord> {
  return {
    fields: {
      id: (variant, term) => matchId(variant.inventoryItemId, term),
      sku: (variant, term) => matchText(variant.sku, term),
      updated_at: (variant, term) => matchTime(variant.updatedAt, term, now),
      created_at: (variant, term) => matchTime(variant.createdAt, term, now),
    },
    text: (variant, value) => contains(variant.sku, value),
  };
}

/** `products(query:)`: a product matches a variant-level filter (sku) when any variant does. */
export function productSearch(catalog: CatalogState, now: number): SearchFields<number> {
  const product = (id: number) => catalog.products.get(id)!;
  const variants = (id: number) =>
    product(id).variantIds.map((variantId) => catalog.variants.get(variantId)!);
  return {
    fields: {
      id: (id, term) => matchId(id, term),
      title: (id, term) => matchText(product(id).title, term),
      handle: (id, term) => matchText(product(id).handle, term),
      product_type: (id, term) => matchText(product(id).productType, term),
      sku: (id, term) => variants(id).some((variant) => matchText(variant.sku, term)),
      status: (_id, term) => term.value.toUpperCase().split(",").includes("ACTIVE"),
      vendor: (_id, term) => matchText("Stockbridge Demo", term),
      gift_card: (_id, term) => matchBoolean(false, term),
      updated_at: (id, term) => matchTime(product(id).updatedAt, term, now),
      created_at: (id, term) => matchTime(product(id).createdAt, term, now),
    },
    text: (id, value) =>
      contains(product(id).title, value) || variants(id).some((variant) => contains(variant.sku, value)),
  };
}

function contains(actual: string | null, value: string): boolean {
  return actual?.toLowerCase().includes(value.toLowerCase()) === true;
}

function listOfIds(term: Term): number[] {
  return term.value
    .split(",")
    .map((part) => Number(/(\d+)\s*$/.exec(part)?.[1] ?? Number.NaN))
    .filter((id) => !Number.isNaN(id));
}
