import { startSubscription } from "./billing.ts";
import type { StripeContext } from "./context.ts";
import { attachPaymentMethod, createCardPaymentMethod, createCustomer } from "./customers.ts";
import { cardDeclined } from "./errors.ts";
import type { CheckoutSessionRecord, SubscriptionRecord } from "./records.ts";
import { renderCheckoutSession } from "./render.ts";

/** Paying or cancelling a session that is no longer open. */
export class CheckoutClosedError extends Error {}

export interface CheckoutPayment {
  email?: string | null;
  /** A test card token; `tok_visa` when absent, `tok_chargeDeclined` to see a decline. */
  card?: string;
}

/**
 * What pressing "Pay" on the hosted page does: saves the card on the (new or given) customer,
 * starts the subscription on it (trialing when the session or price asks for a trial), completes
 * the session and sends checkout.session.completed. A declined card leaves the session open.
 */
export function completeCheckout(
  ctx: StripeContext,
  session: CheckoutSessionRecord,
  payment: CheckoutPayment,
): SubscriptionRecord {
  if (session.status !== "open") throw new CheckoutClosedError(closedMessage(session));
  const method = createCardPaymentMethod(ctx, { token: payment.card ?? "tok_visa" });
  if (method.declines) throw cardDeclined();
  const email = payment.email?.trim() || session.customerEmail;
  const customer =
    (session.customer && ctx.store.customers.get(session.customer)) ||
    createCustomer(ctx, { email: email ?? null, name: null, description: null, metadata: {} });
  attachPaymentMethod(ctx, method, customer);
  const firstPrice = ctx.store.prices.get(session.lineItems[0]!.price)!;
  const trialDays = session.subscriptionData.trialPeriodDays ?? firstPrice.trialPeriodDays;
  const subscription = startSubscription(ctx, {
    customer,
    items: session.lineItems,
    defaultPaymentMethod: method.id,
    metadata: { ...session.subscriptionData.metadata },
    description: session.subscriptionData.description,
    trialDays,
    paymentBehavior: "allow_incomplete",
    cancelAtPeriodEnd: false,
  });
  session.status = "complete";
  session.paymentStatus = trialDays ? "no_payment_required" : "paid";
  session.customer = customer.id;
  session.customerDetails = { email: customer.email ?? email ?? null, name: customer.name };
  session.subscription = subscription.id;
  session.invoice = subscription.latestInvoice;
  ctx.emit("checkout.session.completed", renderCheckoutSession(session, ctx.store));
  return subscription;
}

/** Where "Cancel" goes back to; the session stays open (Stripe does not expire it either). */
export function cancelCheckout(session: CheckoutSessionRecord): string {
  if (session.status !== "open") throw new CheckoutClosedError(closedMessage(session));
  if (!session.cancelUrl)
    throw new CheckoutClosedError("This checkout session has no cancel_url to return to.");
  return session.cancelUrl;
}

export function successRedirect(session: CheckoutSessionRecord): string {
  return session.successUrl.replaceAll("{CHECKOUT_SESSION_ID}", session.id);
}

export function closedMessage(session: CheckoutSessionRecord): string {
  return session.status === "complete"
    ? "This checkout session is already complete."
    : "This checkout session has expired. Start a new checkout from the merchant's site.";
}
