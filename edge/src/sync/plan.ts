import type {
  DriftField,
  FieldChange,
  MappingSyncResult,
  Settings,
  ShopifyLocation,
  SyncOptions,
} from "@stockbridge/shared";
import { fromCents, LOCATION_RULES } from "@stockbridge/shared";
import type { ErpValues } from "../connectors/acumatica/erp-read.ts";
import { unsendableReason } from "../connectors/shopify/limits.ts";
import { activeLocations } from "../connectors/shopify/locations.ts";
import type { QuantityName } from "../connectors/shopify/quantities.ts";
import type { ShopifyValues } from "../connectors/shopify/variant-read.ts";

// The values the connectors read are the plan's vocabulary: the rest of sync names them from here.
export type { ErpValues, QuantityName, ShopifyValues };

/** A mapping as the engine reads it: ids and SKU snapshots (the catalog rows may be gone). */
export interface SyncTarget {
  mappingId: string;
  shopifyVariantId: string;
  shopifySku: string;
  acumaticaId: string;
  acumaticaSku: string;
}

/** A Shopify location a quantity sync writes, and the ERP warehouses whose quantities it sums. */
export interface SyncLocation {
  id: string;
  name: string;
  /** null: every warehouse (the default mapping: the primary location only). */
  warehouseIds: string[] | null;
}

/**
 * The locations a quantity sync writes, from the store's locations: the saved location mapping's
 * (each fed by its warehouses), or by default the primary location fed by every warehouse. A
 * mapped location deactivated or deleted since is kept: nothing is stocked there, so each item is
 * skipped with the reason naming it rather than left out silently.
 */
export function syncLocations(
  locations: readonly ShopifyLocation[],
  mapping: Settings["locationMapping"],
): SyncLocation[] {
  if (mapping.locations.length === 0) {
    const primary = activeLocations(locations).find((location) => location.isPrimary);
    return primary ? [{ id: primary.id, name: primary.name, warehouseIds: null }] : [];
  }
  const names = new Map(locations.map((location) => [location.id, location.name]));
  return mapping.locations.map((feed) => ({
    id: feed.shopifyLocationId,
    name: names.get(feed.shopifyLocationId) ?? feed.shopifyLocationId,
    warehouseIds: feed.warehouseIds,
  }));
}

export interface QuantityWrite {
  name: QuantityName;
  inventoryItemId: string;
  locationId: string;
  /** For people: skip reasons and errors name the location. */
  locationName: string;
  from: number;
  to: number;
}

/** The key of one mapping's quantity write at one location (a mapping writes one per location). */
export function quantityKey(mappingId: string, locationId: string): string {
  return `${mappingId}@${locationId}`;
}

/** One field whose Shopify value differs from the ERP's: cents for prices, units for quantities. */
export interface FieldDrift {
  field: DriftField;
  /** The Shopify location of a quantity; null for prices (a variant has one price everywhere). */
  locationId: string | null;
  shopify: number | null;
  /** What the ERP says Shopify should hold (an MSRP of 0 reads as none, a negative stock as 0). */
  erp: number | null;
}

export interface MappingPlan {
  target: SyncTarget;
  erp: ErpValues | null;
  shopify: ShopifyValues | null;
  /** Only the price fields that differ; `compareAtCents: null` clears the compare-at price. */
  prices: { priceCents?: number; compareAtCents?: number | null } | null;
  /** One write per mapped location whose quantity differs. */
  quantities: QuantityWrite[];
  /** Quantity changes name their location (a saved location mapping; the default writes one location). */
  namedLocations: boolean;
  /** "failed": every field to write holds an ERP value that cannot be sent (see `refused`). */
  outcome: "planned" | "unchanged" | "skipped" | "failed";
  /** Why the mapping (or one of its fields) was skipped; for "failed", why it cannot be sent. */
  reason: string | null;
  /**
   * ERP values that cannot be sent to Shopify, one text each. Such a field is left out of the
   * writes (so it cannot sink a batch), the mapping's other fields still write, and it ends failed.
   */
  refused: string[];
  /** Every compared field that differs, sendable or not: what a check records as drift. */
  drift: FieldDrift[];
}

export const SKIP = {
  missingShopify: "missing in Shopify: the variant no longer exists",
  missingAcumatica: "missing in Acumatica: the item no longer exists",
  priceSettingsOff: "price sync is off in Settings (choose Price and/or MSRP on the Mapping tab)",
  nonStock: "not a stock item in Acumatica: it has no quantities",
  bundle: "bundle: Shopify does not let apps set a bundle's stock",
  untracked: "untracked: Shopify does not track this variant's inventory",
} as const;

/**
 * Old -> new for each enabled field of one mapping, or why it is skipped. ERP is the source of
 * truth: DefaultPrice -> price, MSRP -> compare-at (none clears it), the configured quantity summed
 * over each location's warehouses -> the configured Shopify quantity at that location.
 */
export function planMapping(
  target: SyncTarget,
  input: {
    erp: ErpValues | null;
    shopify: ShopifyValues | null;
    settings: Settings;
    /**
     * `priceRefused`: why no price may be sent this run (it becomes the price's skip reason);
     * `locations`: where quantities go (without them: the first location read, fed by every warehouse).
     */
    options: SyncOptions & { priceRefused?: string | null; locations?: readonly SyncLocation[] };
  },
): MappingPlan {
  const { erp, shopify, settings, options } = input;
  const locations: readonly SyncLocation[] =
    options.locations ??
    (shopify?.locationId ? [{ id: shopify.locationId, name: shopify.locationId, warehouseIds: null }] : []);
  const namedLocations = locations.some((location) => location.warehouseIds !== null);
  const base = { target, erp, shopify, prices: null, quantities: [], namedLocations, refused: [], drift: [] };
  if (!shopify) return { ...base, outcome: "skipped", reason: SKIP.missingShopify };
  if (!erp) return { ...base, outcome: "skipped", reason: SKIP.missingAcumatica };

  const reasons: string[] = [];
  const refused: string[] = [];
  const drift: FieldDrift[] = [];
  let fields = 0;
  const prices: NonNullable<MappingPlan["prices"]> = {};
  if (options.price && options.priceRefused) reasons.push(options.priceRefused);
  else if (options.price) {
    const { syncPrice, syncMsrp } = settings.priceMapping;
    if (!syncPrice && !syncMsrp) reasons.push(SKIP.priceSettingsOff);
    if (syncPrice && erp.defaultPriceCents !== null) {
      fields += 1;
      if (erp.defaultPriceCents !== shopify.priceCents)
        drift.push({
          field: "price",
          locationId: null,
          shopify: shopify.priceCents,
          erp: erp.defaultPriceCents,
        });
      const refusal = unsendableReason("price", erp.defaultPriceCents);
      if (refusal) refused.push(refusal);
      else if (erp.defaultPriceCents !== shopify.priceCents) prices.priceCents = erp.defaultPriceCents;
    }
    if (syncMsrp) {
      fields += 1;
      // An MSRP of 0 means "none" in Acumatica; Shopify shows no compare-at price for null.
      const wanted = erp.msrpCents ? erp.msrpCents : null;
      if (wanted !== shopify.compareAtCents)
        drift.push({
          field: "compareAtPrice",
          locationId: null,
          shopify: shopify.compareAtCents,
          erp: wanted,
        });
      const refusal = wanted === null ? null : unsendableReason("compareAtPrice", wanted);
      if (refusal) refused.push(refusal);
      else if (wanted !== shopify.compareAtCents) prices.compareAtCents = wanted;
    }
  }

  const quantities: QuantityWrite[] = [];
  if (options.quantity) {
    const skip = quantitySkip(erp, shopify);
    if (skip) reasons.push(skip);
    else if (locations.length === 0) reasons.push(LOCATION_RULES.notStockedAt("any location"));
    else {
      const name: QuantityName =
        settings.quantityMapping.shopifyQuantity === "OnHand" ? "on_hand" : "available";
      for (const location of locations) {
        const level = shopify.levels.find((candidate) => candidate.locationId === location.id);
        // Never activated here: stocking an item somewhere is the merchant's decision.
        if (!level) {
          reasons.push(LOCATION_RULES.notStockedAt(location.name));
          continue;
        }
        fields += 1;
        const from = (name === "available" ? level.available : level.onHand) ?? 0;
        // Shopify refuses negative quantities; an oversold ERP item means none to sell.
        const to = Math.max(
          0,
          erpQuantity(erp, settings.quantityMapping.acumaticaQuantity, location.warehouseIds),
        );
        if (from !== to) drift.push({ field: "quantity", locationId: location.id, shopify: from, erp: to });
        const refusal = unsendableReason("quantity", to);
        if (refusal) refused.push(refusal);
        else if (from !== to)
          quantities.push({
            name,
            inventoryItemId: shopify.inventoryItemId!,
            locationId: location.id,
            locationName: location.name,
            from,
            to,
          });
      }
    }
  }

  const reason = reasons.length > 0 ? reasons.join("; ") : null;
  if (fields === 0) return { ...base, outcome: "skipped", reason };
  const hasPrices = "priceCents" in prices || "compareAtCents" in prices;
  const writes = hasPrices || quantities.length > 0;
  if (!writes && refused.length > 0)
    return { ...base, outcome: "failed", reason: refused.join("; "), refused, drift };
  return {
    ...base,
    prices: hasPrices ? prices : null,
    quantities,
    outcome: writes ? "planned" : "unchanged",
    reason,
    refused,
    drift,
  };
}

/**
 * The fields a run with these options compares: price and compare-at price as the price settings
 * choose (none when prices are refused for the whole run), quantity when it is synced.
 */
export function comparedFields(
  settings: Settings,
  options: SyncOptions & { priceRefused?: string | null },
): DriftField[] {
  const fields: DriftField[] = [];
  if (options.price && !options.priceRefused) {
    if (settings.priceMapping.syncPrice) fields.push("price");
    if (settings.priceMapping.syncMsrp) fields.push("compareAtPrice");
  }
  if (options.quantity) fields.push("quantity");
  return fields;
}

/**
 * Why a mapping's quantity cannot be synced at all, or null when it can at some location (the
 * safety limits count those): an item stocked at none of the run's locations has nothing to sync.
 */
export function quantitySkip(erp: ErpValues, shopify: ShopifyValues): string | null {
  if (!erp.isStockItem) return SKIP.nonStock;
  if (shopify.isBundle) return SKIP.bundle;
  if (!shopify.tracked || !shopify.inventoryItemId) return SKIP.untracked;
  return null;
}

/**
 * The chosen quantity over the location's warehouses (null: every warehouse, the ERP's total). Only
 * asked of stock items (quantitySkip), whose quantities are always read.
 */
function erpQuantity(
  erp: ErpValues,
  field: Settings["quantityMapping"]["acumaticaQuantity"],
  warehouseIds: readonly string[] | null,
): number {
  const pick = (quantities: {
    available: number | null;
    onHand: number | null;
    availableForShipping: number | null;
  }) =>
    (field === "OnHand"
      ? quantities.onHand
      : field === "AvailableForShipping"
        ? quantities.availableForShipping
        : quantities.available) ?? 0;
  if (warehouseIds === null) return pick(erp);
  const wanted = new Set(warehouseIds.map((id) => id.toUpperCase()));
  let sum = 0;
  for (const warehouse of erp.warehouses)
    if (wanted.has(warehouse.warehouseId.toUpperCase())) sum += pick(warehouse);
  return sum;
}

/** The planned changes as the API shows them: prices in dollars, quantities in units. */
function changesOf(plan: MappingPlan): FieldChange[] {
  const changes: FieldChange[] = [];
  if (plan.prices && plan.shopify) {
    if (plan.prices.priceCents !== undefined) {
      changes.push({
        field: "price",
        from: fromCents(plan.shopify.priceCents),
        to: fromCents(plan.prices.priceCents),
      });
    }
    if (plan.prices.compareAtCents !== undefined) {
      changes.push({
        field: "compareAtPrice",
        from: centsOrNull(plan.shopify.compareAtCents),
        to: centsOrNull(plan.prices.compareAtCents),
      });
    }
  }
  for (const quantity of plan.quantities) {
    const change: FieldChange = { field: "quantity", from: quantity.from, to: quantity.to };
    if (plan.namedLocations) change.location = quantity.locationName;
    changes.push(change);
  }
  return changes;
}

function centsOrNull(cents: number | null): number | null {
  return cents === null ? null : fromCents(cents);
}

export function resultOf(
  plan: MappingPlan,
  outcome: MappingSyncResult["outcome"],
  reason: string | null,
): MappingSyncResult {
  return {
    mappingId: plan.target.mappingId,
    shopifySku: plan.target.shopifySku,
    acumaticaSku: plan.target.acumaticaSku,
    outcome,
    changes: changesOf(plan),
    reason,
  };
}
