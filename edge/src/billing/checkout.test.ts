import { describe, expect, it } from "vitest";
import { GROWTH, SCALE, STARTER, startBillingWorld } from "../../testing/billing-harness.ts";
import { failure } from "../../testing/helpers.ts";

describe("GET /subscriptions/plans", () => {
  it("lists Stripe's recurring prices as plans, cheapest first, with the product's features", async () => {
    const world = await startBillingWorld();
    const { api } = await world.user();
    const plans = await api.call("plans");
    expect(plans.map((plan) => [plan.name, plan.price, plan.interval, plan.stripePriceId])).toEqual([
      ["Starter", 29, "month", STARTER],
      ["Growth", 79, "month", GROWTH],
      ["Scale", 199, "month", SCALE],
    ]);
    expect(plans[0]?.id).toBe(STARTER);
    expect(plans[1]?.features).toContain("Sync schedules every 15 minutes");
  });

  it("reads the plans from Stripe at most once a minute", async () => {
    const world = await startBillingWorld();
    const { api } = await world.user();
    await api.call("plans");
    const calls = await world.stripeCalls();
    world.clock.advance(59_000);
    await api.call("plans");
    expect(await world.stripeCalls()).toBe(calls);
    world.clock.advance(1_000);
    await api.call("plans");
    expect(await world.stripeCalls()).toBe(calls + 1);
  });

  it("offers a new price once the cache has expired, with features from the product's metadata", async () => {
    const world = await startBillingWorld();
    const { api } = await world.user();
    await api.call("plans");
    const product = await world.stripe.products.create({
      name: "Enterprise",
      metadata: { features: "SSO | Audit log" },
    });
    const price = await world.stripe.prices.create({
      product: product.id,
      unit_amount: 49_950,
      currency: "usd",
      recurring: { interval: "year" },
    });
    world.clock.advance(60_000);
    const plans = await api.call("plans");
    expect(plans.at(-1)).toEqual({
      id: price.id,
      name: "Enterprise",
      price: 499.5,
      interval: "year",
      features: ["SSO", "Audit log"],
      stripePriceId: price.id,
      limits: { minScheduleMinutes: null, maxMappings: null },
    });
  });

  it("answers 502 naming Stripe when Stripe keeps failing", async () => {
    const world = await startBillingWorld();
    const { api } = await world.user();
    await world.setStripe({ errorRate: 1 });
    const error = await failure(api.call("plans"));
    expect(error.status).toBe(502);
    expect(error.code).toBe("UPSTREAM_FAILED");
    expect(error.message).toMatch(/^Listing plans failed: /);
  });
});

describe("POST /subscriptions/create-checkout-session", () => {
  it("starts a subscription-mode Checkout for the user's customer with the app's return URLs", async () => {
    const world = await startBillingWorld();
    const { api, userId } = await world.user();
    const { url } = await api.call("createCheckoutSession", { body: { priceId: GROWTH } });
    expect(url).toMatch(new RegExp(`^${world.sandboxOrigin}/checkout/cs_test_`));
    const sessionId = url.split("/").at(-1) ?? "";
    const session = await world.stripe.checkout.sessions.retrieve(sessionId);
    expect(session).toMatchObject({
      mode: "subscription",
      client_reference_id: userId,
      success_url: "https://app.example.com/subscription/success?session_id={CHECKOUT_SESSION_ID}",
      cancel_url: "https://app.example.com/subscription/cancel",
    });
    const stored = await world.db.execute({
      sql: "SELECT customer_id FROM stripe_customers WHERE user_id = ?",
      args: [userId],
    });
    expect(session.customer).toBe(stored.rows[0]?.customer_id);
  });

  it("creates the Stripe customer once and reuses it", async () => {
    const world = await startBillingWorld();
    const { api } = await world.user();
    const first = await api.call("createCheckoutSession", { body: { priceId: GROWTH } });
    const second = await api.call("createCheckoutSession", { body: { priceId: STARTER } });
    const sessions = await Promise.all(
      [first, second].map(({ url }) => world.stripe.checkout.sessions.retrieve(url.split("/").at(-1) ?? "")),
    );
    expect(sessions[0]?.customer).toBe(sessions[1]?.customer);
    expect((await world.stripe.customers.list()).data).toHaveLength(1);
  });

  it("keeps one payable checkout per user: the same plan's open one again, another plan's closed", async () => {
    const world = await startBillingWorld();
    const { api } = await world.user();
    const growth = await api.call("createCheckoutSession", { body: { priceId: GROWTH } });

    const again = await api.call("createCheckoutSession", { body: { priceId: GROWTH } });
    const scale = await api.call("createCheckoutSession", { body: { priceId: SCALE } });

    expect(again.url).toBe(growth.url);
    const sessionOf = (url: string) => world.stripe.checkout.sessions.retrieve(url.split("/").at(-1) ?? "");
    expect((await sessionOf(growth.url)).status).toBe("expired");
    const open = await world.stripe.checkout.sessions.list({
      customer: String((await sessionOf(scale.url)).customer),
      status: "open",
    });
    expect(open.data.map((session) => session.url)).toEqual([scale.url]);
    const paid = await fetch(`${growth.url}/pay`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(paid.ok).toBe(false);
  });

  it("answers 400 for a price that is not an offered plan", async () => {
    const world = await startBillingWorld();
    const { api } = await world.user();
    const error = await failure(api.call("createCheckoutSession", { body: { priceId: "price_nope" } }));
    expect(error.status).toBe(400);
    expect(error.errors).toContainEqual({
      path: "priceId",
      message: "This plan does not exist. Choose one of the plans offered.",
    });
  });

  it("answers 409 to a user who already subscribes, pointing at a plan switch", async () => {
    const world = await startBillingWorld();
    const { api, token } = await world.user();
    await world.checkoutAndPay(token);
    await world.webhooksDelivered();
    const error = await failure(api.call("createCheckoutSession", { body: { priceId: SCALE } }));
    expect(error.status).toBe(409);
    expect(error.message).toMatch(/Switch plans instead/);
  });

  it("answers 409 while Stripe still bills a past-due subscription, instead of starting a second", async () => {
    const world = await startBillingWorld();
    const { api, token } = await world.user();
    const { subscriptionId } = await world.checkoutAndPay(token);
    // The card on file starts declining: the renewal fails and Stripe keeps the subscription past due.
    const customer = String((await world.stripe.subscriptions.retrieve(subscriptionId)).customer);
    const declining = await world.stripe.paymentMethods.attach("pm_card_visa_chargeDeclined", { customer });
    await world.stripe.subscriptions.update(subscriptionId, { default_payment_method: declining.id });
    await world.advanceStripeClock(31 * 86_400);
    expect((await world.stripe.subscriptions.retrieve(subscriptionId)).status).toBe("past_due");

    const error = await failure(api.call("createCheckoutSession", { body: { priceId: SCALE } }));

    expect(error.status).toBe(409);
    expect(error.message).toMatch(/Switch plans instead/);
    expect((await world.stripe.checkout.sessions.list({ customer, status: "open" })).data).toHaveLength(0);
  });
});

describe("checkout, payment and webhook", () => {
  it("activates the subscription once Stripe's webhooks arrive, and opens the gated routes", async () => {
    const world = await startBillingWorld();
    const { api, token } = await world.user();
    const before = await world.request("/api/mapping/history", { token });
    expect(before.status).toBe(403);
    expect((await before.json()).message).toBe("A subscription is required to access this service.");

    const { subscriptionId, redirect, sessionId } = await world.checkoutAndPay(token);
    expect(redirect).toBe(`https://app.example.com/subscription/success?session_id=${sessionId}`);
    await world.webhooksDelivered();
    const row = await world.db.execute("SELECT subscription_id, status FROM subscriptions");
    expect(row.rows[0]).toMatchObject({ subscription_id: subscriptionId, status: "active" });
    const events = await world.db.execute("SELECT type FROM stripe_events");
    expect(events.rows.map((event) => event.type)).toContain("checkout.session.completed");

    const status = await api.call("subscriptionStatus");
    expect(status.hasAccess).toBe(true);
    expect(status.subscription).toMatchObject({
      planId: GROWTH,
      planName: "Growth",
      status: "active",
      cancelAtPeriodEnd: false,
    });
    expect(new Date(status.subscription?.currentPeriodEnd ?? 0).getTime()).toBeGreaterThan(
      world.clock.now().getTime(),
    );
    expect((await api.call("me")).user.subscription).toMatchObject({ planId: GROWTH, status: "active" });
    expect((await world.request("/api/mapping/history", { token })).status).toBe(200);
  });

  it("answers the status from Stripe when the webhook has not arrived yet", async () => {
    const world = await startBillingWorld({ webhooks: false });
    const { api, token } = await world.user();
    const { sessionId } = await world.checkoutAndPay(token, STARTER);
    expect((await world.db.execute("SELECT COUNT(*) AS n FROM subscriptions")).rows[0]?.n).toBe(0);

    const status = await api.call("subscriptionStatus", { query: { session_id: sessionId } });
    expect(status).toMatchObject({
      hasAccess: true,
      subscription: { planId: STARTER, planName: "Starter", status: "active" },
    });
    expect((await world.request("/api/mapping/history", { token })).status).toBe(200);
  });

  it("finds the subscription of the user's recent checkout even without the session id", async () => {
    const world = await startBillingWorld({ webhooks: false });
    const { api, token } = await world.user();
    await world.checkoutAndPay(token);
    const status = await api.call("subscriptionStatus");
    expect(status).toMatchObject({ hasAccess: true, subscription: { planId: GROWTH, status: "active" } });
  });

  it("refuses to look up another user's checkout session", async () => {
    const world = await startBillingWorld({ webhooks: false });
    const owner = await world.user();
    const other = await world.user();
    const { sessionId } = await world.checkoutAndPay(owner.token);
    const error = await failure(other.api.call("subscriptionStatus", { query: { session_id: sessionId } }));
    expect(error.status).toBe(404);
    expect(await other.api.call("subscriptionStatus")).toEqual({ subscription: null, hasAccess: false });
  });

  it("answers no subscription and no access to a user who never subscribed", async () => {
    const world = await startBillingWorld();
    const { api } = await world.user();
    expect(await api.call("subscriptionStatus")).toEqual({ subscription: null, hasAccess: false });
  });
});
