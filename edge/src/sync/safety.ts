import {
  ERP_RETURNED_NOTHING,
  morePriceChangesOverLimit,
  priceChangeOverLimit,
  type SafetyLimits,
  zeroedOverLimit,
} from "@stockbridge/shared";
import { type MappingPlan, quantitySkip } from "./plan.ts";

/** Price changes over the limit named one by one (the largest first); the rest are counted. */
const PRICES_NAMED = 10;

interface PriceJump {
  sku: string;
  field: "price" | "compareAtPrice";
  /** The change in tenths of a percent, rounded up (so a change just over the limit never reads as the limit). */
  tenths: number;
}

/**
 * Why a run must be held for review instead of written, or [] when it may write. Checked on the
 * plan, before any write: the ERP answered no item for a scope that has mappings; a price or
 * compare-at price would move by more than `maxPriceChangePercent` of what Shopify holds; more than
 * `maxZeroedPercent` of the quantities the run syncs would go from stock to 0. A limit of 0 is off.
 */
export function safetyReasons(
  plans: readonly MappingPlan[],
  limits: SafetyLimits,
  context: { erpItems: number; quantity: boolean },
): string[] {
  if (plans.length === 0) return [];
  // Every item would read as missing: a broken ERP answer, not a catalog to act on.
  if (context.erpItems === 0) return [ERP_RETURNED_NOTHING];
  const reasons: string[] = [];
  if (limits.maxPriceChangePercent > 0) reasons.push(...priceReasons(plans, limits.maxPriceChangePercent));
  if (limits.maxZeroedPercent > 0 && context.quantity) {
    const reason = zeroedReason(plans, limits.maxZeroedPercent);
    if (reason) reasons.push(reason);
  }
  return reasons;
}

function priceReasons(plans: readonly MappingPlan[], limit: number): string[] {
  const jumps: PriceJump[] = [];
  for (const plan of plans) {
    if (!plan.prices || !plan.shopify) continue;
    const sku = plan.target.shopifySku;
    const { priceCents, compareAtCents } = plan.prices;
    if (priceCents !== undefined) {
      const tenths = overLimit(plan.shopify.priceCents, priceCents, limit);
      if (tenths !== null) jumps.push({ sku, field: "price", tenths });
    }
    if (compareAtCents !== undefined) {
      // A compare-at price cleared falls to nothing (100 %); one added where there was none has no base to measure.
      const tenths = overLimit(plan.shopify.compareAtCents ?? 0, compareAtCents ?? 0, limit);
      if (tenths !== null) jumps.push({ sku, field: "compareAtPrice", tenths });
    }
  }
  jumps.sort((a, b) => b.tenths - a.tenths);
  const named = jumps
    .slice(0, PRICES_NAMED)
    .map((jump) =>
      priceChangeOverLimit({ field: jump.field, sku: jump.sku, percent: jump.tenths / 10, limit }),
    );
  if (jumps.length > PRICES_NAMED) named.push(morePriceChangesOverLimit(jumps.length - PRICES_NAMED, limit));
  return named;
}

/**
 * The change in tenths of a percent when it is over `limit` percent, else null. Integer cents, so
 * "over" is exact; a price from 0 has no base and is never over.
 */
function overLimit(fromCents: number, toCents: number, limit: number): number | null {
  if (fromCents <= 0) return null;
  const difference = Math.abs(toCents - fromCents);
  if (difference * 100 <= limit * fromCents) return null;
  return Math.ceil((difference * 1000) / fromCents);
}

/**
 * The run's quantities are those it syncs (mappings whose quantity is not skipped); one "set to 0"
 * goes from stock (above 0) to 0. An oversold count moving up to 0 is not.
 */
function zeroedReason(plans: readonly MappingPlan[], limit: number): string | null {
  let synced = 0;
  let zeroed = 0;
  for (const plan of plans) {
    if (!plan.erp || !plan.shopify || quantitySkip(plan.erp, plan.shopify) !== null) continue;
    if (plan.shopify.levels.length === 0) continue;
    synced += 1;
    if (plan.quantities.some((quantity) => quantity.to === 0 && quantity.from > 0)) zeroed += 1;
  }
  if (synced === 0 || zeroed * 100 <= limit * synced) return null;
  return zeroedOverLimit({ percent: Math.ceil((zeroed * 1000) / synced) / 10, limit });
}
