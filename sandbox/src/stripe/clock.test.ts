import type Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { stripeWithWebhooksPerTest, subscribeThroughCheckout } from "../../testing/stripe-harness.ts";

const given = stripeWithWebhooksPerTest();

const DAY = 86_400;

describe("onClockChanged", () => {
  it("renews a subscription whose period ended: new period, paid invoice, updated webhook", async () => {
    const { harness, receiver } = await given();
    const { subscription } = await subscribeThroughCheckout(harness);
    await harness.simulator.idle();
    const before = receiver.events.length;
    const firstEnd = subscription.items.data[0]!.current_period_end;

    await harness.advance(32 * DAY);
    const renewed = await harness.stripe.subscriptions.retrieve(subscription.id, {
      expand: ["latest_invoice"],
    });

    expect(renewed.status).toBe("active");
    expect(renewed.items.data[0]!.current_period_start).toBe(firstEnd);
    expect(renewed.items.data[0]!.current_period_end).toBe(Date.UTC(2026, 2, 15, 12) / 1000);
    const invoice = renewed.latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({
      billing_reason: "subscription_cycle",
      status: "paid",
      amount_paid: 7900,
      period_start: firstEnd,
    });
    expect(receiver.types().slice(before)).toEqual([
      "customer.subscription.updated",
      "invoice.paid",
      "invoice.payment_succeeded",
    ]);
    const update = receiver.events[before]!.event;
    expect(update.data.previous_attributes).toMatchObject({ latest_invoice: subscription.latest_invoice });
  });

  it("bills every period the clock skipped over", async () => {
    const { harness } = await given();
    const { customer, subscription } = await subscribeThroughCheckout(harness);

    await harness.advance(95 * DAY);
    const invoices = await harness.stripe.invoices.list({ subscription: subscription.id });

    expect(invoices.data.map((invoice) => invoice.billing_reason)).toEqual([
      "subscription_cycle",
      "subscription_cycle",
      "subscription_cycle",
      "subscription_create",
    ]);
    expect(invoices.data.every((invoice) => invoice.customer === customer.id)).toBe(true);
  });

  it("ends a subscription set to cancel at period end once the period is over", async () => {
    const { harness, receiver } = await given();
    const { subscription } = await subscribeThroughCheckout(harness);
    await harness.stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
    await harness.simulator.idle();
    const before = receiver.events.length;

    await harness.advance(10 * DAY);
    const midPeriod = await harness.stripe.subscriptions.retrieve(subscription.id);
    await harness.advance(25 * DAY);
    const ended = await harness.stripe.subscriptions.retrieve(subscription.id);

    expect(midPeriod.status).toBe("active");
    expect(ended).toMatchObject({
      status: "canceled",
      ended_at: subscription.items.data[0]!.current_period_end,
    });
    expect(receiver.types().slice(before)).toEqual(["customer.subscription.deleted"]);
  });

  it("turns a trial into a paid active subscription at the trial end", async () => {
    const { harness } = await given();
    const customer = await harness.stripe.customers.create({ payment_method: "pm_card_visa" });
    const [method] = (await harness.stripe.customers.listPaymentMethods(customer.id)).data;
    const trial = await harness.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: "price_scale_monthly" }],
      default_payment_method: method!.id,
      trial_period_days: 7,
    });

    await harness.advance(8 * DAY);
    const after = await harness.stripe.subscriptions.retrieve(trial.id, { expand: ["latest_invoice"] });

    expect(trial.status).toBe("trialing");
    expect(after.status).toBe("active");
    expect(after.items.data[0]!.current_period_start).toBe(trial.trial_end);
    expect((after.latest_invoice as Stripe.Invoice).amount_paid).toBe(19_900);
  });

  it("expires open Checkout Sessions after 24 hours", async () => {
    const { harness } = await given();
    const session = await harness.stripe.checkout.sessions.create({
      mode: "subscription",
      line_items: [{ price: "price_starter_monthly", quantity: 1 }],
      success_url: "http://127.0.0.1:8000/ok",
    });

    await harness.advance(DAY + 1);
    const expired = await harness.stripe.checkout.sessions.retrieve(session.id);
    const page = await fetch(session.url!);

    expect(expired).toMatchObject({ status: "expired", url: null });
    expect(page.status).toBe(410);
    expect(await page.text()).toContain("This checkout session has expired.");
  });
});
