import type { StripeContext } from "./context.ts";
import { cardDeclined, invalidRequest, noSuch, parameterMissing } from "./errors.ts";
import { previousAttributes } from "./events.ts";
import { ID_LENGTHS, newId } from "./ids.ts";
import { canCharge, emitInvoiceOutcome, issueInvoice, periodLines, prorationLines } from "./invoicing.ts";
import { applyMetadata, type MetadataUpdate } from "./params.ts";
import { addIntervals, daysToSeconds } from "./periods.ts";
import type {
  CustomerRecord,
  InvoiceRecord,
  LineItemInput,
  PriceRecord,
  SubscriptionRecord,
} from "./records.ts";
import { renderSubscription } from "./render-subscription.ts";

export type PaymentBehavior =
  | "allow_incomplete"
  | "default_incomplete"
  | "error_if_incomplete"
  | "pending_if_incomplete";
export const PAYMENT_BEHAVIORS: readonly PaymentBehavior[] = [
  "allow_incomplete",
  "default_incomplete",
  "error_if_incomplete",
  "pending_if_incomplete",
];
export type ProrationBehavior = "create_prorations" | "always_invoice" | "none";
export const PRORATION_BEHAVIORS: readonly ProrationBehavior[] = [
  "create_prorations",
  "always_invoice",
  "none",
];

export interface SubscriptionStart {
  customer: CustomerRecord;
  items: LineItemInput[];
  defaultPaymentMethod: string | null;
  metadata: Record<string, string>;
  description: string | null;
  trialDays: number | null;
  paymentBehavior: PaymentBehavior;
  cancelAtPeriodEnd: boolean;
}

/** A usable recurring price, or Stripe's error naming the parameter that referenced it. */
export function recurringPrice(ctx: StripeContext, id: string, param: string): PriceRecord {
  const price = ctx.store.prices.get(id);
  if (!price) throw noSuch("price", id, { param });
  if (!price.active)
    throw invalidRequest(`The price specified is inactive. This field only accepts active prices.`, {
      param,
    });
  return price;
}

/**
 * Creates a subscription and its first invoice. With a trial the first period runs to the trial
 * end and costs nothing; otherwise the first period is charged now to the default payment method,
 * and a failed charge leaves the subscription `incomplete` (or refuses it, error_if_incomplete).
 */
export function startSubscription(ctx: StripeContext, input: SubscriptionStart): SubscriptionRecord {
  const now = ctx.now();
  const first = ctx.store.prices.get(input.items[0]!.price)!;
  const paymentMethod = input.defaultPaymentMethod ?? input.customer.defaultPaymentMethod;
  const chargeable = canCharge(ctx, paymentMethod);
  if (!input.trialDays && input.paymentBehavior === "error_if_incomplete" && !chargeable) {
    if (paymentMethod) throw cardDeclined();
    throw invalidRequest(
      "This customer has no attached payment source or default payment method. Please consider adding a default payment method.",
    );
  }
  const trialEnd = input.trialDays ? now + daysToSeconds(input.trialDays) : null;
  const anchor = trialEnd ?? now;
  const cycle = trialEnd ? 0 : 1;
  const subscription: SubscriptionRecord = {
    id: newId("sub_"),
    created: now,
    seq: ctx.store.nextSeq(),
    metadata: input.metadata,
    customer: input.customer.id,
    status: trialEnd ? "trialing" : "incomplete",
    items: input.items.map((item) => ({
      id: newId("si_", ID_LENGTHS.subscriptionItem),
      created: now,
      seq: ctx.store.nextSeq(),
      metadata: {},
      price: item.price,
      quantity: item.quantity,
    })),
    description: input.description,
    startDate: now,
    billingCycleAnchor: anchor,
    cycle,
    currentPeriodStart: now,
    currentPeriodEnd: addIntervals(anchor, first.interval, first.intervalCount * cycle),
    cancelAtPeriodEnd: false,
    cancelAt: null,
    canceledAt: null,
    endedAt: null,
    cancellationReason: null,
    trialStart: trialEnd ? now : null,
    trialEnd,
    defaultPaymentMethod: input.defaultPaymentMethod,
    latestInvoice: null,
  };
  setCancelAtPeriodEnd(subscription, input.cancelAtPeriodEnd, now);
  const charge = input.paymentBehavior !== "default_incomplete";
  const invoice = issueInvoice(ctx, subscription, {
    reason: "subscription_create",
    lines: periodLines(subscription, ctx, trialEnd ? 0 : 1),
    charge,
  });
  if (invoice.status === "paid" && !trialEnd) subscription.status = "active";
  ctx.store.subscriptions.set(subscription.id, subscription);
  ctx.emit("customer.subscription.created", renderSubscription(subscription, ctx.store));
  emitInvoiceOutcome(ctx, invoice);
  return subscription;
}

export interface ItemChange {
  id?: string;
  price?: string;
  quantity?: number;
  deleted?: boolean;
}

export interface SubscriptionChanges {
  cancelAtPeriodEnd?: boolean;
  cancelAt?: number | null;
  items?: ItemChange[];
  prorationBehavior?: ProrationBehavior;
  metadata?: MetadataUpdate;
  defaultPaymentMethod?: string | null;
  description?: string | null;
}

/** POST /v1/subscriptions/:id — cancel at period end / resume, plan switch, metadata. */
export function updateSubscription(
  ctx: StripeContext,
  subscription: SubscriptionRecord,
  changes: SubscriptionChanges,
) {
  const now = ctx.now();
  const before = renderSubscription(subscription, ctx.store);
  const onlyMetadata = Object.entries(changes).every(
    ([key, value]) => key === "metadata" || value === undefined,
  );
  if (subscription.status === "canceled" && !onlyMetadata) {
    throw invalidRequest("A canceled subscription can only update its cancellation_details and metadata.");
  }
  // A bad item entry (unknown id, inactive price) must leave the subscription as it was.
  const snapshot = structuredClone(subscription);
  let invoice: InvoiceRecord | null;
  try {
    applyCancellation(subscription, changes, now);
    invoice = changes.items
      ? changeItems(ctx, { subscription, changes: changes.items, proration: changes.prorationBehavior })
      : null;
  } catch (error) {
    Object.assign(subscription, snapshot);
    throw error;
  }
  subscription.metadata = applyMetadata(subscription.metadata, changes.metadata);
  if (changes.defaultPaymentMethod !== undefined)
    subscription.defaultPaymentMethod = changes.defaultPaymentMethod;
  if (changes.description !== undefined) subscription.description = changes.description;
  const after = renderSubscription(subscription, ctx.store);
  const previous = previousAttributes(before, after);
  if (Object.keys(previous).length > 0) ctx.emit("customer.subscription.updated", after, previous);
  if (invoice) emitInvoiceOutcome(ctx, invoice);
  return subscription;
}

function applyCancellation(
  subscription: SubscriptionRecord,
  changes: SubscriptionChanges,
  now: number,
): void {
  if (changes.cancelAtPeriodEnd !== undefined)
    setCancelAtPeriodEnd(subscription, changes.cancelAtPeriodEnd, now);
  if (changes.cancelAt !== undefined) {
    subscription.cancelAt = changes.cancelAt;
    subscription.cancelAtPeriodEnd = false;
    subscription.canceledAt = changes.cancelAt === null ? null : now;
    subscription.cancellationReason = changes.cancelAt === null ? null : "cancellation_requested";
  }
}

function setCancelAtPeriodEnd(subscription: SubscriptionRecord, value: boolean, now: number): void {
  // Repeating the same request must not move canceled_at (nor send another update).
  if (
    subscription.cancelAtPeriodEnd === value &&
    subscription.cancelAt === (value ? subscription.currentPeriodEnd : null)
  ) {
    return;
  }
  subscription.cancelAtPeriodEnd = value;
  subscription.cancelAt = value ? subscription.currentPeriodEnd : null;
  subscription.canceledAt = value ? now : null;
  subscription.cancellationReason = value ? "cancellation_requested" : null;
}

/**
 * Applies `items[n]` changes. A price swap within the same interval keeps the period; with
 * `always_invoice` the prorated difference is invoiced now, `create_prorations` (Stripe's
 * default) would add it to the next invoice, which the simulator leaves out. A different interval
 * restarts the billing cycle and invoices the new price at once, as Stripe does.
 */
function changeItems(
  ctx: StripeContext,
  {
    subscription,
    changes,
    proration = "create_prorations",
  }: { subscription: SubscriptionRecord; changes: ItemChange[]; proration?: ProrationBehavior },
): InvoiceRecord | null {
  const now = ctx.now();
  const swaps: { itemId: string; from: PriceRecord; to: PriceRecord; quantity: number }[] = [];
  for (const [index, change] of changes.entries()) {
    const param = (key: string) => `items[${index}][${key}]`;
    const price = change.price ? recurringPrice(ctx, change.price, param("price")) : undefined;
    if (price && subscription.items.some((item) => item.price === price.id && item.id !== change.id)) {
      throw invalidRequest(`Cannot add multiple subscription items with the same price: ${price.id}`, {
        param: param("price"),
      });
    }
    if (!change.id) {
      if (!price) throw parameterMissing(param("price"));
      const id = newId("si_", ID_LENGTHS.subscriptionItem);
      subscription.items.push({
        id,
        created: now,
        seq: ctx.store.nextSeq(),
        metadata: {},
        price: price.id,
        quantity: change.quantity ?? 1,
      });
      continue;
    }
    const item = subscription.items.find((candidate) => candidate.id === change.id);
    if (!item) throw noSuch("subscription item", change.id, { param: param("id") });
    if (change.deleted) {
      subscription.items = subscription.items.filter((candidate) => candidate !== item);
      continue;
    }
    if (price && price.id !== item.price) {
      swaps.push({
        itemId: item.id,
        from: ctx.store.prices.get(item.price)!,
        to: price,
        quantity: change.quantity ?? item.quantity,
      });
      item.price = price.id;
    }
    if (change.quantity !== undefined) item.quantity = change.quantity;
  }
  if (subscription.items.length === 0) {
    throw invalidRequest("A subscription must have at least one active item.", { param: "items" });
  }
  if (swaps.length === 0 || subscription.status === "trialing" || subscription.status === "incomplete")
    return null;
  const [swap] = swaps;
  if (swap!.from.interval !== swap!.to.interval || swap!.from.intervalCount !== swap!.to.intervalCount) {
    subscription.billingCycleAnchor = now;
    subscription.cycle = 1;
    subscription.currentPeriodStart = now;
    subscription.currentPeriodEnd = addIntervals(now, swap!.to.interval, swap!.to.intervalCount);
    if (subscription.cancelAtPeriodEnd) subscription.cancelAt = subscription.currentPeriodEnd;
    return issueInvoice(ctx, subscription, {
      reason: "subscription_update",
      lines: periodLines(subscription, ctx),
      charge: true,
    });
  }
  if (proration !== "always_invoice") return null;
  const lines = swaps.flatMap((change) => prorationLines(ctx, subscription, change));
  return issueInvoice(ctx, subscription, { reason: "subscription_update", lines, charge: true });
}

/** DELETE /v1/subscriptions/:id — ends the subscription now. */
export function cancelSubscription(ctx: StripeContext, subscription: SubscriptionRecord): SubscriptionRecord {
  if (subscription.status === "canceled") {
    throw invalidRequest(`Subscription ${subscription.id} is already canceled.`);
  }
  endSubscription(ctx, subscription, ctx.now());
  return subscription;
}

/** Marks a subscription canceled as of `at` and sends customer.subscription.deleted. */
export function endSubscription(ctx: StripeContext, subscription: SubscriptionRecord, at: number): void {
  subscription.status = "canceled";
  subscription.endedAt = at;
  subscription.canceledAt ??= at;
  subscription.cancelAt =
    subscription.cancelAt !== null && subscription.cancelAt <= at ? subscription.cancelAt : null;
  subscription.cancellationReason ??= "cancellation_requested";
  ctx.emit("customer.subscription.deleted", renderSubscription(subscription, ctx.store));
}
