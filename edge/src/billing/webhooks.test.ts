import { describe, expect, it } from "vitest";
import { type BillingWorld, GROWTH, SCALE, startBillingWorld } from "../../testing/billing-harness.ts";

interface RawEvent {
  id: string;
  type: string;
  created: number;
  data: { object: { id: string } };
}

/** Every event the simulated Stripe account recorded, oldest first, exactly as Stripe renders them. */
async function stripeEvents(world: BillingWorld): Promise<RawEvent[]> {
  const response = await fetch(`${world.sandboxOrigin}/v1/events?limit=100`, {
    headers: { Authorization: "Bearer sk_test_billing_test" },
  });
  const list = (await response.json()) as { data: RawEvent[] };
  return list.data.reverse();
}

async function storedSubscription(world: BillingWorld) {
  const result = await world.db.execute(
    "SELECT subscription_id, status, cancel_at_period_end, source_event_created FROM subscriptions",
  );
  return result.rows[0];
}

describe("POST /api/webhooks/stripe", () => {
  it("refuses a body signed with another secret, and applies nothing", async () => {
    const world = await startBillingWorld({ webhooks: false });
    const { token } = await world.user();
    await world.checkoutAndPay(token);
    const [event] = (await stripeEvents(world)).filter(
      (candidate) => candidate.type === "checkout.session.completed",
    );
    const response = await world.deliver(JSON.stringify(event), { secret: "whsec_someone_else" });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: "INVALID_SIGNATURE",
      message: expect.stringMatching(/^Webhook signature verification failed/),
    });
    expect((await world.db.execute("SELECT COUNT(*) AS n FROM stripe_events")).rows[0]?.n).toBe(0);
    expect(await storedSubscription(world)).toBeUndefined();
  });

  it("refuses a signature older than five minutes (a replayed capture)", async () => {
    const world = await startBillingWorld({ webhooks: false });
    const payload = JSON.stringify({
      id: "evt_old",
      object: "event",
      type: "customer.subscription.updated",
      created: 1,
      data: { object: { id: "sub_x" } },
    });
    const response = await world.deliver(payload, { timestamp: Math.floor(Date.now() / 1000) - 600 });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toMatch(/tolerance/i);
  });

  it("refuses a signature more than five minutes in the future, and takes one within the skew", async () => {
    const world = await startBillingWorld({ webhooks: false });
    const event = (id: string) =>
      JSON.stringify({
        id,
        object: "event",
        type: "customer.created",
        created: 1,
        data: { object: { id: "cus_1" } },
      });
    const now = Math.floor(Date.now() / 1000);

    const ahead = await world.deliver(event("evt_ahead"), { timestamp: now + 600 });
    const skewed = await world.deliver(event("evt_skewed"), { timestamp: now + 120 });

    expect(ahead.status).toBe(400);
    expect(await ahead.json()).toMatchObject({
      code: "INVALID_SIGNATURE",
      message: expect.stringMatching(/tolerance/i),
    });
    expect(skewed.status).toBe(200);
    const processed = await world.db.execute("SELECT id FROM stripe_events");
    expect(processed.rows.map((row) => row.id)).toEqual(["evt_skewed"]);
  });

  it("answers 400 naming the field to a signed body that is not an event", async () => {
    const world = await startBillingWorld({ webhooks: false });

    for (const payload of ["[]", "null", "42", JSON.stringify({ type: "customer.created", created: 1 })]) {
      const response = await world.deliver(payload);
      expect(response.status, payload).toBe(400);
      const body = await response.json();
      expect(body, payload).toMatchObject({
        code: "VALIDATION_FAILED",
        message: "The webhook body is not a Stripe event",
      });
      expect(body.errors.length, payload).toBeGreaterThan(0);
    }
    const noId = await world.deliver(JSON.stringify({ type: "customer.created", created: 1 }));
    expect((await noId.json()).errors).toEqual([{ path: "id", message: "must be the event's id" }]);
  });

  it("refuses a delivery without a Stripe-Signature, and a tampered body", async () => {
    const world = await startBillingWorld({ webhooks: false });
    const payload = JSON.stringify({
      id: "evt_1",
      object: "event",
      type: "customer.created",
      created: 1,
      data: { object: { id: "cus_1" } },
    });
    const unsigned = await fetch(`${world.appOrigin}/api/webhooks/stripe`, { method: "POST", body: payload });
    expect(unsigned.status).toBe(400);
    const valid = await world.deliver(payload);
    expect(valid.status).toBe(200);
    const tampered = await world.deliver(payload.replace("cus_1", "cus_2"), {
      signature: `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}`,
    });
    expect(tampered.status).toBe(400);
  });

  it("applies an event once when Stripe delivers it twice", async () => {
    const world = await startBillingWorld({ webhooks: false });
    const { token } = await world.user();
    await world.checkoutAndPay(token);
    const [completed] = (await stripeEvents(world)).filter(
      (event) => event.type === "checkout.session.completed",
    );
    const payload = JSON.stringify(completed, null, 2);

    const first = await world.deliver(payload);
    expect(await first.json()).toEqual({ received: true, duplicate: false });
    expect(await storedSubscription(world)).toMatchObject({ status: "active" });
    const calls = await world.stripeCalls();

    const second = await world.deliver(payload);
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual({ received: true, duplicate: true });
    expect(await world.stripeCalls()).toBe(calls);
    const recorded = await world.db.execute({
      sql: "SELECT COUNT(*) AS n FROM stripe_events WHERE id = ?",
      args: [completed?.id ?? ""],
    });
    expect(recorded.rows[0]?.n).toBe(1);
  });

  it("survives a delivery whose answer was lost: Stripe's retry is acknowledged as a duplicate", async () => {
    const world = await startBillingWorld();
    const { api, token } = await world.user();
    await world.setStripe({ failWebhooks: 2 });
    await world.checkoutAndPay(token);
    await world.webhooksDelivered();
    expect(await api.call("subscriptionStatus")).toMatchObject({
      hasAccess: true,
      subscription: { status: "active" },
    });
    // Only the two forced failures: every redelivery of an already applied event was answered 2xx.
    const state = (await (await fetch(`${world.sandboxOrigin}/__control/state`)).json()) as {
      stripe: { webhooksFailed: number };
    };
    expect(state.stripe.webhooksFailed).toBe(2);
  });

  it("ends on Stripe's latest state whatever order the events arrive in", async () => {
    const world = await startBillingWorld({ webhooks: false });
    const { api, token } = await world.user();
    const { subscriptionId } = await world.checkoutAndPay(token);
    // Changed in the Stripe dashboard: set to cancel, then switched to another plan.
    await world.stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true });
    const item = (await world.stripe.subscriptions.retrieve(subscriptionId)).items.data[0];
    await world.stripe.subscriptions.update(subscriptionId, { items: [{ id: item?.id, price: SCALE }] });
    const events = await stripeEvents(world);

    for (const event of [...events].reverse()) {
      expect((await world.deliver(JSON.stringify(event))).status).toBe(200);
    }

    expect(await api.call("subscriptionStatus")).toMatchObject({
      hasAccess: true,
      subscription: { planId: SCALE, planName: "Scale", status: "active", cancelAtPeriodEnd: true },
    });
    const newest = Math.max(
      ...events
        .filter((event) => event.type.startsWith("customer.subscription."))
        .map((event) => event.created),
    );
    expect((await storedSubscription(world))?.source_event_created).toBe(newest);
  });

  it("keeps the new subscription when a late event of the user's ended one arrives", async () => {
    const world = await startBillingWorld({ webhooks: false });
    const { api, token } = await world.user();
    const first = await world.checkoutAndPay(token);
    await api.call("subscriptionStatus");
    await api.call("cancelSubscription", { body: { cancelAtPeriodEnd: false } });
    const second = await world.checkoutAndPay(token);
    await api.call("subscriptionStatus", { query: { session_id: second.sessionId } });

    const late = (await stripeEvents(world)).filter((event) => event.data.object.id === first.subscriptionId);
    expect(late.map((event) => event.type)).toContain("customer.subscription.deleted");
    for (const event of late) expect((await world.deliver(JSON.stringify(event))).status).toBe(200);

    expect(await storedSubscription(world)).toMatchObject({
      subscription_id: second.subscriptionId,
      status: "active",
    });
    expect((await api.call("subscriptionStatus")).hasAccess).toBe(true);
  });

  it("grants nothing from the payload of a subscription Stripe does not know", async () => {
    const world = await startBillingWorld({ webhooks: false });
    const { api, userId } = await world.user();
    const forged = {
      id: "evt_forged",
      object: "event",
      type: "customer.subscription.updated",
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: "sub_not_in_stripe",
          object: "subscription",
          customer: "cus_not_in_stripe",
          status: "active",
          cancel_at_period_end: false,
          created: 1,
          current_period_end: 4_102_444_800,
          metadata: { userId },
          items: { data: [{ id: "si_x", current_period_end: 4_102_444_800, price: { id: GROWTH } }] },
        },
      },
    };

    const response = await world.deliver(JSON.stringify(forged));

    expect(response.status).toBe(200);
    expect(await storedSubscription(world)).toBeUndefined();
    expect((await world.db.execute("SELECT customer_id FROM stripe_customers")).rows).toEqual([]);
    expect(await api.call("subscriptionStatus")).toMatchObject({ hasAccess: false, subscription: null });
  });

  it("acknowledges events about customers it does not know and stores nothing", async () => {
    const world = await startBillingWorld();
    const customer = await world.stripe.customers.create({
      email: "someone@example.com",
      payment_method: "pm_card_visa",
    });
    await world.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: GROWTH }],
      default_payment_method: (await world.stripe.customers.listPaymentMethods(customer.id)).data[0]?.id,
    });
    await world.webhooksDelivered();
    expect(await storedSubscription(world)).toBeUndefined();
    const processed = await world.db.execute("SELECT type FROM stripe_events");
    expect(processed.rows.map((row) => row.type)).toContain("customer.subscription.created");
  });
});
