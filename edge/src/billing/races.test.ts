import { startSandbox } from "@stockbridge/sandbox";
import { createApiClient } from "@stockbridge/shared";
import Stripe from "stripe";
import { describe, expect, it, onTestFinished } from "vitest";
import { freePort } from "../../../scripts/lib.mjs";
import { GROWTH, SCALE, STARTER, startBillingWorld, WEBHOOK_SECRET } from "../../testing/billing-harness.ts";
import { startEdgeProcess } from "../../testing/deno-harness.ts";
import { BILLING_LOCK_MS } from "./billing-lock.ts";

const RACERS = 10;
const IN_PROGRESS =
  "Another change to your subscription is in progress. Wait for it to finish, then try again.";

/**
 * The edge as users run it (Deno, a libSQL file) behind the sandbox's Stripe, and one signed-up
 * user. Every request of a race is a real HTTP request to that process, all sent at once.
 */
async function startRace() {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const sandbox = await startSandbox({
    stripeWebhookUrl: `${origin}/api/webhooks/stripe`,
    stripeWebhookSecret: WEBHOOK_SECRET,
  });
  const edge = await startEdgeProcess({
    port,
    env: {
      STRIPE_SECRET_KEY: "sk_test_races",
      STRIPE_API_URL: sandbox.origin,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      APP_ORIGIN: origin,
    },
  });
  onTestFinished(async () => {
    await sandbox.sandbox.systems.stripe.idle();
    edge.stop();
    await sandbox.close();
  });

  const email = `racer-${crypto.randomUUID()}@example.com`;
  const { token } = await createApiClient({ baseUrl: `${origin}/api`, getToken: () => null }).call(
    "register",
    {
      body: { name: "Double Clicker", email, password: "Passw0rd" },
    },
  );
  const api = createApiClient({ baseUrl: `${origin}/api`, getToken: () => token });
  const url = new URL(sandbox.origin);
  /** Stripe's own view (the dashboard's): what the race left behind is counted here, not in our DB. */
  const stripe = new Stripe("sk_test_races_dashboard", {
    host: url.hostname,
    port: Number(url.port),
    protocol: "http",
    httpClient: Stripe.createFetchHttpClient(),
  });

  /** The same request `RACERS` times at once; answers each status and body. */
  async function race(path: string, bodies: unknown[]) {
    const answers = await Promise.all(
      bodies.map((body) =>
        fetch(`${origin}/api${path}`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        }).then(async (response) => ({ status: response.status, body: (await response.json()) as unknown })),
      ),
    );
    return {
      answers,
      succeeded: answers.filter((answer) => answer.status === 200),
      refused: answers.filter((answer) => answer.status === 409),
    };
  }

  async function customerId(): Promise<string> {
    const customers = await stripe.customers.list({ email });
    expect(customers.data).toHaveLength(1);
    return customers.data[0]?.id ?? "";
  }

  return {
    api,
    token,
    stripe,
    race,
    customerId,
    checkoutUrl: (priceId: string) => api.call("createCheckoutSession", { body: { priceId } }),
    async subscriptions() {
      return (await stripe.subscriptions.list({ customer: await customerId(), status: "all" })).data;
    },
    async invoices() {
      return (await stripe.invoices.list({ customer: await customerId() })).data;
    },
    async subscriptionEvents(type: string, subscriptionId: string) {
      const events = await stripe.events.list({ type, limit: 100 });
      return events.data.filter((event) => (event.data.object as { id?: string }).id === subscriptionId);
    },
    webhooksDelivered: () => sandbox.sandbox.systems.stripe.idle(),
  };
}

function repeat<T>(value: T): T[] {
  return Array.from({ length: RACERS }, () => value);
}

describe("billing writes racing for one user", () => {
  it("leaves one subscription and one invoice when ten creates race", async () => {
    const world = await startRace();

    const { succeeded, refused } = await world.race(
      "/subscriptions/create",
      repeat({ priceId: GROWTH, paymentMethodId: "pm_card_visa" }),
    );

    expect(succeeded).toHaveLength(1);
    expect(refused).toHaveLength(RACERS - 1);
    for (const answer of refused) expect(answer.body).toMatchObject({ code: "CONFLICT" });
    const subscriptions = await world.subscriptions();
    expect(subscriptions.map((subscription) => subscription.status)).toEqual(["active"]);
    const invoices = await world.invoices();
    expect(invoices.map((invoice) => [invoice.status, invoice.amount_paid])).toEqual([["paid", 7900]]);
    expect(await world.api.call("subscriptionStatus")).toMatchObject({
      hasAccess: true,
      subscription: { planId: GROWTH, status: "active" },
    });
  });

  it("opens one checkout session when ten starts race", async () => {
    const world = await startRace();

    const { succeeded, refused } = await world.race(
      "/subscriptions/create-checkout-session",
      repeat({ priceId: GROWTH }),
    );

    expect(succeeded).toHaveLength(1);
    expect(refused).toHaveLength(RACERS - 1);
    const open = await world.stripe.checkout.sessions.list({
      customer: await world.customerId(),
      status: "open",
    });
    expect(open.data).toHaveLength(1);
    expect(succeeded[0]?.body).toEqual({ data: { url: expect.stringContaining(open.data[0]?.id ?? "?") } });
  });

  it("applies one plan switch when ten switches race", async () => {
    const world = await startRace();
    await world.api.call("createSubscription", {
      body: { priceId: GROWTH, paymentMethodId: "pm_card_visa" },
    });
    const [subscription] = await world.subscriptions();
    await world.webhooksDelivered();

    const { succeeded, refused } = await world.race(
      "/subscriptions/update",
      Array.from({ length: RACERS }, (_, index) => ({ priceId: index % 2 === 0 ? SCALE : STARTER })),
    );

    expect(succeeded).toHaveLength(1);
    expect(refused).toHaveLength(RACERS - 1);
    for (const answer of refused) expect(answer.body).toMatchObject({ message: IN_PROGRESS });
    const updates = await world.subscriptionEvents("customer.subscription.updated", subscription?.id ?? "");
    expect(updates).toHaveLength(1);
    const inStripe = await world.stripe.subscriptions.retrieve(subscription?.id ?? "");
    const planId = inStripe.items.data[0]?.price.id;
    expect(succeeded[0]?.body).toMatchObject({ data: { planId } });
    expect((await world.api.call("subscriptionStatus")).subscription).toMatchObject({ planId });
    expect(await world.subscriptions()).toHaveLength(1);
  });

  it("resumes once when ten resumes race", async () => {
    const world = await startRace();
    await world.api.call("createSubscription", {
      body: { priceId: GROWTH, paymentMethodId: "pm_card_visa" },
    });
    await world.api.call("cancelSubscription", { body: { cancelAtPeriodEnd: true } });
    const [subscription] = await world.subscriptions();
    await world.webhooksDelivered();
    const updatesBefore = await world.subscriptionEvents(
      "customer.subscription.updated",
      subscription?.id ?? "",
    );

    const { succeeded, refused } = await world.race("/subscriptions/resume", repeat(undefined));

    expect(succeeded).toHaveLength(1);
    expect(succeeded[0]?.body).toMatchObject({ data: { cancelAtPeriodEnd: false, status: "active" } });
    expect(refused).toHaveLength(RACERS - 1);
    for (const answer of refused) expect(answer.body).toMatchObject({ message: IN_PROGRESS });
    const updates = await world.subscriptionEvents("customer.subscription.updated", subscription?.id ?? "");
    expect(updates).toHaveLength(updatesBefore.length + 1);
    expect((await world.stripe.subscriptions.retrieve(subscription?.id ?? "")).cancel_at_period_end).toBe(
      false,
    );
  });
});

describe("a billing claim left by a process that stopped", () => {
  it("is taken over after its expiry, and the same Stripe writes replay instead of subscribing twice", async () => {
    const world = await startBillingWorld({ webhooks: false });
    const { token, email } = await world.user();
    // Every Stripe call takes a while, so the first create is still running when the second starts.
    await world.setStripe({ latencyMs: 150 });
    const create = () =>
      fetch(`${world.appOrigin}/api/subscriptions/create`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ priceId: GROWTH, paymentMethodId: "pm_card_visa" }),
      });

    const first = create();
    await claimed(world);
    world.clock.advance(BILLING_LOCK_MS);
    const second = create();
    const statuses = (await Promise.all([first, second])).map((response) => response.status);

    expect(statuses).toContain(200);
    for (const status of statuses) expect([200, 409]).toContain(status);
    const [customer] = (await world.stripe.customers.list({ email })).data;
    const subscriptions = await world.stripe.subscriptions.list({ customer: customer?.id, status: "all" });
    expect(subscriptions.data).toHaveLength(1);
    expect((await world.stripe.invoices.list({ customer: customer?.id })).data).toHaveLength(1);
  });
});

/** Resolves once a billing operation holds the user's claim (the row is what the test waits on). */
async function claimed(world: { db: { execute(sql: string): Promise<{ rows: unknown[] }> } }) {
  for (;;) {
    const held = await world.db.execute("SELECT 1 FROM billing_locks WHERE holder IS NOT NULL");
    if (held.rows.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
