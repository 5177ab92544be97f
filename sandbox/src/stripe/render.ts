import type {
  CheckoutSessionRecord,
  CustomerRecord,
  EventRecord,
  PaymentMethodRecord,
  PriceRecord,
  ProductRecord,
  StripeStore,
} from "./records.ts";

/** A JSON object as the API answers it. */
export type StripeObject = Record<string, unknown>;

/** The API version the simulator speaks (the one stripe-node 23 pins); echoed in events. */
export const API_VERSION = "2026-10-28.endive";

export function renderList(url: string, data: StripeObject[], hasMore: boolean): StripeObject {
  return { object: "list", data, has_more: hasMore, url };
}

export function renderProduct(product: ProductRecord): StripeObject {
  return {
    id: product.id,
    object: "product",
    active: product.active,
    created: product.created,
    default_price: product.defaultPrice,
    description: product.description,
    images: [],
    livemode: false,
    marketing_features: product.features.map((name) => ({ name })),
    metadata: { ...product.metadata },
    name: product.name,
    package_dimensions: null,
    shippable: null,
    statement_descriptor: null,
    tax_code: null,
    type: "service",
    unit_label: null,
    updated: product.updated,
    url: null,
  };
}

export function renderPrice(price: PriceRecord): StripeObject {
  return {
    id: price.id,
    object: "price",
    active: price.active,
    billing_scheme: "per_unit",
    created: price.created,
    currency: price.currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: price.lookupKey,
    metadata: { ...price.metadata },
    nickname: price.nickname,
    product: price.product,
    recurring: {
      interval: price.interval,
      interval_count: price.intervalCount,
      meter: null,
      trial_period_days: price.trialPeriodDays,
      usage_type: "licensed",
    },
    tax_behavior: "unspecified",
    tiers_mode: null,
    transform_quantity: null,
    type: "recurring",
    unit_amount: price.unitAmount,
    unit_amount_decimal: String(price.unitAmount),
  };
}

export function renderCustomer(customer: CustomerRecord): StripeObject {
  return {
    id: customer.id,
    object: "customer",
    address: null,
    balance: 0,
    created: customer.created,
    currency: "usd",
    default_source: null,
    delinquent: false,
    description: customer.description,
    discount: null,
    email: customer.email,
    invoice_prefix: customer.invoicePrefix,
    invoice_settings: {
      custom_fields: null,
      default_payment_method: customer.defaultPaymentMethod,
      footer: null,
      rendering_options: null,
    },
    livemode: false,
    metadata: { ...customer.metadata },
    name: customer.name,
    next_invoice_sequence: customer.nextInvoiceSequence,
    phone: null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: "none",
    test_clock: null,
  };
}

export function renderPaymentMethod(method: PaymentMethodRecord): StripeObject {
  return {
    id: method.id,
    object: "payment_method",
    allow_redisplay: "unspecified",
    billing_details: { address: null, email: null, name: null, phone: null, tax_id: null },
    card: {
      brand: method.brand,
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: "pass" },
      country: "US",
      display_brand: method.brand,
      exp_month: method.expMonth,
      exp_year: method.expYear,
      fingerprint: method.fingerprint,
      funding: "credit",
      generated_from: null,
      last4: method.last4,
      networks: { available: [method.brand], preferred: null },
      regulated_status: "unregulated",
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created: method.created,
    customer: method.customer,
    livemode: false,
    metadata: { ...method.metadata },
    type: "card",
  };
}

function sessionAmount(session: CheckoutSessionRecord, store: StripeStore): number {
  return session.lineItems.reduce(
    (sum, item) => sum + (store.prices.get(item.price)?.unitAmount ?? 0) * item.quantity,
    0,
  );
}

export function renderCheckoutSession(session: CheckoutSessionRecord, store: StripeStore): StripeObject {
  const amount = sessionAmount(session, store);
  const currency = store.prices.get(session.lineItems[0]?.price ?? "")?.currency ?? "usd";
  return {
    id: session.id,
    object: "checkout.session",
    after_expiration: null,
    allow_promotion_codes: null,
    amount_subtotal: amount,
    amount_total: amount,
    automatic_tax: { enabled: false, liability: null, status: null },
    billing_address_collection: null,
    cancel_url: session.cancelUrl,
    client_reference_id: session.clientReferenceId,
    client_secret: null,
    created: session.created,
    currency,
    customer: session.customer,
    customer_creation: session.customer ? null : "always",
    customer_details: session.customerDetails
      ? {
          address: null,
          email: session.customerDetails.email,
          name: session.customerDetails.name,
          phone: null,
          tax_exempt: "none",
          tax_ids: [],
        }
      : null,
    customer_email: session.customerEmail,
    expires_at: session.expiresAt,
    invoice: session.invoice,
    livemode: false,
    locale: null,
    metadata: { ...session.metadata },
    mode: "subscription",
    payment_intent: null,
    payment_method_types: ["card"],
    payment_status: session.paymentStatus,
    status: session.status,
    submit_type: null,
    subscription: session.subscription,
    success_url: session.successUrl,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: "hosted",
    // Stripe clears the hosted page's url once the session is no longer open.
    url: session.status === "open" ? session.url : null,
  };
}

export function renderEvent(event: EventRecord): StripeObject {
  return {
    id: event.id,
    object: "event",
    api_version: API_VERSION,
    created: event.created,
    data: event.previousAttributes
      ? { object: event.object, previous_attributes: event.previousAttributes }
      : { object: event.object },
    livemode: false,
    pending_webhooks: 0,
    request: { id: null, idempotency_key: null },
    type: event.type,
  };
}
