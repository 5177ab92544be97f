import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import {
  CHECKOUT_EVENT_TYPES,
  payCheckout,
  type StripeHarness,
  stripeWithWebhooksPerTest,
} from "../../testing/stripe-harness.ts";

const given = stripeWithWebhooksPerTest();

const SUCCESS_URL = "http://127.0.0.1:8000/subscription/success?session_id={CHECKOUT_SESSION_ID}";
const CANCEL_URL = "http://127.0.0.1:8000/subscription/cancel";

async function openSession(
  harness: StripeHarness,
  overrides: Partial<Stripe.Checkout.SessionCreateParams> = {},
) {
  const customer = await harness.stripe.customers.create({ email: "owner@example.com", name: "Store Owner" });
  const session = await harness.stripe.checkout.sessions.create({
    mode: "subscription",
    customer: customer.id,
    line_items: [{ price: "price_growth_monthly", quantity: 1 }],
    success_url: SUCCESS_URL,
    cancel_url: CANCEL_URL,
    client_reference_id: "user_42",
    metadata: { userId: "user_42" },
    subscription_data: { metadata: { userId: "user_42" } },
    ...overrides,
  });
  return { customer, session };
}

describe("POST /v1/checkout/sessions", () => {
  it("creates an open session whose url is the hosted page on the sandbox", async () => {
    const { harness } = await given();

    const { customer, session } = await openSession(harness);

    expect(customer.id).toMatch(/^cus_/);
    expect(session).toMatchObject({
      object: "checkout.session",
      mode: "subscription",
      status: "open",
      payment_status: "unpaid",
      customer: customer.id,
      client_reference_id: "user_42",
      metadata: { userId: "user_42" },
      amount_total: 7900,
      currency: "usd",
      subscription: null,
      success_url: SUCCESS_URL,
      url: `${harness.origin}/checkout/${session.id}`,
    });
    expect(session.id).toMatch(/^cs_test_/);
  });

  it("answers 400 resource_missing naming line_items[0][price] for an unknown price", async () => {
    const { harness } = await given();

    const error = await openSession(harness, { line_items: [{ price: "price_gone", quantity: 1 }] }).catch(
      (caught: unknown) => caught,
    );

    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({
      statusCode: 400,
      code: "resource_missing",
      param: "line_items[0][price]",
      message: "No such price: 'price_gone'",
    });
  });

  it("requires the line item quantity, as Stripe does", async () => {
    const { harness } = await given();

    const error = await openSession(harness, { line_items: [{ price: "price_growth_monthly" }] }).catch(
      (caught: unknown) => caught,
    );

    expect(error).toMatchObject({
      statusCode: 400,
      code: "parameter_missing",
      param: "line_items[0][quantity]",
    });
  });
});

describe("GET /checkout/:id", () => {
  it("shows the plan, its price and the Pay and Cancel buttons", async () => {
    const { harness } = await given();
    const { session } = await openSession(harness);

    const response = await fetch(session.url!);
    const html = await response.text();

    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(html).toContain("Subscribe to Growth");
    expect(html).toContain("$79.00");
    expect(html).toContain('value="owner@example.com"');
    expect(html).toMatch(/<button[^>]*>Pay<\/button>/);
    expect(html).toMatch(/<button[^>]*>Cancel<\/button>/);
  });
});

describe("POST /checkout/:id/pay", () => {
  it("activates the subscription, completes the session and sends verified webhooks", async () => {
    const { harness, receiver } = await given();
    const { customer, session } = await openSession(harness);

    const paid = await payCheckout(harness.origin, session.id);
    const { redirect } = (await paid.json()) as { redirect: string };
    const completed = await harness.stripe.checkout.sessions.retrieve(session.id, {
      expand: ["subscription"],
    });
    await harness.simulator.idle();

    expect(redirect).toBe(`http://127.0.0.1:8000/subscription/success?session_id=${session.id}`);
    expect(completed).toMatchObject({
      status: "complete",
      payment_status: "paid",
      customer: customer.id,
      url: null,
    });
    const subscription = completed.subscription as Stripe.Subscription;
    expect(subscription).toMatchObject({
      object: "subscription",
      status: "active",
      customer: customer.id,
      cancel_at_period_end: false,
      metadata: { userId: "user_42" },
    });
    const item = subscription.items.data[0]!;
    expect(item.price.id).toBe("price_growth_monthly");
    expect(item.current_period_end).toBe(item.current_period_start + 31 * 86_400);
    expect(receiver.rejected).toEqual([]);
    expect(receiver.types()).toEqual(CHECKOUT_EVENT_TYPES);
    const completedEvent = receiver.events.at(-1)!.event;
    expect(completedEvent).toMatchObject({
      object: "event",
      livemode: false,
      api_version: expect.any(String),
    });
    expect(completedEvent.id).toMatch(/^evt_/);
    expect(completedEvent.data.object).toMatchObject({
      id: session.id,
      subscription: subscription.id,
      client_reference_id: "user_42",
    });
  });

  it("answers a browser form with a 303 to success_url", async () => {
    const { harness } = await given();
    const { session } = await openSession(harness);

    const response = await fetch(`${harness.origin}/checkout/${session.id}/pay`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "email=owner%40example.com&card=tok_visa",
      redirect: "manual",
    });

    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(
      `http://127.0.0.1:8000/subscription/success?session_id=${session.id}`,
    );
  });

  it("creates the customer from the email when the session had none", async () => {
    const { harness, receiver } = await given();
    const session = await harness.stripe.checkout.sessions.create({
      mode: "subscription",
      line_items: [{ price: "price_starter_monthly", quantity: 1 }],
      success_url: SUCCESS_URL,
    });

    await payCheckout(harness.origin, session.id, { email: "new@example.com" });
    const completed = await harness.stripe.checkout.sessions.retrieve(session.id, { expand: ["customer"] });
    await harness.simulator.idle();

    expect((completed.customer as Stripe.Customer).email).toBe("new@example.com");
    expect(completed.customer_details?.email).toBe("new@example.com");
    expect(receiver.types()[0]).toBe("customer.created");
  });

  it("starts a trial when subscription_data asks for one", async () => {
    const { harness } = await given();
    const { session } = await openSession(harness, { subscription_data: { trial_period_days: 14 } });

    await payCheckout(harness.origin, session.id);
    const completed = await harness.stripe.checkout.sessions.retrieve(session.id, {
      expand: ["subscription.latest_invoice"],
    });

    const subscription = completed.subscription as Stripe.Subscription;
    expect(completed.payment_status).toBe("no_payment_required");
    expect(subscription.status).toBe("trialing");
    expect(subscription.trial_end).toBe(subscription.trial_start! + 14 * 86_400);
    expect((subscription.latest_invoice as Stripe.Invoice).amount_paid).toBe(0);
  });

  it("keeps the session open when the test card is declined", async () => {
    const { harness } = await given();
    const { session } = await openSession(harness);

    const response = await payCheckout(harness.origin, session.id, { card: "tok_chargeDeclined" });
    const after = await harness.stripe.checkout.sessions.retrieve(session.id);

    expect(response.status).toBe(402);
    expect(await response.json()).toEqual({ error: "Your card was declined.", code: "card_declined" });
    expect(after.status).toBe("open");
  });

  it("refuses to pay a session twice", async () => {
    const { harness } = await given();
    const { session } = await openSession(harness);
    await payCheckout(harness.origin, session.id);

    const again = await payCheckout(harness.origin, session.id);
    const page = await fetch(`${harness.origin}/checkout/${session.id}`);

    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ error: "This checkout session is already complete." });
    expect(await page.text()).toContain("This checkout session is already complete.");
  });
});

describe("POST /checkout/:id/cancel", () => {
  it("sends the browser back to cancel_url and creates nothing", async () => {
    const { harness } = await given();
    const { customer, session } = await openSession(harness);

    const response = await fetch(`${harness.origin}/checkout/${session.id}/cancel`, {
      method: "POST",
      redirect: "manual",
    });
    const subscriptions = await harness.stripe.subscriptions.list({ customer: customer.id });

    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(CANCEL_URL);
    expect(subscriptions.data).toEqual([]);
  });
});
