import { describe, expect, it } from "vitest";
import { GROWTH, SCALE, startBillingWorld } from "../../testing/billing-harness.ts";
import { createTestApp, failure, grantSubscription } from "../../testing/helpers.ts";

const DAY_SECONDS = 86_400;

/** A user with a paid Growth subscription whose webhooks have all been applied. */
async function subscriber(world: Awaited<ReturnType<typeof startBillingWorld>>) {
  const user = await world.user();
  const { subscriptionId } = await world.checkoutAndPay(user.token);
  await world.webhooksDelivered();
  return { ...user, subscriptionId };
}

describe("POST /subscriptions/cancel and /subscriptions/resume", () => {
  it("cancels at period end by default, keeps access until then, and resumes", async () => {
    const world = await startBillingWorld();
    const { api, token, subscriptionId } = await subscriber(world);

    const cancelled = await api.call("cancelSubscription", { body: {} });
    expect(cancelled).toMatchObject({ planId: GROWTH, status: "active", cancelAtPeriodEnd: true });
    expect((await world.stripe.subscriptions.retrieve(subscriptionId)).cancel_at_period_end).toBe(true);
    await world.webhooksDelivered();
    expect((await api.call("subscriptionStatus")).subscription?.cancelAtPeriodEnd).toBe(true);
    expect((await world.request("/api/mapping/history", { token })).status).toBe(200);

    const resumed = await api.call("resumeSubscription");
    expect(resumed).toMatchObject({ status: "active", cancelAtPeriodEnd: false });
    expect((await world.stripe.subscriptions.retrieve(subscriptionId)).cancel_at_period_end).toBe(false);
    await world.webhooksDelivered();
    expect(await api.call("subscriptionStatus")).toMatchObject({
      hasAccess: true,
      subscription: { cancelAtPeriodEnd: false },
    });
  });

  it("cancels now when asked, which closes the gated routes at once", async () => {
    const world = await startBillingWorld();
    const { api, token } = await subscriber(world);
    const cancelled = await api.call("cancelSubscription", { body: { cancelAtPeriodEnd: false } });
    expect(cancelled.status).toBe("canceled");
    expect((await world.request("/api/mapping/history", { token })).status).toBe(403);
    await world.webhooksDelivered();
    expect(await api.call("subscriptionStatus")).toMatchObject({
      hasAccess: false,
      subscription: { status: "canceled" },
    });
    const again = await failure(api.call("resumeSubscription"));
    expect(again.status).toBe(409);
  });

  it("revokes access when Stripe ends a cancelled subscription at its period end", async () => {
    const world = await startBillingWorld();
    const { api, token } = await subscriber(world);
    await api.call("cancelSubscription", { body: { cancelAtPeriodEnd: true } });
    await world.webhooksDelivered();
    await world.advanceStripeClock(32 * DAY_SECONDS);
    await world.webhooksDelivered();

    const forbidden = await world.request("/api/mapping/history", { token });
    expect(forbidden.status).toBe(403);
    expect((await forbidden.json()).message).toBe("A subscription is required to access this service.");
    expect(await api.call("subscriptionStatus")).toMatchObject({
      hasAccess: false,
      subscription: { status: "canceled" },
    });
  });

  it("revokes access at the period end of a cancelled subscription even before Stripe's webhook", async () => {
    const world = await startBillingWorld();
    const user = await subscriber(world);
    const { currentPeriodEnd } = await user.api.call("cancelSubscription", { body: {} });
    await world.webhooksDelivered();
    world.clock.advance(new Date(currentPeriodEnd ?? 0).getTime() - world.clock.now().getTime() + 1_000);
    const { api, token } = await world.signIn(user);
    expect((await world.request("/api/mapping/history", { token })).status).toBe(403);
    expect((await api.call("subscriptionStatus")).hasAccess).toBe(false);
  });

  it("keeps access across a renewal whose webhook is late by asking Stripe", async () => {
    const world = await startBillingWorld();
    const user = await subscriber(world);
    await world.setStripe({ webhookUrl: null });
    await world.advanceStripeClock(31 * DAY_SECONDS);
    world.clock.advance(31 * DAY_SECONDS * 1000);
    const { token } = await world.signIn(user);
    expect((await world.request("/api/mapping/history", { token })).status).toBe(200);
    const row = await world.db.execute("SELECT current_period_end FROM subscriptions");
    expect(new Date(String(row.rows[0]?.current_period_end)).getTime()).toBeGreaterThan(
      world.clock.now().getTime(),
    );
  });
});

describe("POST /subscriptions/update", () => {
  it("switches the plan on the same subscription", async () => {
    const world = await startBillingWorld();
    const { api, subscriptionId } = await subscriber(world);
    const switched = await api.call("updateSubscription", { body: { priceId: SCALE } });
    expect(switched).toMatchObject({ planId: SCALE, planName: "Scale", status: "active" });
    const atStripe = await world.stripe.subscriptions.retrieve(subscriptionId);
    expect(atStripe.items.data.map((item) => item.price.id)).toEqual([SCALE]);
    await world.webhooksDelivered();
    expect((await api.call("me")).user.subscription).toMatchObject({ planId: SCALE });
  });

  it("answers 400 for an unknown price and changes nothing", async () => {
    const world = await startBillingWorld();
    const { api } = await subscriber(world);
    const error = await failure(api.call("updateSubscription", { body: { priceId: "price_unknown" } }));
    expect(error.status).toBe(400);
    expect((await api.call("subscriptionStatus")).subscription?.planId).toBe(GROWTH);
  });
});

describe("without a subscription", () => {
  it.each([
    ["cancelSubscription", "cancel"],
    ["updateSubscription", "switch"],
    ["resumeSubscription", "resume"],
  ] as const)("%s answers 404", async (name, verb) => {
    const world = await startBillingWorld();
    const { api } = await world.user();
    const input =
      name === "updateSubscription"
        ? { body: { priceId: SCALE } }
        : name === "cancelSubscription"
          ? { body: {} }
          : undefined;
    const error = await failure((api.call as (n: string, i?: unknown) => Promise<unknown>)(name, input));
    expect(error.status).toBe(404);
    expect(error.message).toBe(`You have no subscription to ${verb}. Choose a plan first.`);
  });
});

describe("POST /subscriptions/create", () => {
  it("attaches the card, makes it the default and starts the subscription", async () => {
    const world = await startBillingWorld();
    const { api, token, userId } = await world.user();
    const created = await api.call("createSubscription", {
      body: { priceId: GROWTH, paymentMethodId: "pm_card_visa" },
    });
    expect(created).toMatchObject({ planId: GROWTH, planName: "Growth", status: "active" });
    expect((await world.request("/api/mapping/history", { token })).status).toBe(200);
    const customerId = String(
      (
        await world.db.execute({
          sql: "SELECT customer_id FROM stripe_customers WHERE user_id = ?",
          args: [userId],
        })
      ).rows[0]?.customer_id,
    );
    const customer = await world.stripe.customers.retrieve(customerId);
    expect("invoice_settings" in customer && customer.invoice_settings.default_payment_method).toMatch(
      /^pm_/,
    );
    await world.webhooksDelivered();
  });

  it("answers 402 with Stripe's words for a declined card and grants nothing", async () => {
    const world = await startBillingWorld();
    const { api } = await world.user();
    const error = await failure(
      api.call("createSubscription", {
        body: { priceId: GROWTH, paymentMethodId: "pm_card_chargeDeclined" },
      }),
    );
    expect(error.status).toBe(402);
    expect(error.message).toBe("Your card was declined.");
    expect((await api.call("subscriptionStatus")).hasAccess).toBe(false);
    await world.webhooksDelivered();
  });

  it("answers 400 for a payment method Stripe does not know", async () => {
    const world = await startBillingWorld();
    const { api } = await world.user();
    const error = await failure(
      api.call("createSubscription", { body: { priceId: GROWTH, paymentMethodId: "pm_missing" } }),
    );
    expect(error.status).toBe(400);
    expect(error.errors[0]?.path).toBe("paymentMethodId");
    await world.webhooksDelivered();
  });
});

describe("billing without a Stripe key", () => {
  it("answers 503 'Billing is not configured' and the gate denies even a stored subscription", async () => {
    const { client, registerUser, request, db } = await createTestApp({ env: { STRIPE_SECRET_KEY: "" } });
    const { token, user } = await registerUser();
    const plans = await failure(client(token).call("plans"));
    expect(plans.status).toBe(503);
    expect(plans.message).toBe("Billing is not configured");
    expect(
      (await failure(client(token).call("createCheckoutSession", { body: { priceId: GROWTH } }))).status,
    ).toBe(503);
    expect((await failure(client(token).call("subscriptionStatus"))).status).toBe(503);
    const webhook = await request("/api/webhooks/stripe", {
      body: "{}",
      headers: { "Stripe-Signature": "t=1,v1=00" },
    });
    expect(webhook.status).toBe(503);
    await grantSubscription(db, user._id);
    expect((await request("/api/mapping/history", { token })).status).toBe(403);
  });
});
