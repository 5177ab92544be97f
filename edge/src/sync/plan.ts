import type { DriftField, FieldChange, MappingSyncResult, Settings, SyncOptions } from "@stockbridge/shared";
import { fromCents } from "@stockbridge/shared";
import { unsendableReason } from "./shopify-limits.ts";

/** A mapping as the engine reads it: ids and SKU snapshots (the catalog rows may be gone). */
export interface SyncTarget {
  mappingId: string;
  shopifyVariantId: string;
  shopifySku: string;
  acumaticaId: string;
  acumaticaSku: string;
}

/** The ERP's current values of one item (prices in cents, quantities summed over warehouses). */
export interface ErpValues {
  inventoryId: string;
  defaultPriceCents: number | null;
  msrpCents: number | null;
  isStockItem: boolean;
  /** Null for a non-stock item, which has no quantities. */
  available: number | null;
  onHand: number | null;
  availableForShipping: number | null;
}

/** Shopify's current values of one variant, at its first inventory location. */
export interface ShopifyValues {
  variantId: string;
  productId: string;
  priceCents: number;
  compareAtCents: number | null;
  inventoryItemId: string | null;
  tracked: boolean;
  isBundle: boolean;
  locationId: string | null;
  available: number | null;
  onHand: number | null;
}

export type QuantityName = "available" | "on_hand";

export interface QuantityWrite {
  name: QuantityName;
  inventoryItemId: string;
  locationId: string;
  from: number;
  to: number;
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
  quantity: QuantityWrite | null;
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
  notStocked: "not stocked at the location: the variant has no Shopify inventory location",
} as const;

/**
 * Old -> new for each enabled field of one mapping, or why it is skipped. ERP is the source of
 * truth: DefaultPrice -> price, MSRP -> compare-at (none clears it), the configured quantity -> the
 * configured Shopify quantity at the variant's first location.
 */
export function planMapping(
  target: SyncTarget,
  erp: ErpValues | null,
  shopify: ShopifyValues | null,
  settings: Settings,
  /** `priceRefused`: why no price may be sent this run (it becomes the price's skip reason). */
  options: SyncOptions & { priceRefused?: string | null },
): MappingPlan {
  const base = { target, erp, shopify, prices: null, quantity: null, refused: [], drift: [] };
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

  let quantity: QuantityWrite | null = null;
  if (options.quantity) {
    const skip = quantitySkip(erp, shopify);
    if (skip) reasons.push(skip);
    else {
      fields += 1;
      const name: QuantityName =
        settings.quantityMapping.shopifyQuantity === "OnHand" ? "on_hand" : "available";
      const from = (name === "available" ? shopify.available : shopify.onHand) ?? 0;
      // Shopify refuses negative quantities; an oversold ERP item means none to sell.
      const to = Math.max(0, erpQuantity(erp, settings.quantityMapping.acumaticaQuantity));
      if (from !== to)
        drift.push({ field: "quantity", locationId: shopify.locationId, shopify: from, erp: to });
      const refusal = unsendableReason("quantity", to);
      if (refusal) refused.push(refusal);
      else if (from !== to)
        quantity = {
          name,
          inventoryItemId: shopify.inventoryItemId!,
          locationId: shopify.locationId!,
          from,
          to,
        };
    }
  }

  const reason = reasons.length > 0 ? reasons.join("; ") : null;
  if (fields === 0) return { ...base, outcome: "skipped", reason };
  const hasPrices = "priceCents" in prices || "compareAtCents" in prices;
  if (!hasPrices && !quantity && refused.length > 0)
    return { ...base, outcome: "failed", reason: refused.join("; "), refused, drift };
  return {
    ...base,
    prices: hasPrices ? prices : null,
    quantity,
    outcome: hasPrices || quantity ? "planned" : "unchanged",
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

/** Why a mapping's quantity cannot be synced at all, or null when it can (the safety limits count those). */
export function quantitySkip(erp: ErpValues, shopify: ShopifyValues): string | null {
  if (!erp.isStockItem) return SKIP.nonStock;
  if (shopify.isBundle) return SKIP.bundle;
  if (!shopify.tracked || !shopify.inventoryItemId) return SKIP.untracked;
  if (!shopify.locationId) return SKIP.notStocked;
  return null;
}

/** Only asked of stock items (quantitySkip), whose quantities are always read. */
function erpQuantity(erp: ErpValues, field: Settings["quantityMapping"]["acumaticaQuantity"]): number {
  if (field === "OnHand") return erp.onHand ?? 0;
  if (field === "AvailableForShipping") return erp.availableForShipping ?? 0;
  return erp.available ?? 0;
}

/** The planned changes as the API shows them: prices in dollars, quantities in units. */
export function changesOf(plan: MappingPlan): FieldChange[] {
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
  if (plan.quantity) changes.push({ field: "quantity", from: plan.quantity.from, to: plan.quantity.to });
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
