import { endSubscription } from "./billing.ts";
import type { StripeContext } from "./context.ts";
import { previousAttributes } from "./events.ts";
import { canCharge, emitInvoiceOutcome, issueInvoice, paymentMethodFor, periodLines } from "./invoicing.ts";
import { addIntervals } from "./periods.ts";
import { newestFirst, type SubscriptionRecord } from "./records.ts";
import { renderCheckoutSession } from "./render.ts";
import { renderSubscription } from "./render-subscription.ts";

/** A jump of years would otherwise bill every month in between; Stripe's test clocks cap this too. */
const MAX_CYCLES_PER_ADVANCE = 60;
const RUNNING = new Set(["active", "trialing", "past_due"]);

/**
 * Catches the simulated account up with the sandbox clock, oldest subscription first: periods
 * that ended renew (new period, invoice charged, `customer.subscription.updated` then the invoice
 * events) or, when the subscription was set to cancel, end it (`customer.subscription.deleted`).
 * Open Checkout Sessions past `expires_at` expire.
 */
export function catchUpWithClock(ctx: StripeContext): void {
  const now = ctx.now();
  for (const session of newestFirst(ctx.store.sessions.values()).reverse()) {
    if (session.status === "open" && session.expiresAt <= now) {
      session.status = "expired";
      ctx.emit("checkout.session.expired", renderCheckoutSession(session, ctx.store));
    }
  }
  for (const subscription of newestFirst(ctx.store.subscriptions.values()).reverse()) {
    for (let cycles = 0; cycles < MAX_CYCLES_PER_ADVANCE && RUNNING.has(subscription.status); cycles++) {
      const { cancelAt } = subscription;
      if (cancelAt !== null && cancelAt <= now && cancelAt <= subscription.currentPeriodEnd) {
        endSubscription(ctx, subscription, cancelAt);
        break;
      }
      if (subscription.currentPeriodEnd > now) break;
      renew(ctx, subscription);
    }
  }
}

function renew(ctx: StripeContext, subscription: SubscriptionRecord): void {
  const before = renderSubscription(subscription, ctx.store);
  const price = ctx.store.prices.get(subscription.items[0]!.price)!;
  subscription.cycle++;
  subscription.currentPeriodStart = subscription.currentPeriodEnd;
  subscription.currentPeriodEnd = addIntervals(
    subscription.billingCycleAnchor,
    price.interval,
    price.intervalCount * subscription.cycle,
  );
  const paid = canCharge(ctx, paymentMethodFor(ctx, subscription));
  subscription.status = paid ? "active" : "past_due";
  const invoice = issueInvoice(ctx, subscription, {
    reason: "subscription_cycle",
    lines: periodLines(subscription, ctx),
    charge: true,
  });
  // The invoice is dated at the period boundary it bills, not at the moment the clock jumped.
  invoice.created = subscription.currentPeriodStart;
  if (invoice.paidAt !== null) invoice.paidAt = subscription.currentPeriodStart;
  const after = renderSubscription(subscription, ctx.store);
  ctx.emit("customer.subscription.updated", after, previousAttributes(before, after));
  emitInvoiceOutcome(ctx, invoice);
}
