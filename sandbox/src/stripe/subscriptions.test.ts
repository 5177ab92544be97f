import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import {
  type StripeHarness,
  stripeWithWebhooksPerTest,
  subscribeThroughCheckout,
  type WebhookReceiver,
} from "../../testing/stripe-harness.ts";

const given = stripeWithWebhooksPerTest();

/** Webhooks that arrived after `from` (the count before the action under test). */
async function typesSince(
  harness: StripeHarness,
  receiver: WebhookReceiver,
  from: number,
): Promise<string[]> {
  await harness.simulator.idle();
  return receiver.types().slice(from);
}

describe("POST /v1/subscriptions/:id", () => {
  it("sets cancel_at_period_end and resumes it again", async () => {
    const { harness, receiver } = await given();
    const { subscription } = await subscribeThroughCheckout(harness);
    await harness.simulator.idle();
    const before = receiver.events.length;

    const canceling = await harness.stripe.subscriptions.update(subscription.id, {
      cancel_at_period_end: true,
    });
    const resumed = await harness.stripe.subscriptions.update(subscription.id, {
      cancel_at_period_end: false,
    });

    const periodEnd = subscription.items.data[0]!.current_period_end;
    expect(canceling).toMatchObject({ status: "active", cancel_at_period_end: true, cancel_at: periodEnd });
    expect(canceling.canceled_at).toEqual(expect.any(Number));
    expect(resumed).toMatchObject({
      status: "active",
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
    });
    expect(await typesSince(harness, receiver, before)).toEqual([
      "customer.subscription.updated",
      "customer.subscription.updated",
    ]);
    const firstUpdate = receiver.events[before]!.event;
    expect(firstUpdate.data.previous_attributes).toMatchObject({
      cancel_at_period_end: false,
      cancel_at: null,
    });
  });

  it("switches plan on the same item, keeping the period, and invoices the proration when asked", async () => {
    const { harness, receiver } = await given();
    const { subscription } = await subscribeThroughCheckout(harness, "price_starter_monthly");
    await harness.simulator.idle();
    const before = receiver.events.length;
    await harness.advance(10 * 86_400);

    const switched = await harness.stripe.subscriptions.update(subscription.id, {
      items: [{ id: subscription.items.data[0]!.id, price: "price_scale_monthly" }],
      proration_behavior: "always_invoice",
      expand: ["latest_invoice"],
    });

    const item = switched.items.data[0]!;
    expect(switched.items.data).toHaveLength(1);
    expect(item.id).toBe(subscription.items.data[0]!.id);
    expect(item.price.id).toBe("price_scale_monthly");
    expect(item.current_period_end).toBe(subscription.items.data[0]!.current_period_end);
    const invoice = switched.latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({ billing_reason: "subscription_update", status: "paid" });
    // 21 of 31 days left: (199 - 29) * 21 / 31 = 115.16
    expect(invoice.total).toBe(Math.round(19_900 * (21 / 31)) - Math.round(2_900 * (21 / 31)));
    expect(invoice.parent?.subscription_details?.subscription).toBe(subscription.id);
    expect(await typesSince(harness, receiver, before)).toEqual([
      "customer.subscription.updated",
      "invoice.paid",
      "invoice.payment_succeeded",
    ]);
  });

  it("answers resource_missing for an unknown subscription item and leaves the subscription as it was", async () => {
    const { harness } = await given();
    const { subscription } = await subscribeThroughCheckout(harness);

    const error = await harness.stripe.subscriptions
      .update(subscription.id, {
        cancel_at_period_end: true,
        items: [{ id: "si_nope", price: "price_scale_monthly" }],
      })
      .catch((caught: unknown) => caught);
    const after = await harness.stripe.subscriptions.retrieve(subscription.id);

    expect(error).toMatchObject({ statusCode: 400, code: "resource_missing", param: "items[0][id]" });
    expect(after.cancel_at_period_end).toBe(false);
    expect(after.items.data[0]!.price.id).toBe("price_growth_monthly");
  });

  it("merges metadata and removes a key sent empty", async () => {
    const { harness } = await given();
    const { subscription } = await subscribeThroughCheckout(harness);

    await harness.stripe.subscriptions.update(subscription.id, { metadata: { plan: "growth", note: "x" } });
    const updated = await harness.stripe.subscriptions.update(subscription.id, { metadata: { note: "" } });

    expect(updated.metadata).toEqual({ plan: "growth" });
  });
});

describe("DELETE /v1/subscriptions/:id", () => {
  it("cancels now, sends customer.subscription.deleted and hides it from the default list", async () => {
    const { harness, receiver } = await given();
    const { customer, subscription } = await subscribeThroughCheckout(harness);
    await harness.simulator.idle();
    const before = receiver.events.length;

    const canceled = await harness.stripe.subscriptions.cancel(subscription.id);
    const listed = await harness.stripe.subscriptions.list({ customer: customer.id });
    const all = await harness.stripe.subscriptions.list({ customer: customer.id, status: "all" });

    expect(canceled).toMatchObject({
      status: "canceled",
      ended_at: expect.any(Number),
      canceled_at: expect.any(Number),
    });
    expect(listed.data).toEqual([]);
    expect(all.data.map((entry) => entry.id)).toEqual([subscription.id]);
    expect(await typesSince(harness, receiver, before)).toEqual(["customer.subscription.deleted"]);
    const deleted = receiver.events.at(-1)!.event.data.object as Stripe.Subscription;
    expect(deleted.status).toBe("canceled");
  });

  it("answers 404 for an unknown subscription", async () => {
    const { harness } = await given();

    const error = await harness.stripe.subscriptions.cancel("sub_nope").catch((caught: unknown) => caught);

    expect(error).toMatchObject({
      statusCode: 404,
      code: "resource_missing",
      message: "No such subscription: 'sub_nope'",
    });
  });
});

describe("POST /v1/subscriptions", () => {
  it("creates an active subscription charged to an attached card", async () => {
    const { harness } = await given();
    const { stripe } = harness;
    const customer = await stripe.customers.create({ email: "api@example.com" });
    const method = await stripe.paymentMethods.create({ type: "card", card: { token: "tok_visa" } });
    await stripe.paymentMethods.attach(method.id, { customer: customer.id });

    const subscription = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: "price_starter_monthly" }],
      default_payment_method: method.id,
      metadata: { userId: "u_9" },
      expand: ["latest_invoice"],
    });
    const invoice = await stripe.invoices.retrieve((subscription.latest_invoice as Stripe.Invoice).id!);

    expect(method).toMatchObject({
      object: "payment_method",
      type: "card",
      card: { brand: "visa", last4: "4242" },
    });
    expect(subscription).toMatchObject({
      status: "active",
      default_payment_method: method.id,
      metadata: { userId: "u_9" },
    });
    expect(invoice).toMatchObject({
      status: "paid",
      amount_paid: 2900,
      billing_reason: "subscription_create",
      customer: customer.id,
    });
  });

  it("refuses a default payment method that is not attached to the customer", async () => {
    const { harness } = await given();
    const customer = await harness.stripe.customers.create({});
    const method = await harness.stripe.paymentMethods.create({ type: "card", card: { token: "tok_visa" } });

    const error = await harness.stripe.subscriptions
      .create({
        customer: customer.id,
        items: [{ price: "price_starter_monthly" }],
        default_payment_method: method.id,
      })
      .catch((caught: unknown) => caught);

    expect(error).toMatchObject({ statusCode: 400, param: "default_payment_method" });
  });

  it("leaves the subscription incomplete when the card declines", async () => {
    const { harness } = await given();
    const customer = await harness.stripe.customers.create({ payment_method: "pm_card_chargeDeclined" });
    const [method] = (await harness.stripe.customers.listPaymentMethods(customer.id)).data;

    const subscription = await harness.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: "price_starter_monthly" }],
      default_payment_method: method!.id,
    });
    const refused = await harness.stripe.subscriptions
      .create({
        customer: customer.id,
        items: [{ price: "price_growth_monthly" }],
        default_payment_method: method!.id,
        payment_behavior: "error_if_incomplete",
      })
      .catch((caught: unknown) => caught);

    expect(subscription.status).toBe("incomplete");
    expect(refused).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(refused).toMatchObject({ statusCode: 402, code: "card_declined" });
  });
});
