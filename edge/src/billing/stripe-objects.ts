import type Stripe from "stripe";

/** A price as the plan catalogue needs it, whatever the account's API version renders. */
export interface PriceView {
  id: string;
  active: boolean;
  recurring: boolean;
  /** Cents; null for tiered or customer-chosen amounts (not offered as plans). */
  unitAmount: number | null;
  interval: string | null;
  intervalCount: number;
  productName: string | null;
  productActive: boolean;
  /** Stripe's own `marketing_features` of the product. */
  marketingFeatures: string[];
  productMetadata: Record<string, string>;
  priceMetadata: Record<string, string>;
}

export interface SubscriptionView {
  id: string;
  customerId: string;
  status: string;
  priceId: string | null;
  itemId: string | null;
  /** Only when the price's product was expanded. */
  productName: string | null;
  /** Unix seconds. */
  currentPeriodEnd: number | null;
  cancelAtPeriodEnd: boolean;
  created: number;
}

export interface CheckoutSessionView {
  id: string;
  url: string | null;
  status: string | null;
  customerId: string | null;
  subscriptionId: string | null;
  clientReferenceId: string | null;
}

export interface WebhookEventView {
  id: string;
  type: string;
  /** Unix seconds. */
  created: number;
  object: Record<string, unknown>;
}

export function toPriceView(price: Stripe.Price): PriceView {
  const product = typeof price.product === "object" && price.product !== null ? price.product : null;
  const live =
    product !== null && !("deleted" in product && product.deleted === true)
      ? (product as Stripe.Product)
      : null;
  return {
    id: price.id,
    active: price.active,
    recurring: price.recurring !== null && price.recurring !== undefined,
    unitAmount: typeof price.unit_amount === "number" ? price.unit_amount : null,
    interval: price.recurring?.interval ?? null,
    intervalCount: price.recurring?.interval_count ?? 1,
    productName: live?.name ?? null,
    productActive: live?.active ?? false,
    marketingFeatures: (live?.marketing_features ?? []).map((feature) => feature.name ?? "").filter(Boolean),
    productMetadata: { ...(live?.metadata ?? {}) },
    priceMetadata: { ...(price.metadata ?? {}) },
  };
}

/**
 * The period end moved from the subscription to its items in API 2025-03-31; read the item's and
 * fall back to the top-level field that older accounts (and webhook payloads pinned to them) carry.
 */
export function toSubscriptionView(subscription: Stripe.Subscription): SubscriptionView {
  const item = subscription.items?.data?.[0];
  const price = item?.price;
  const product = price && typeof price.product === "object" && price.product !== null ? price.product : null;
  const legacyEnd = (subscription as unknown as Record<string, unknown>).current_period_end;
  const currentPeriodEnd = numberOrNull(item?.current_period_end) ?? numberOrNull(legacyEnd);
  const cancelAt = numberOrNull(subscription.cancel_at);
  return {
    id: subscription.id,
    customerId: idOf(subscription.customer) ?? "",
    status: subscription.status,
    priceId: price?.id ?? null,
    itemId: item?.id ?? null,
    productName: product && "name" in product && typeof product.name === "string" ? product.name : null,
    currentPeriodEnd,
    // Newer API versions express "cancel at period end" as cancel_at set to the period's end.
    cancelAtPeriodEnd:
      subscription.cancel_at_period_end === true || (cancelAt !== null && cancelAt === currentPeriodEnd),
    created: subscription.created,
  };
}

export function toCheckoutSessionView(session: Stripe.Checkout.Session): CheckoutSessionView {
  return {
    id: session.id,
    url: session.url ?? null,
    status: session.status ?? null,
    customerId: idOf(session.customer),
    subscriptionId: idOf(session.subscription),
    clientReferenceId: session.client_reference_id ?? null,
  };
}

/** A reference that is either an id or the expanded object. */
export function idOf(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (typeof value === "object" && value !== null && "id" in value && typeof value.id === "string")
    return value.id;
  return null;
}

function numberOrNull(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}
