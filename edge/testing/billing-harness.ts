import { type ServerType, serve } from "@hono/node-server";
import { createClock, startSandbox } from "@stockbridge/sandbox";
import Stripe from "stripe";
import { expect, onTestFinished } from "vitest";
import { createTestApp } from "./helpers.ts";

export const WEBHOOK_SECRET = "whsec_test_billing";
export const STARTER = "price_starter_monthly";
export const GROWTH = "price_growth_monthly";
export const SCALE = "price_scale_monthly";
/** Where the test app's clock starts (helpers.ts): the sandbox's clock starts there too. */
const START = new Date("2026-11-21T10:00:00Z");

/**
 * The app under test served over real HTTP (so the sandbox can deliver webhooks to it) and the
 * sandbox's Stripe simulator behind it. Both close when the test ends.
 */
export async function startBillingWorld(options: { webhooks?: boolean } = {}) {
  // The app's port comes first: the sandbox needs the webhook URL, the app needs the sandbox's URL.
  let fetchApp: (request: Request) => Response | Promise<Response> = () =>
    new Response("starting", { status: 503 });
  const { server, origin: appOrigin } = await listen((request) => fetchApp(request));
  const webhookUrl = `${appOrigin}/api/webhooks/stripe`;
  const running = await startSandbox({
    stripeWebhookUrl: options.webhooks === false ? undefined : webhookUrl,
    stripeWebhookSecret: WEBHOOK_SECRET,
    clock: createClock(START),
  });
  const test = await createTestApp({
    env: {
      STRIPE_SECRET_KEY: "sk_test_billing",
      STRIPE_API_URL: running.origin,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      APP_ORIGIN: "https://app.example.com",
    },
  });
  fetchApp = (request) => test.app.fetch(request);
  onTestFinished(async () => {
    await running.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const simulator = running.sandbox.systems.stripe;
  const url = new URL(running.origin);
  /** The official SDK pointed at the sandbox: the test's view of "Stripe" (and the dashboard's). */
  const stripe = new Stripe("sk_test_billing_test", {
    host: url.hostname,
    port: Number(url.port),
    protocol: "http",
    httpClient: Stripe.createFetchHttpClient(),
  });

  async function control(path: string, body: unknown) {
    const response = await fetch(`${running.origin}/__control${path}`, {
      method: path === "/faults" ? "PUT" : "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(response.ok, await response.clone().text()).toBe(true);
  }

  return {
    ...test,
    appOrigin,
    sandboxOrigin: running.origin,
    simulator,
    stripe,
    /** Resolves once every webhook the simulator queued has been answered by the app. */
    webhooksDelivered: () => simulator.idle(),
    setStripe: (settings: Record<string, unknown>) => control("/faults", { stripe: settings }),
    /** Moves the sandbox's clock; answers after the renewals/cancellations it caused were delivered. */
    advanceStripeClock: (seconds: number) => control("/clock", { advanceSeconds: seconds }),
    async stripeCalls(): Promise<number> {
      const state = (await (await fetch(`${running.origin}/__control/state`)).json()) as {
        stripe: { calls: number };
      };
      return state.stripe.calls;
    },
    /** Registers a user and answers their token and id. */
    async user() {
      const registered = await test.registerUser();
      return {
        token: registered.token,
        userId: registered.user._id,
        api: test.client(registered.token),
        email: registered.email,
        password: registered.password,
      };
    },
    /** A fresh token, e.g. after moving the app's clock past the session's lifetime. */
    async signIn(user: { email: string; password: string }) {
      const { token } = await test
        .client()
        .call("login", { body: { email: user.email, password: user.password } });
      return { token, api: test.client(token) };
    },
    /** Starts a checkout through the app and pays it on the hosted page, as the browser would. */
    async checkoutAndPay(token: string, priceId = GROWTH, card?: string) {
      const { url: checkoutUrl } = await test
        .client(token)
        .call("createCheckoutSession", { body: { priceId } });
      const paid = await fetch(`${checkoutUrl}/pay`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(card ? { card } : {}),
      });
      expect(paid.status, await paid.clone().text()).toBe(200);
      const answer = (await paid.json()) as { session: string; subscription: string; redirect: string };
      return {
        sessionId: answer.session,
        subscriptionId: answer.subscription,
        redirect: answer.redirect,
        checkoutUrl,
      };
    },
    /** POSTs a payload to the app's webhook endpoint over HTTP, signed now unless told otherwise. */
    async deliver(
      payload: string,
      options: { secret?: string; timestamp?: number; signature?: string } = {},
    ) {
      const signature =
        options.signature ??
        (await Stripe.webhooks.generateTestHeaderStringAsync({
          payload,
          secret: options.secret ?? WEBHOOK_SECRET,
          timestamp: options.timestamp ?? Math.floor(Date.now() / 1000),
          cryptoProvider: Stripe.createSubtleCryptoProvider(),
        }));
      return fetch(webhookUrl, {
        method: "POST",
        headers: { "content-type": "application/json", "stripe-signature": signature },
        body: payload,
      });
    },
  };
}

export type BillingWorld = Awaited<ReturnType<typeof startBillingWorld>>;

function listen(
  handler: (request: Request) => Response | Promise<Response>,
): Promise<{ server: ServerType; origin: string }> {
  return new Promise((resolve) => {
    const server = serve({ fetch: handler, hostname: "127.0.0.1", port: 0 }, (info) => {
      resolve({ server, origin: `http://127.0.0.1:${info.port}` });
    });
  });
}
