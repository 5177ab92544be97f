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
 * What the safety limits need of a run's plan, gathered mapping by mapping as the run plans in
 * chunks (no plan is kept): the price changes over the limit (the largest few, and how many), and
 * how many synced quantities there are and how many would go from stock to 0.
 */
export class SafetyTally {
  /** The largest jumps, largest first (ties in plan order); `jumps` counts them all. */
  readonly #named: PriceJump[] = [];
  #jumps = 0;
  #synced = 0;
  #zeroed = 0;
  #plans = 0;

  constructor(private readonly limits: SafetyLimits) {}

  add(plan: MappingPlan): void {
    this.#plans += 1;
    const { maxPriceChangePercent: priceLimit, maxZeroedPercent: zeroLimit } = this.limits;
    if (priceLimit > 0 && plan.prices && plan.shopify) {
      const sku = plan.target.shopifySku;
      const { priceCents, compareAtCents } = plan.prices;
      if (priceCents !== undefined)
        this.#jump(sku, "price", overLimit(plan.shopify.priceCents, priceCents, priceLimit));
      // A compare-at price cleared falls to nothing (100 %); one added where there was none has no base to measure.
      if (compareAtCents !== undefined)
        this.#jump(
          sku,
          "compareAtPrice",
          overLimit(plan.shopify.compareAtCents ?? 0, compareAtCents ?? 0, priceLimit),
        );
    }
    // The run's quantities are those it syncs (mappings whose quantity is not skipped); one "set
    // to 0" goes from stock (above 0) to 0. An oversold count moving up to 0 is not.
    if (zeroLimit > 0 && plan.erp && plan.shopify && quantitySkip(plan.erp, plan.shopify) === null) {
      if (plan.shopify.levels.length === 0) return;
      this.#synced += 1;
      if (plan.quantities.some((quantity) => quantity.to === 0 && quantity.from > 0)) this.#zeroed += 1;
    }
  }

  /**
   * Why the run must be held for review instead of written, or [] when it may write: the ERP
   * answered no item for a scope that has mappings; a price or compare-at price would move by more
   * than `maxPriceChangePercent` of what Shopify holds; more than `maxZeroedPercent` of the
   * quantities the run syncs would go from stock to 0 (only when quantities sync). A limit of 0 is off.
   */
  reasons(context: { erpItems: number; quantity: boolean }): string[] {
    if (this.#plans === 0) return [];
    // Every item would read as missing: a broken ERP answer, not a catalog to act on.
    if (context.erpItems === 0) return [ERP_RETURNED_NOTHING];
    const reasons: string[] = [];
    const limit = this.limits.maxPriceChangePercent;
    if (limit > 0) {
      reasons.push(
        ...this.#named.map((jump) =>
          priceChangeOverLimit({ field: jump.field, sku: jump.sku, percent: jump.tenths / 10, limit }),
        ),
      );
      if (this.#jumps > PRICES_NAMED)
        reasons.push(morePriceChangesOverLimit(this.#jumps - PRICES_NAMED, limit));
    }
    const zeroLimit = this.limits.maxZeroedPercent;
    if (
      zeroLimit > 0 &&
      context.quantity &&
      this.#synced > 0 &&
      this.#zeroed * 100 > zeroLimit * this.#synced
    )
      reasons.push(
        zeroedOverLimit({ percent: Math.ceil((this.#zeroed * 1000) / this.#synced) / 10, limit: zeroLimit }),
      );
    return reasons;
  }

  /**
   * Mappings a run that read only what changed left unread: they are in line, so their quantities
   * count among those synced (none going to 0), as a full read would count them.
   */
  addInLine(count: number): void {
    if (this.limits.maxZeroedPercent > 0) this.#synced += count;
  }

  #jump(sku: string, field: PriceJump["field"], tenths: number | null): void {
    if (tenths === null) return;
    this.#jumps += 1;
    // Kept sorted as a stable sort of every jump would order them: after each one at least as large.
    let at = this.#named.length;
    while (at > 0 && (this.#named[at - 1]?.tenths ?? 0) < tenths) at -= 1;
    if (at >= PRICES_NAMED) return;
    this.#named.splice(at, 0, { sku, field, tenths });
    if (this.#named.length > PRICES_NAMED) this.#named.pop();
  }
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
