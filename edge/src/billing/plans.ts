import { fromCents, type Plan, type PlanLimits } from "@stockbridge/shared";
import type { PriceView, StripeGateway } from "./stripe-gateway.ts";

const PLANS_TTL_MS = 60_000;

export interface PlanCatalog {
  /** The offered plans, cheapest first; read from Stripe at most once per TTL. */
  list(): Promise<Plan[]>;
  find(priceId: string): Promise<Plan | undefined>;
}

/**
 * Plans are Stripe's active recurring prices of active products. Cached briefly: the plans page
 * and every checkout read them, and they change only when someone edits the Stripe catalogue.
 */
export function createPlanCatalog(
  gateway: StripeGateway,
  options: {
    now: () => Date;
    ttlMs?: number | undefined;
    /** Told of each fresh read (subscribers' stored limits follow the catalogue); its failure is ignored. */
    onRead?: (plans: Plan[]) => Promise<void>;
  },
): PlanCatalog {
  const { now, ttlMs = PLANS_TTL_MS } = options;
  let cached: { at: number; plans: Promise<Plan[]> } | undefined;

  async function list(): Promise<Plan[]> {
    const at = now().getTime();
    if (!cached || at - cached.at >= ttlMs || at < cached.at) {
      const plans = gateway
        .listRecurringPrices()
        .then(toPlans)
        .then(async (read) => {
          await options.onRead?.(read).catch(() => {});
          return read;
        });
      cached = { at, plans };
      // A failed read is not cached: the next request asks Stripe again.
      plans.catch(() => {
        if (cached?.plans === plans) cached = undefined;
      });
    }
    return cached.plans;
  }

  return {
    list,
    async find(priceId) {
      return (await list()).find((plan) => plan.stripePriceId === priceId);
    },
  };
}

function toPlans(prices: PriceView[]): Plan[] {
  return prices
    .filter(
      (price) =>
        price.active &&
        price.recurring &&
        price.productActive &&
        price.unitAmount !== null &&
        price.productName,
    )
    .map(toPlan)
    .sort((a, b) => a.price - b.price || a.name.localeCompare(b.name));
}

function toPlan(price: PriceView): Plan {
  return {
    id: price.id,
    name: price.productName ?? price.id,
    price: fromCents(price.unitAmount ?? 0),
    interval:
      price.intervalCount > 1 ? `${price.intervalCount} ${price.interval}s` : (price.interval ?? "month"),
    features: featuresOf(price),
    stripePriceId: price.id,
    limits: limitsOf(price),
  };
}

/** The metadata keys a plan's limits are read from, on the price (first) or its product. */
const LIMIT_KEYS = {
  minScheduleMinutes: "min_schedule_minutes",
  maxMappings: "max_mappings",
} as const;

/**
 * A plan's limits from Stripe metadata: a positive whole number under each key, the price's own
 * value before its product's. A key that is missing, blank, "unlimited" or not a positive whole
 * number sets no limit: an account whose products carry no limits keeps every subscriber's
 * features, and a typo never stops a paying store's syncs (the log of a bad value is Stripe's
 * dashboard; the plan cards show the features people bought).
 */
function limitsOf(price: Pick<PriceView, "priceMetadata" | "productMetadata">): PlanLimits {
  const read = (key: string): number | null => {
    const text =
      [price.priceMetadata[key], price.productMetadata[key]]
        .map((value) => value?.trim() ?? "")
        .find((value) => value !== "") ?? "";
    if (!/^\d+$/.test(text)) return null;
    const value = Number(text);
    return Number.isSafeInteger(value) && value > 0 ? value : null;
  };
  return {
    minScheduleMinutes: read(LIMIT_KEYS.minScheduleMinutes),
    maxMappings: read(LIMIT_KEYS.maxMappings),
  };
}

/**
 * The feature list, by the conventions people use: a price's own `features` metadata, Stripe's
 * product `marketing_features`, then the product's `features` metadata (a JSON array, one per line,
 * or separated by `|` / `;` / commas), then numbered keys `feature_1`, `feature2`...
 */
function featuresOf(price: PriceView): string[] {
  const fromPrice = parseFeatureText(price.priceMetadata.features);
  if (fromPrice.length > 0) return fromPrice;
  if (price.marketingFeatures.length > 0) return price.marketingFeatures;
  const fromText = parseFeatureText(price.productMetadata.features);
  if (fromText.length > 0) return fromText;
  return numberedFeatures(price.productMetadata);
}

function parseFeatureText(text: string | undefined): string[] {
  const trimmed = text?.trim();
  if (!trimmed) return [];
  if (trimmed.startsWith("[")) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (Array.isArray(parsed))
        return parsed
          .filter((entry): entry is string => typeof entry === "string")
          .map((entry) => entry.trim())
          .filter(Boolean);
    } catch {
      // not JSON after all: read it as a plain list below
    }
  }
  const separator = /[\n|;]/.test(trimmed) ? /[\n|;]/ : /,(?!\d{3})/;
  return trimmed
    .split(separator)
    .map((entry) => entry.trim())
    .filter(Boolean);
}

function numberedFeatures(metadata: Record<string, string>): string[] {
  return Object.entries(metadata)
    .map(([key, value]) => ({ index: key.match(/^features?[_-]?(\d+)$/i)?.[1], value: value.trim() }))
    .filter(
      (entry): entry is { index: string; value: string } => entry.index !== undefined && entry.value !== "",
    )
    .sort((a, b) => Number(a.index) - Number(b.index))
    .map((entry) => entry.value);
}
