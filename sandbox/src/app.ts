import { Hono } from "hono";
import { createAcumaticaSimulator } from "./acumatica/index.ts";
import { createClock, type SandboxClock } from "./clock.ts";
import { createControlRoutes, type RemoteAddressOf } from "./control.ts";
import { createMailbox } from "./mail/mailbox.ts";
import { DEFAULT_SEED, DEFAULT_SIZE, generateCatalog } from "./seed/catalog.ts";
import { createShopifySimulator } from "./shopify/index.ts";
import { createStripeSimulator } from "./stripe/index.ts";

export interface SandboxOptions {
  seed?: number;
  size?: number;
  /** Public origin of the sandbox (used in Checkout URLs and staged upload URLs). */
  origin: string;
  /** Where Stripe webhooks go, e.g. http://127.0.0.1:8000/api/webhooks/stripe. */
  stripeWebhookUrl?: string;
  stripeWebhookSecret: string;
  /** The day the Shopify version fall-forward rule is computed against (default: the clock's now). */
  shopifyReleaseDate?: Date;
  clock?: SandboxClock;
  /** How the serving runtime reports the caller's address; the control API refuses non-loopback. */
  remoteAddressOf?: RemoteAddressOf;
}

/**
 * One Hono app that simulates Shopify (/shopify/{store}/admin/api/...), Acumatica (/acumatica/...)
 * and Stripe (/v1/..., /checkout/...), plus the loopback-only control API (/__control/...) and a
 * mailbox for the mail an SMTP catcher (mail/smtp-catcher.ts) accepts.
 */
export function createSandbox(options: SandboxOptions) {
  const clock = options.clock ?? createClock();
  const shopify = createShopifySimulator({
    clock,
    origin: options.origin,
    releaseDate: options.shopifyReleaseDate,
  });
  const acumatica = createAcumaticaSimulator({ clock });
  const stripe = createStripeSimulator({
    clock,
    origin: options.origin,
    webhookUrl: options.stripeWebhookUrl,
    webhookSecret: options.stripeWebhookSecret,
  });
  const systems = { shopify, acumatica, stripe };
  // Mail the app sends arrives here through the SMTP catcher the runtime entry starts.
  const mail = createMailbox(clock);

  function reset(seed = options.seed ?? DEFAULT_SEED, size = options.size ?? DEFAULT_SIZE) {
    const catalog = generateCatalog({ seed, size });
    for (const system of Object.values(systems)) system.reset(catalog);
    return catalog;
  }
  reset();

  const app = new Hono();
  app.route("/__control", createControlRoutes({ systems, clock, reset, mail }, options.remoteAddressOf));
  app.route("/shopify", shopify.routes);
  app.route("/acumatica", acumatica.routes);
  app.route("/", stripe.routes);
  app.notFound((c) => c.json({ error: `The sandbox has nothing at ${c.req.path}` }, 404));
  return { app, clock, systems, reset, mail };
}

export type Sandbox = ReturnType<typeof createSandbox>;
