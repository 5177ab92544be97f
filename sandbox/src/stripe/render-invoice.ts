import type { InvoiceLineRecord, InvoiceRecord, StripeStore } from "./records.ts";
import type { StripeObject } from "./render.ts";
import { renderList } from "./render.ts";

/** An invoice in the API 2025-03-31+ shape (subscription under `parent.subscription_details`). */
export function renderInvoice(invoice: InvoiceRecord, store: StripeStore): StripeObject {
  const customer = store.customers.get(invoice.customer);
  const amountDue = Math.max(invoice.total, 0);
  return {
    id: invoice.id,
    object: "invoice",
    account_country: "US",
    account_name: "Stockbridge Sandbox",
    account_tax_ids: null,
    amount_due: amountDue,
    amount_overpaid: 0,
    amount_paid: invoice.amountPaid,
    amount_remaining: amountDue - invoice.amountPaid,
    amount_shipping: 0,
    application: null,
    attempt_count: invoice.attemptCount,
    attempted: invoice.attemptCount > 0,
    auto_advance: invoice.status === "open",
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    automatically_finalizes_at: null,
    billing_reason: invoice.billingReason,
    collection_method: "charge_automatically",
    created: invoice.created,
    currency: invoice.currency,
    custom_fields: null,
    customer: invoice.customer,
    customer_address: null,
    customer_email: customer?.email ?? null,
    customer_name: customer?.name ?? null,
    customer_phone: null,
    customer_shipping: null,
    customer_tax_exempt: "none",
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    due_date: null,
    effective_at: invoice.created,
    ending_balance: 0,
    footer: null,
    from_invoice: null,
    hosted_invoice_url: null,
    invoice_pdf: null,
    issuer: { type: "self" },
    last_finalization_error: null,
    latest_revision: null,
    lines: renderList(
      `/v1/invoices/${invoice.id}/lines`,
      invoice.lines.map((line) => renderLine(line, invoice, store)),
      false,
    ),
    livemode: false,
    metadata: { ...invoice.metadata },
    next_payment_attempt: null,
    number: invoice.number,
    on_behalf_of: null,
    parent: invoice.subscription
      ? {
          quote_details: null,
          subscription_details: {
            metadata: { ...invoice.subscriptionMetadata },
            subscription: invoice.subscription,
          },
          type: "subscription_details",
        }
      : null,
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    period_end: invoice.periodEnd,
    period_start: invoice.periodStart,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: 0,
    statement_descriptor: null,
    status: invoice.status,
    status_transitions: {
      finalized_at: invoice.created,
      marked_uncollectible_at: null,
      paid_at: invoice.paidAt,
      voided_at: null,
    },
    // Removed from the API in 2025-03-31 (now under parent); kept for code written against older typings.
    subscription: invoice.subscription,
    subtotal: invoice.total,
    subtotal_excluding_tax: invoice.total,
    test_clock: null,
    total: invoice.total,
    total_discount_amounts: [],
    total_excluding_tax: invoice.total,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: invoice.created,
  };
}

function renderLine(line: InvoiceLineRecord, invoice: InvoiceRecord, store: StripeStore): StripeObject {
  const price = store.prices.get(line.price);
  return {
    id: line.id,
    object: "line_item",
    amount: line.amount,
    currency: invoice.currency,
    description: line.description,
    discount_amounts: [],
    discountable: true,
    discounts: [],
    invoice: invoice.id,
    livemode: false,
    metadata: {},
    parent: line.subscriptionItem
      ? {
          invoice_item_details: null,
          subscription_item_details: {
            invoice_item: null,
            proration: line.proration,
            proration_details: { credited_items: null },
            subscription: invoice.subscription,
            subscription_item: line.subscriptionItem,
          },
          type: "subscription_item_details",
        }
      : null,
    period: { end: line.periodEnd, start: line.periodStart },
    pretax_credit_amounts: [],
    pricing: {
      price_details: { price: line.price, product: price?.product ?? null },
      type: "price_details",
      unit_amount_decimal: String(price?.unitAmount ?? 0),
    },
    quantity: line.quantity,
    taxes: [],
  };
}
