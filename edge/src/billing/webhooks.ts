import { STRIPE_WEBHOOK_EVENTS } from "@stockbridge/shared";
import { record } from "../lib/json.ts";
import { BillingNotConfiguredError } from "./errors.ts";
import type { BillingRepo } from "./repo.ts";
import type { StripeGateway, WebhookEventView } from "./stripe-gateway.ts";
import { idOf } from "./stripe-objects.ts";
import type { SubscriptionStore } from "./subscription-store.ts";

/**
 * Stripe webhooks: verified on the raw body, each event id applied once. Events only say *which*
 * subscription changed; its state is re-read from Stripe, so replays and out-of-order deliveries
 * all end on Stripe's current state, and an event about a subscription Stripe does not have
 * changes nothing.
 */
export function createWebhookProcessor(deps: {
  repo: BillingRepo;
  gateway: StripeGateway | null;
  subscriptions: SubscriptionStore;
  now: () => Date;
}) {
  const { repo, subscriptions } = deps;

  async function userFor(event: WebhookEventView): Promise<string | null> {
    const object = event.object;
    const customerId = idOf(object.customer);
    if (event.type.startsWith("checkout.session.")) {
      const sessionId = typeof object.id === "string" ? object.id : null;
      const fromSession = sessionId ? await repo.findUserIdByCheckoutSession(sessionId) : null;
      if (fromSession) return fromSession;
      const reference = typeof object.client_reference_id === "string" ? object.client_reference_id : null;
      if (reference && (await repo.findContact(reference))) return reference;
    }
    if (customerId) {
      const fromCustomer = await repo.findUserIdByCustomer(customerId);
      if (fromCustomer) return fromCustomer;
    }
    // Subscriptions started by our checkout carry the user id in their metadata.
    const userId = record(object.metadata)?.userId;
    if (typeof userId === "string" && (await repo.findContact(userId))) return userId;
    return null;
  }

  async function apply(gateway: StripeGateway, event: WebhookEventView): Promise<void> {
    if (!(STRIPE_WEBHOOK_EVENTS as readonly string[]).includes(event.type)) return;
    const isCheckout = event.type.startsWith("checkout.session.");
    const subscriptionId = isCheckout ? idOf(event.object.subscription) : idOf(event.object.id);
    if (!subscriptionId) return;
    const userId = await userFor(event);
    if (!userId) return;
    // Only what Stripe answers now is stored: a subscription it does not know grants nothing,
    // whatever the event's own copy says.
    const fresh = await gateway.findSubscription(subscriptionId);
    if (!fresh) return;
    if (fresh.customerId) await repo.saveCustomer(userId, fresh.customerId, deps.now().toISOString());
    await subscriptions.save(userId, fresh, { sourceEventCreated: event.created });
  }

  return {
    /** Verifies and applies one delivery; `duplicate` when the event id was already processed. */
    async handle(payload: string, signature: string): Promise<{ duplicate: boolean }> {
      if (!deps.gateway) throw new BillingNotConfiguredError();
      const event = await deps.gateway.verifyWebhook(payload, signature);
      if (await repo.isEventProcessed(event.id)) return { duplicate: true };
      // Applied first, recorded after: a failure answers non-2xx and Stripe's retry applies it again.
      await apply(deps.gateway, event);
      await repo.markEventProcessed({
        id: event.id,
        type: event.type,
        created: event.created,
        now: deps.now().toISOString(),
      });
      return { duplicate: false };
    },
  };
}
