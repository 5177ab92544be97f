import type { StripeStore } from "./records.ts";

interface PlanSeed {
  key: string;
  name: string;
  description: string;
  unitAmount: number;
  features: string[];
  /**
   * What the plan allows, as product metadata the edge enforces (`min_schedule_minutes`,
   * `max_mappings`); a key left out means no limit of that kind. The feature texts say the same.
   */
  limits: { min_schedule_minutes?: string; max_mappings?: string };
}

/**
 * The three demo plans. Ids are fixed (`prod_growth`, `price_growth_monthly`, lookup key
 * `growth_monthly`) so demos and configs stay stable across resets. Features are carried twice:
 * Stripe's own `marketing_features` and `metadata.features` (a JSON array string). Every plan syncs
 * the same fields with the same history; they differ in how many products and how often.
 */
export const SANDBOX_PLANS: readonly PlanSeed[] = [
  {
    key: "starter",
    name: "Starter",
    description: "For a single store getting its catalog in line with the ERP.",
    unitAmount: 2900,
    features: [
      "Up to 500 mapped products",
      "Daily sync schedules",
      "Price, MSRP and quantity sync",
      "Execution history with error details",
      "Email support",
    ],
    limits: { min_schedule_minutes: "1440", max_mappings: "500" },
  },
  {
    key: "growth",
    name: "Growth",
    description: "For growing catalogs that change through the day.",
    unitAmount: 7900,
    features: [
      "Up to 5,000 mapped products",
      "Sync schedules every 15 minutes",
      "Price, MSRP and quantity sync",
      "Execution history with error details",
      "Priority email support",
    ],
    limits: { min_schedule_minutes: "15", max_mappings: "5000" },
  },
  {
    key: "scale",
    name: "Scale",
    description: "For large catalogs that must stay in step minute by minute.",
    unitAmount: 19900,
    features: [
      "Unlimited mapped products",
      "Sync schedules every 15 minutes",
      "Price, MSRP and quantity sync",
      "Execution history with error details",
      "Phone and priority support",
    ],
    limits: { min_schedule_minutes: "15" },
  },
];

export function planPriceId(key: string): string {
  return `price_${key}_monthly`;
}

/** Seeds products and prices; Starter is the newest so newest-first lists read Starter, Growth, Scale. */
export function seedPlans(store: StripeStore, now: number): void {
  const oldestFirst = [...SANDBOX_PLANS].reverse();
  for (const [index, plan] of oldestFirst.entries()) {
    const created = now - 30 * 86_400 + index;
    const productId = `prod_${plan.key}`;
    const priceId = planPriceId(plan.key);
    store.products.set(productId, {
      id: productId,
      created,
      updated: created,
      seq: store.nextSeq(),
      name: plan.name,
      description: plan.description,
      active: true,
      features: plan.features,
      defaultPrice: priceId,
      metadata: { plan: plan.key, features: JSON.stringify(plan.features), ...plan.limits },
    });
    store.prices.set(priceId, {
      id: priceId,
      created,
      seq: store.nextSeq(),
      product: productId,
      active: true,
      currency: "usd",
      unitAmount: plan.unitAmount,
      interval: "month",
      intervalCount: 1,
      trialPeriodDays: null,
      lookupKey: `${plan.key}_monthly`,
      nickname: `${plan.name} monthly`,
      metadata: { plan: plan.key },
    });
  }
}
