import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { stripeClient, stripePerTest } from "../../testing/stripe-harness.ts";

const given = stripePerTest();

const AUTH = { authorization: "Bearer sk_test_raw_http" };

describe("authentication", () => {
  it("refuses a key that is not a test secret key with Stripe's 401 body", async () => {
    const { origin } = await given();
    const live = stripeClient(origin, "sk_live_abcdefghijklmnop1234");

    const error = await live.products.list().catch((caught: unknown) => caught);
    const raw = await fetch(`${origin}/v1/products`);

    expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect(error).toMatchObject({
      statusCode: 401,
      message: expect.stringMatching(/^Invalid API Key provided: sk_live_\*+1234$/),
    });
    expect(raw.status).toBe(401);
    expect(await raw.json()).toEqual({
      error: {
        type: "invalid_request_error",
        message: expect.stringContaining("You did not provide an API key."),
      },
    });
  });
});

describe("request encoding", () => {
  it("reads bracket keys, expand[] and indexed lists from a form body", async () => {
    const { origin } = await given();

    const response = await fetch(`${origin}/v1/customers`, {
      method: "POST",
      headers: { ...AUTH, "content-type": "application/x-www-form-urlencoded" },
      body: "email=a%40example.com&metadata[userId]=u%5B1%5D&metadata%5Bplan%5D=growth&expand[]=invoice_settings.default_payment_method",
    });

    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      object: "customer",
      email: "a@example.com",
      metadata: { userId: "u[1]", plan: "growth" },
      invoice_settings: { default_payment_method: null },
    });
  });

  it("names the full bracket path of an unknown nested parameter", async () => {
    const { origin } = await given();

    const response = await fetch(`${origin}/v1/checkout/sessions`, {
      method: "POST",
      headers: { ...AUTH, "content-type": "application/x-www-form-urlencoded" },
      body: "mode=subscription&success_url=http%3A%2F%2Fx&line_items[0][price]=price_growth_monthly&line_items[0][quantity]=1&line_items[0][colour]=red",
    });

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { type: "invalid_request_error", code: "parameter_unknown", param: "line_items[0][colour]" },
    });
  });

  it("answers a property that cannot be expanded", async () => {
    const { stripe } = await given();

    const error = await stripe.prices
      .retrieve("price_growth_monthly", { expand: ["currency"] })
      .catch((caught: unknown) => caught);

    expect(error).toMatchObject({ statusCode: 400, message: "This property cannot be expanded (currency)." });
  });
});

describe("Idempotency-Key", () => {
  it("replays the first answer for a repeated key instead of creating twice", async () => {
    const { stripe, simulator } = await given();

    const first = await stripe.customers.create(
      { email: "once@example.com" },
      { idempotencyKey: "signup-1" },
    );
    const again = await stripe.customers.create(
      { email: "once@example.com" },
      { idempotencyKey: "signup-1" },
    );
    const reused = await stripe.customers
      .create({ email: "other@example.com" }, { idempotencyKey: "signup-1" })
      .catch((caught: unknown) => caught);

    expect(again.id).toBe(first.id);
    expect(simulator.state()).toMatchObject({ customers: 1 });
    expect(reused).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });
});

describe("Idempotency-Key, as strict as Stripe", () => {
  function createCustomer(origin: string, key: string, body = "email=twice%40example.com") {
    return fetch(`${origin}/v1/customers`, {
      method: "POST",
      headers: { ...AUTH, "content-type": "application/x-www-form-urlencoded", "idempotency-key": key },
      body,
    });
  }

  it("answers 409 idempotency_key_in_use to a request whose key is still in flight", async () => {
    const { origin, simulator } = await given();
    simulator.configure({ latencyMs: 200 });

    const answers = await Promise.all([
      createCustomer(origin, "double-click"),
      createCustomer(origin, "double-click"),
    ]);

    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const refused = answers.find((answer) => answer.status === 409);
    expect(await refused?.json()).toMatchObject({
      error: { type: "idempotency_error", code: "idempotency_key_in_use" },
    });
    expect(simulator.state()).toMatchObject({ customers: 1 });
    const replayed = await createCustomer(origin, "double-click");
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(simulator.state()).toMatchObject({ customers: 1 });
  });

  it("treats a key as new once it is 24 hours old", async () => {
    const { origin, simulator, advance } = await given();
    expect((await createCustomer(origin, "daily")).status).toBe(200);

    await advance(24 * 3600);

    const again = await createCustomer(origin, "daily");
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBeNull();
    expect(simulator.state()).toMatchObject({ customers: 2 });
  });

  it("keeps no answer for a request refused while its parameters were checked", async () => {
    const { origin, simulator } = await given();

    const invalid = await createCustomer(origin, "fix-and-retry", "email=a%40example.com&colour=red");
    const fixed = await createCustomer(origin, "fix-and-retry", "email=a%40example.com");

    expect(invalid.status).toBe(400);
    expect(fixed.status).toBe(200);
    expect(simulator.state()).toMatchObject({ customers: 1 });
  });
});

describe("unknown endpoints", () => {
  it("answers Stripe's Unrecognized request URL", async () => {
    const { origin } = await given();

    const response = await fetch(`${origin}/v1/plans_that_do_not_exist`, { headers: AUTH });

    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({
      error: {
        type: "invalid_request_error",
        message: expect.stringContaining("Unrecognized request URL (GET: /v1/plans_that_do_not_exist)"),
      },
    });
  });
});
