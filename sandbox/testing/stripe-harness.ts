import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { createClock, type SandboxClock } from "../src/clock.ts";
import { startSandbox } from "../src/serve-node.ts";
import type { StripeSimulator } from "../src/stripe/index.ts";
import { cleanupAfterEach } from "./per-test.ts";

export const WEBHOOK_SECRET = "whsec_test_stripe_simulator";

export interface StripeHarness {
  origin: string;
  stripe: Stripe;
  simulator: StripeSimulator;
  clock: SandboxClock;
  /** Moves the sandbox clock through the control API (`POST /__control/clock`). */
  advance(seconds: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * The whole sandbox (startSandbox) over real HTTP on a free loopback port, with a small demo
 * catalog; `stripe` is the official SDK pointed at it, as the product's billing code will be.
 */
export async function startStripe(options: { webhookUrl?: string } = {}): Promise<StripeHarness> {
  const clock = createClock(new Date("2026-01-15T12:00:00Z"));
  const running = await startSandbox({
    size: 10,
    clock,
    stripeWebhookUrl: options.webhookUrl,
    stripeWebhookSecret: WEBHOOK_SECRET,
  });
  const { origin } = running;
  const simulator = running.sandbox.systems.stripe;
  const stripe = stripeClient(origin, "sk_test_sandbox_harness");
  return {
    origin,
    stripe,
    simulator,
    clock,
    async advance(seconds) {
      const response = await fetch(`${origin}/__control/clock`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ advanceSeconds: seconds }),
      });
      if (!response.ok) throw new Error(`Clock advance failed: ${response.status} ${await response.text()}`);
    },
    async close() {
      await simulator.idle();
      await running.close();
    },
  };
}

/** The official SDK with `apiKey`, pointed at the sandbox at `origin` (plain HTTP, no retries). */
export function stripeClient(origin: string, apiKey: string): Stripe {
  return new Stripe(apiKey, {
    host: "127.0.0.1",
    port: Number(new URL(origin).port),
    protocol: "http",
    maxNetworkRetries: 0,
  });
}

/** For a test file: answers `given()`, a sandbox closed after the test that started it. */
export function stripePerTest(): () => Promise<StripeHarness> {
  const onCleanup = cleanupAfterEach();
  return async () => {
    const harness = await startStripe();
    onCleanup(harness.close);
    return harness;
  };
}

/**
 * For a test file: answers `given()`, a sandbox and a verifying webhook receiver (see
 * startWebhookReceiver), both closed after the test that started them. The sandbox delivers to
 * the receiver unless `webhookUrl` points it elsewhere.
 */
export function stripeWithWebhooksPerTest(): (options?: {
  failFirst?: number;
  secret?: string;
  webhookUrl?: string;
}) => Promise<{ harness: StripeHarness; receiver: WebhookReceiver }> {
  const onCleanup = cleanupAfterEach();
  return async ({ webhookUrl, ...receiverOptions } = {}) => {
    const receiver = await startWebhookReceiver(receiverOptions);
    onCleanup(receiver.close);
    const harness = await startStripe({ webhookUrl: webhookUrl ?? receiver.url });
    onCleanup(harness.close);
    return { harness, receiver };
  };
}

export interface ReceivedWebhook {
  event: Stripe.Event;
  signature: string;
}

export interface WebhookReceiver {
  url: string;
  /** Verified events, in arrival order (duplicates included). */
  events: ReceivedWebhook[];
  /** Deliveries whose signature did not verify. */
  rejected: string[];
  /** Every POST seen, answered or not. */
  attempts: number;
  types(): string[];
  close(): Promise<void>;
}

/**
 * A small webhook endpoint that verifies each delivery the way the product will:
 * `constructEventAsync(rawBody, Stripe-Signature, secret, undefined, SubtleCryptoProvider)`.
 * `failFirst` answers that many deliveries with 500 before accepting.
 */
export async function startWebhookReceiver(
  options: { failFirst?: number; secret?: string } = {},
): Promise<WebhookReceiver> {
  const verifier = new Stripe("sk_test_unused");
  const provider = Stripe.createSubtleCryptoProvider();
  let failuresLeft = options.failFirst ?? 0;
  let attempts = 0;
  const events: ReceivedWebhook[] = [];
  const rejected: string[] = [];
  const server = createServer(async (request, response) => {
    attempts++;
    const body = await readBody(request);
    if (failuresLeft > 0) {
      failuresLeft--;
      response.writeHead(500).end("temporarily down");
      return;
    }
    const signature = String(request.headers["stripe-signature"] ?? "");
    try {
      const secret = options.secret ?? WEBHOOK_SECRET;
      const event = await verifier.webhooks.constructEventAsync(body, signature, secret, undefined, provider);
      events.push({ event, signature });
      response.writeHead(200, { "content-type": "application/json" }).end('{"received":true}');
    } catch (error) {
      rejected.push(error instanceof Error ? error.message : String(error));
      response.writeHead(400).end("bad signature");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks/stripe`,
    events,
    rejected,
    get attempts() {
      return attempts;
    },
    types: () => events.map((received) => received.event.type),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

/** Pays a Checkout Session the way a script would: POST /checkout/:id/pay with JSON. */
export async function payCheckout(
  origin: string,
  sessionId: string,
  body: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${origin}/checkout/${sessionId}/pay`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body),
  });
}

/** The events a paid subscription Checkout sends, in delivery order. */
export const CHECKOUT_EVENT_TYPES = [
  "customer.created",
  "payment_method.attached",
  "customer.subscription.created",
  "invoice.paid",
  "invoice.payment_succeeded",
  "checkout.session.completed",
];

/** A customer subscribed to `price` through Checkout, as the product's happy path leaves them. */
export async function subscribeThroughCheckout(harness: StripeHarness, price = "price_growth_monthly") {
  const customer = await harness.stripe.customers.create({
    email: "owner@example.com",
    metadata: { userId: "u_1" },
  });
  const session = await harness.stripe.checkout.sessions.create({
    mode: "subscription",
    customer: customer.id,
    line_items: [{ price, quantity: 1 }],
    success_url: "http://127.0.0.1:8000/subscription/success?session_id={CHECKOUT_SESSION_ID}",
    cancel_url: "http://127.0.0.1:8000/subscription/cancel",
  });
  const paid = await payCheckout(harness.origin, session.id);
  if (!paid.ok) throw new Error(`Checkout pay failed: ${paid.status} ${await paid.text()}`);
  const completed = await harness.stripe.checkout.sessions.retrieve(session.id);
  const subscription = await harness.stripe.subscriptions.retrieve(String(completed.subscription));
  return { customer, session: completed, subscription };
}
