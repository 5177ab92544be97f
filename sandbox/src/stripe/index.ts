import { Hono } from "hono";
import type { SandboxClock } from "../clock.ts";
import type { DemoCatalog } from "../seed/catalog.ts";
import type { Simulator } from "../simulator.ts";
import { registerCheckoutPage } from "./checkout-page.ts";
import type { StripeContext } from "./context.ts";
import type { StripeErrorBody } from "./errors.ts";
import { recordEvent } from "./events.ts";
import { apiMiddleware, createIdempotencyStore, stripeErrorHandler } from "./http.ts";
import { seedPlans } from "./plans.ts";
import { createStore } from "./records.ts";
import { renderEvent } from "./render.ts";
import { catchUpWithClock } from "./renewals.ts";
import { registerCatalogRoutes } from "./routes-catalog.ts";
import { registerCheckoutRoutes } from "./routes-checkout.ts";
import { registerCustomerRoutes } from "./routes-customers.ts";
import { registerSubscriptionRoutes } from "./routes-subscriptions.ts";
import { parseSettings, type StripeSettings } from "./settings.ts";
import { createWebhookDispatcher } from "./webhooks.ts";

export { planPriceId, SANDBOX_PLANS } from "./plans.ts";
export { RETRY_DELAYS_MS } from "./webhooks.ts";

export interface StripeSimulatorOptions {
  clock: SandboxClock;
  /** Unused for URLs: Checkout urls take the origin of the request that created the session. */
  origin: string;
  webhookUrl?: string;
  webhookSecret: string;
}

export type StripeSimulator = Simulator & {
  /** Renews or ends subscriptions whose period the clock has passed; resolves once their webhooks went out (at most ~5 s). */
  onClockChanged(): Promise<void>;
  /** Resolves when no webhook delivery is queued or in flight. */
  idle(): Promise<void>;
};

/** How long a clock change waits for the webhooks it caused before answering anyway. */
const CLOCK_WEBHOOK_WAIT_MS = 5_000;

const QUIET: Pick<StripeSettings, "errorRate" | "timeoutRate" | "timeoutMs" | "latencyMs"> = {
  errorRate: 0,
  timeoutRate: 0,
  timeoutMs: 30_000,
  latencyMs: 0,
};

/**
 * Stripe's v1 HTTP API as the official SDK speaks it (form-encoded bodies, Bearer sk_test_ keys,
 * expand, cursor lists, Stripe's error bodies), a hosted Checkout page at /checkout/:id, and
 * signed webhooks delivered in order with retries. Seeded with the Starter / Growth / Scale plans.
 */
export function createStripeSimulator(options: StripeSimulatorOptions): StripeSimulator {
  const settings: StripeSettings = {
    ...QUIET,
    webhookUrl: options.webhookUrl ?? null,
    webhookSecret: options.webhookSecret,
  };
  const idempotency = createIdempotencyStore();
  let calls = 0;
  const dispatcher = createWebhookDispatcher(() => ({
    url: settings.webhookUrl ?? undefined,
    secret: settings.webhookSecret,
  }));
  const ctx: StripeContext = {
    store: createStore(),
    now: () => Math.floor(options.clock.now().getTime() / 1000),
    emit(type, object, previous) {
      const event = recordEvent(ctx.store, {
        type,
        created: ctx.now(),
        object,
        previousAttributes: previous,
      });
      // Stripe sends events pretty-printed; receivers must verify the exact bytes, so keep them.
      if (settings.webhookUrl) dispatcher.enqueue(JSON.stringify(renderEvent(event), null, 2));
    },
  };
  seedPlans(ctx.store, ctx.now());

  const routes = new Hono();
  routes.onError(stripeErrorHandler);
  routes.use(
    "/v1/*",
    apiMiddleware({
      faults: () => settings,
      countCall: () => calls++,
      idempotency,
      now: () => ctx.now(),
    }),
  );
  registerCatalogRoutes(routes, ctx);
  registerCustomerRoutes(routes, ctx);
  registerCheckoutRoutes(routes, ctx);
  registerSubscriptionRoutes(routes, ctx);
  routes.all("/v1/*", (c) => {
    const error: StripeErrorBody = {
      type: "invalid_request_error",
      message: `Unrecognized request URL (${c.req.method}: ${c.req.path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
    };
    return c.json({ error }, 404);
  });
  registerCheckoutPage(routes, ctx);

  return {
    routes,
    reset(_catalog: DemoCatalog) {
      // The plans do not depend on the demo catalog; faults go back to none, the webhook target stays.
      ctx.store = createStore();
      seedPlans(ctx.store, ctx.now());
      Object.assign(settings, QUIET);
      dispatcher.reset();
      idempotency.answers.clear();
      calls = 0;
    },
    configure(input) {
      const { failWebhooks, ...patch } = parseSettings(input);
      Object.assign(settings, patch);
      if (failWebhooks !== undefined) dispatcher.failNext(failWebhooks);
    },
    state() {
      const webhooks = dispatcher.stats();
      return {
        calls,
        customers: ctx.store.customers.size,
        subscriptions: ctx.store.subscriptions.size,
        events: ctx.store.events.size,
        webhooksDelivered: webhooks.delivered,
        webhooksFailed: webhooks.failed,
        pendingWebhooks: webhooks.pending,
      };
    },
    async onClockChanged() {
      catchUpWithClock(ctx);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, CLOCK_WEBHOOK_WAIT_MS);
      });
      await Promise.race([dispatcher.idle(), timeout]);
      clearTimeout(timer);
    },
    idle: () => dispatcher.idle(),
  };
}
