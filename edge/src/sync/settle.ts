import type { MappingSyncResult } from "@stockbridge/shared";
import type { QuantityOutcome } from "../connectors/shopify/quantities.ts";
import { type FieldDrift, type MappingPlan, quantityKey, resultOf, type ShopifyValues } from "./plan.ts";

export interface RunCounts {
  /** Succeeded plus unchanged: the mapping holds the ERP's values. */
  success: number;
  failure: number;
  skipped: number;
}

/**
 * One mapping's end state from its plan and what the writes answered (quantities keyed by
 * `quantityKey`, one per location), plus Shopify's values after them and the drift that remains
 * (every differing field but those written).
 */
export function settle(
  item: MappingPlan,
  priceErrors: Map<string, string | null>,
  quantityOutcomes: Map<string, QuantityOutcome>,
): { result: MappingSyncResult; shopify: ShopifyValues | null; drift: FieldDrift[] } {
  if (item.outcome !== "planned")
    return { result: resultOf(item, item.outcome, item.reason), shopify: item.shopify, drift: item.drift };
  // "field@location" of each field written (prices have no location).
  const written = new Set<string>();
  const id = item.target.mappingId;
  // Values refused while planning were never sent; the fields that were still count as written.
  const errors: string[] = [...item.refused];
  const reasons = item.reason ? [item.reason] : [];
  let shopify = item.shopify;
  let wrote = false;
  if (item.prices) {
    const error = priceErrors.has(id) ? priceErrors.get(id)! : "the price was not written";
    if (error) errors.push(error);
    else if (shopify) {
      wrote = true;
      if (item.prices.priceCents !== undefined) written.add(writtenKey("price", null));
      if (item.prices.compareAtCents !== undefined) written.add(writtenKey("compareAtPrice", null));
      shopify = {
        ...shopify,
        priceCents: item.prices.priceCents ?? shopify.priceCents,
        compareAtCents:
          item.prices.compareAtCents !== undefined ? item.prices.compareAtCents : shopify.compareAtCents,
      };
    }
  }
  for (const quantity of item.quantities) {
    const outcome = quantityOutcomes.get(quantityKey(id, quantity.locationId)) ?? {
      kind: "failed",
      error: "the quantity was not written",
    };
    // With several locations each error says where it happened.
    const at = item.namedLocations ? `${quantity.locationName}: ` : "";
    if (outcome.kind === "failed") errors.push(`${at}${outcome.error}`);
    else if (outcome.kind === "changed")
      errors.push(`${at}The quantity changed in Shopify during the sync (now ${outcome.current})`);
    else if (outcome.kind === "skipped") reasons.push(outcome.reason);
    else if (shopify) {
      wrote = true;
      written.add(writtenKey("quantity", quantity.locationId));
      const delta = quantity.to - quantity.from;
      const after = (level: { available: number | null; onHand: number | null }) =>
        quantity.name === "available"
          ? { available: quantity.to, onHand: (level.onHand ?? 0) + delta }
          : { onHand: quantity.to, available: (level.available ?? 0) + delta };
      shopify = {
        ...shopify,
        ...(shopify.locationId === quantity.locationId ? after(shopify) : {}),
        levels: shopify.levels.map((level) =>
          level.locationId === quantity.locationId ? { ...level, ...after(level) } : level,
        ),
      };
    }
  }
  const reason = reasons.length > 0 ? reasons.join("; ") : null;
  const drift = item.drift.filter((field) => !written.has(writtenKey(field.field, field.locationId)));
  if (errors.length > 0) return { result: resultOf(item, "failed", errors.join("; ")), shopify, drift };
  return { result: resultOf(item, wrote ? "succeeded" : "skipped", reason), shopify, drift };
}

function writtenKey(field: FieldDrift["field"], locationId: string | null): string {
  return `${field}@${field === "quantity" ? locationId : ""}`;
}

/** How a run ended; "held": a safety limit stopped it before any write. */
export type RunStatus = "completed" | "failed" | "held";
