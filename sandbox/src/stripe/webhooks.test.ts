import { describe, expect, it } from "vitest";
import {
  CHECKOUT_EVENT_TYPES,
  stripeWithWebhooksPerTest,
  subscribeThroughCheckout,
} from "../../testing/stripe-harness.ts";
import { ControlInputError } from "../simulator.ts";

const given = stripeWithWebhooksPerTest();

describe("webhook delivery", () => {
  it("retries after the endpoint answers 500 and still delivers every event in order", async () => {
    const { harness, receiver } = await given({ failFirst: 2 });

    await subscribeThroughCheckout(harness);
    await harness.simulator.idle();

    expect(receiver.attempts).toBe(receiver.events.length + 2);
    expect(receiver.types()).toEqual(CHECKOUT_EVENT_TYPES);
    expect(harness.simulator.state()).toMatchObject({
      webhooksDelivered: 6,
      webhooksFailed: 2,
      pendingWebhooks: 0,
    });
  });

  it("retries when the endpoint is unreachable, then delivers once it is configured to a live one", async () => {
    const { harness, receiver } = await given({ webhookUrl: "http://127.0.0.1:9/unreachable" });

    await harness.stripe.customers.create({ email: "late@example.com" });
    harness.simulator.configure({ webhookUrl: receiver.url });
    await harness.simulator.idle();

    expect(receiver.types()).toEqual(["customer.created"]);
    expect(harness.simulator.state()).toMatchObject({ webhooksDelivered: 1, webhooksFailed: 1 });
  });

  it("sends the same event again when failWebhooks drops the endpoint's answer", async () => {
    const { harness, receiver } = await given();
    harness.simulator.configure({ failWebhooks: 1 });

    await harness.stripe.customers.create({ email: "twice@example.com" });
    await harness.simulator.idle();

    expect(receiver.types()).toEqual(["customer.created", "customer.created"]);
    expect(receiver.events[0]!.event.id).toBe(receiver.events[1]!.event.id);
    expect(receiver.events[0]!.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  });

  it("signs with the configured secret, which a receiver with another secret rejects", async () => {
    const { harness, receiver } = await given({ secret: "whsec_someone_else" });
    harness.simulator.configure({ failWebhooks: 0 });

    await harness.stripe.customers.create({});
    await harness.simulator.idle();

    expect(receiver.events).toEqual([]);
    expect(receiver.rejected[0]).toContain("No signatures found matching the expected signature");
  });
});

describe("GET /v1/events", () => {
  it("lists events newest first and filters by type", async () => {
    const { harness } = await given();
    await subscribeThroughCheckout(harness);

    const all = await harness.stripe.events.list();
    const invoices = await harness.stripe.events.list({ type: "invoice.*" });

    expect(all.data[0]!.type).toBe("checkout.session.completed");
    expect(invoices.data.map((event) => event.type)).toEqual(["invoice.payment_succeeded", "invoice.paid"]);
  });
});

describe("configure", () => {
  it("names the field of a bad value and changes nothing", async () => {
    const { harness } = await given();

    expect(() => harness.simulator.configure({ latencyMs: 5, errorRate: 2 })).toThrow(ControlInputError);
    expect(() => harness.simulator.configure({ errorRate: 2 })).toThrow(
      "stripe.errorRate must be a number from 0 to 1.",
    );
    expect(() => harness.simulator.configure({ webhookUrl: "ftp://x" })).toThrow("stripe.webhookUrl");
    expect(() => harness.simulator.configure({ surprise: true })).toThrow(
      'Unknown stripe setting "surprise"',
    );
  });

  it("is reachable through PUT /__control/faults, which answers 400 naming the field", async () => {
    const { harness } = await given();

    const response = await fetch(`${harness.origin}/__control/faults`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ stripe: { latencyMs: -1 } }),
    });

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: "stripe.latencyMs must be a whole number from 0 to 600000.",
    });
  });

  it("answers transient 500 api_error at errorRate 1, which the SDK surfaces as StripeAPIError", async () => {
    const { harness } = await given();
    harness.simulator.configure({ errorRate: 1 });

    const error = await harness.stripe.products.list().catch((caught: unknown) => caught);

    expect(error).toMatchObject({ statusCode: 500, type: "StripeAPIError" });
  });
});
