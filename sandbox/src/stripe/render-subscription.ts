import type { PriceRecord, StripeStore, SubscriptionItemRecord, SubscriptionRecord } from "./records.ts";
import { renderList, renderPrice, type StripeObject } from "./render.ts";

/** The legacy `plan` Stripe still puts on subscription items next to `price`. */
function renderPlan(price: PriceRecord): StripeObject {
  return {
    id: price.id,
    object: "plan",
    active: price.active,
    amount: price.unitAmount,
    amount_decimal: String(price.unitAmount),
    billing_scheme: "per_unit",
    created: price.created,
    currency: price.currency,
    interval: price.interval,
    interval_count: price.intervalCount,
    livemode: false,
    metadata: { ...price.metadata },
    meter: null,
    nickname: price.nickname,
    product: price.product,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: price.trialPeriodDays,
    usage_type: "licensed",
  };
}

function renderSubscriptionItem(
  item: SubscriptionItemRecord,
  subscription: SubscriptionRecord,
  store: StripeStore,
) {
  const price = store.prices.get(item.price)!;
  return {
    id: item.id,
    object: "subscription_item",
    created: item.created,
    current_period_end: subscription.currentPeriodEnd,
    current_period_start: subscription.currentPeriodStart,
    discounts: [],
    metadata: { ...item.metadata },
    plan: renderPlan(price),
    price: renderPrice(price),
    quantity: item.quantity,
    subscription: subscription.id,
    tax_rates: [],
  };
}

export function renderSubscription(subscription: SubscriptionRecord, store: StripeStore): StripeObject {
  const firstPrice = store.prices.get(subscription.items[0]?.price ?? "");
  return {
    id: subscription.id,
    object: "subscription",
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: subscription.billingCycleAnchor,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: null, type: "classic" },
    cancel_at: subscription.cancelAt,
    cancel_at_period_end: subscription.cancelAtPeriodEnd,
    canceled_at: subscription.canceledAt,
    cancellation_details: { comment: null, feedback: null, reason: subscription.cancellationReason },
    collection_method: "charge_automatically",
    created: subscription.created,
    currency: firstPrice?.currency ?? "usd",
    // Moved to the items in API 2025-03-31; kept here too for code written against older typings.
    current_period_end: subscription.currentPeriodEnd,
    current_period_start: subscription.currentPeriodStart,
    customer: subscription.customer,
    days_until_due: null,
    default_payment_method: subscription.defaultPaymentMethod,
    default_source: null,
    description: subscription.description,
    discounts: [],
    ended_at: subscription.endedAt,
    invoice_settings: { account_tax_ids: null, issuer: { type: "self" } },
    items: renderList(
      `/v1/subscription_items?subscription=${subscription.id}`,
      subscription.items.map((item) => renderSubscriptionItem(item, subscription, store)),
      false,
    ),
    latest_invoice: subscription.latestInvoice,
    livemode: false,
    metadata: { ...subscription.metadata },
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: {
      payment_method_options: null,
      payment_method_types: null,
      save_default_payment_method: "off",
    },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: subscription.startDate,
    status: subscription.status,
    test_clock: null,
    transfer_data: null,
    trial_end: subscription.trialEnd,
    trial_settings: { end_behavior: { missing_payment_method: "create_invoice" } },
    trial_start: subscription.trialStart,
  };
}
