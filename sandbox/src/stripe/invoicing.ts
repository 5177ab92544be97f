import type { StripeContext } from "./context.ts";
import { newId } from "./ids.ts";
import type {
  BillingReason,
  InvoiceLineRecord,
  InvoiceRecord,
  PriceRecord,
  SubscriptionRecord,
} from "./records.ts";
import { renderInvoice } from "./render-invoice.ts";

/** Whether a payment method can pay: missing, or a declining test card, both fail the charge. */
export function canCharge(ctx: StripeContext, paymentMethodId: string | null): boolean {
  if (!paymentMethodId) return false;
  const method = ctx.store.paymentMethods.get(paymentMethodId);
  return method !== undefined && !method.declines;
}

/** The method a subscription's invoices are charged to: its own default, else the customer's. */
export function paymentMethodFor(ctx: StripeContext, subscription: SubscriptionRecord): string | null {
  return (
    subscription.defaultPaymentMethod ??
    ctx.store.customers.get(subscription.customer)?.defaultPaymentMethod ??
    null
  );
}

export function formatMoney(cents: number, currency: string): string {
  const symbol = currency === "usd" ? "$" : `${currency.toUpperCase()} `;
  const sign = cents < 0 ? "-" : "";
  return `${sign}${symbol}${(Math.abs(cents) / 100).toFixed(2)}`;
}

export function periodLines(
  subscription: SubscriptionRecord,
  ctx: StripeContext,
  amountFactor = 1,
): InvoiceLineRecord[] {
  return subscription.items.map((item) => {
    const price = ctx.store.prices.get(item.price)!;
    const product = ctx.store.products.get(price.product);
    return {
      id: newId("il_"),
      amount: Math.round(price.unitAmount * item.quantity * amountFactor),
      description: `${item.quantity} × ${product?.name ?? price.id} (at ${formatMoney(price.unitAmount, price.currency)} / ${price.interval})`,
      price: price.id,
      quantity: item.quantity,
      periodStart: subscription.currentPeriodStart,
      periodEnd: subscription.currentPeriodEnd,
      proration: false,
      subscriptionItem: item.id,
    };
  });
}

/** The two lines of a mid-period price change: credit for the old price, charge for the new one. */
export function prorationLines(
  ctx: StripeContext,
  subscription: SubscriptionRecord,
  change: { itemId: string; from: PriceRecord; to: PriceRecord; quantity: number },
): InvoiceLineRecord[] {
  const now = ctx.now();
  const length = subscription.currentPeriodEnd - subscription.currentPeriodStart;
  const share = length > 0 ? Math.max(0, subscription.currentPeriodEnd - now) / length : 0;
  const date = new Date(now * 1000).toUTCString().slice(5, 16);
  const name = (price: PriceRecord) => ctx.store.products.get(price.product)?.name ?? price.id;
  const line = (price: PriceRecord, sign: 1 | -1, text: string): InvoiceLineRecord => ({
    id: newId("il_"),
    amount: sign * Math.round(price.unitAmount * change.quantity * share),
    description: text,
    price: price.id,
    quantity: change.quantity,
    periodStart: now,
    periodEnd: subscription.currentPeriodEnd,
    proration: true,
    subscriptionItem: change.itemId,
  });
  return [
    line(change.from, -1, `Unused time on ${change.quantity} × ${name(change.from)} after ${date}`),
    line(change.to, 1, `Remaining time on ${change.quantity} × ${name(change.to)} after ${date}`),
  ];
}

/** Creates a finalized invoice for a subscription and tries to charge it right away. */
export function issueInvoice(
  ctx: StripeContext,
  subscription: SubscriptionRecord,
  input: { reason: BillingReason; lines: InvoiceLineRecord[]; charge: boolean },
): InvoiceRecord {
  const { store } = ctx;
  const customer = store.customers.get(subscription.customer)!;
  const now = ctx.now();
  const total = input.lines.reduce((sum, line) => sum + line.amount, 0);
  const invoice: InvoiceRecord = {
    id: newId("in_"),
    created: now,
    seq: store.nextSeq(),
    metadata: {},
    customer: customer.id,
    subscription: subscription.id,
    subscriptionMetadata: { ...subscription.metadata },
    billingReason: input.reason,
    status: "open",
    lines: input.lines,
    currency: store.prices.get(subscription.items[0]!.price)?.currency ?? "usd",
    periodStart: input.lines[0]?.periodStart ?? now,
    periodEnd: input.lines[0]?.periodEnd ?? now,
    total,
    amountPaid: 0,
    attemptCount: 0,
    number: `${customer.invoicePrefix}-${String(customer.nextInvoiceSequence).padStart(4, "0")}`,
    paidAt: null,
    paymentMethod: paymentMethodFor(ctx, subscription),
  };
  customer.nextInvoiceSequence++;
  store.invoices.set(invoice.id, invoice);
  subscription.latestInvoice = invoice.id;
  if (total <= 0) markPaid(invoice, now);
  else if (input.charge) {
    invoice.attemptCount++;
    if (canCharge(ctx, invoice.paymentMethod)) markPaid(invoice, now);
  }
  return invoice;
}

function markPaid(invoice: InvoiceRecord, now: number): void {
  invoice.status = "paid";
  invoice.amountPaid = Math.max(invoice.total, 0);
  invoice.paidAt = now;
}

/** The webhooks Stripe sends once an invoice has been charged (or the charge failed). */
export function emitInvoiceOutcome(ctx: StripeContext, invoice: InvoiceRecord): void {
  const object = renderInvoice(invoice, ctx.store);
  if (invoice.status === "paid") {
    ctx.emit("invoice.paid", object);
    ctx.emit("invoice.payment_succeeded", object);
  } else if (invoice.attemptCount > 0) {
    ctx.emit("invoice.payment_failed", object);
  }
}
