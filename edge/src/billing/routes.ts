import type { Hono } from "hono";
import type { Handlers } from "../http/contract-routes.ts";
import type { AppEnv } from "../http/types.ts";
import type { BillingService } from "./service.ts";

/** Thin adapters from the contract to the billing service; the caller is always the subject. */
export function billingHandlers(billing: BillingService): Handlers {
  return {
    plans: () => billing.plans(),
    subscriptionStatus: ({ caller, input }) =>
      billing.status(caller.userId, input.query.session_id || undefined),
    createCheckoutSession: ({ caller, input }) =>
      billing.createCheckoutSession(caller.userId, input.body.priceId),
    createSubscription: ({ caller, input }) => billing.create(caller.userId, input.body),
    cancelSubscription: ({ caller, input }) => billing.cancel(caller.userId, input.body.cancelAtPeriodEnd),
    updateSubscription: ({ caller, input }) => billing.update(caller.userId, input.body.priceId),
    resumeSubscription: ({ caller }) => billing.resume(caller.userId),
  };
}

export const STRIPE_WEBHOOK_PATH = "/api/webhooks/stripe";

/**
 * Stripe's webhook endpoint. Not part of the contract (Stripe, not our client, calls it): it reads
 * the raw body, because the signature covers the exact bytes Stripe sent.
 */
export function registerStripeWebhook(app: Hono<AppEnv>, billing: BillingService): void {
  app.post(STRIPE_WEBHOOK_PATH, async (c) => {
    const payload = await c.req.text();
    const result = await billing.handleWebhook(payload, c.req.header("Stripe-Signature") ?? "");
    return c.json({ received: true, duplicate: result.duplicate });
  });
}
