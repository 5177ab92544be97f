import type { CheckoutSession, CreateSubscriptionInput, Plan, Subscription } from "@stockbridge/shared";
import { grantsAccess } from "@stockbridge/shared";
import {
  ConflictError,
  NotFoundError,
  UnauthorizedError,
  UpstreamError,
  ValidationError,
} from "../errors.ts";
import { createBillingLock, type KeyFor } from "./billing-lock.ts";
import { BillingNotConfiguredError } from "./errors.ts";
import { createPlanCatalog } from "./plans.ts";
import type { BillingRepo } from "./repo.ts";
import type { StripeGateway, SubscriptionView } from "./stripe-gateway.ts";
import { type AccessState, createSubscriptionStore, hasEnded, toSubscription } from "./subscription-store.ts";
import { createWebhookProcessor } from "./webhooks.ts";

/** Stripe Checkout Sessions expire after 24 hours: older ones cannot have started a subscription since. */
const CHECKOUT_LOOKUP_WINDOW_MS = 24 * 3_600_000;

export interface BillingServiceDeps {
  repo: BillingRepo;
  /** Null when no Stripe key is configured: billing answers 503 and the gate denies. */
  gateway: StripeGateway | null;
  appOrigin: string;
  now: () => Date;
  plansTtlMs?: number;
}

export function createBillingService(deps: BillingServiceDeps) {
  const { repo } = deps;
  const catalog = deps.gateway
    ? createPlanCatalog(deps.gateway, {
        now: deps.now,
        ttlMs: deps.plansTtlMs,
        onRead: (plans) =>
          repo.refreshPlanLimits(plans.map((plan) => ({ planId: plan.stripePriceId, limits: plan.limits }))),
      })
    : null;
  const subscriptions = createSubscriptionStore({ repo, gateway: deps.gateway, catalog, now: deps.now });
  const webhooks = createWebhookProcessor({ repo, gateway: deps.gateway, subscriptions, now: deps.now });
  const lock = createBillingLock({ repo, now: deps.now });

  function stripe(): StripeGateway {
    if (!deps.gateway) throw new BillingNotConfiguredError();
    return deps.gateway;
  }

  async function requirePlan(priceId: string): Promise<Plan> {
    const plan = await catalog?.find(priceId);
    if (!plan) {
      const message = "This plan does not exist. Choose one of the plans offered.";
      throw new ValidationError(message, [{ path: "priceId", message }]);
    }
    return plan;
  }

  async function ensureCustomer(userId: string): Promise<string> {
    const existing = await repo.findCustomerId(userId);
    if (existing) return existing;
    const contact = await repo.findContact(userId);
    if (!contact) throw new UnauthorizedError();
    const created = await stripe().createCustomer({ userId, ...contact });
    return repo.saveCustomer(userId, created, deps.now().toISOString());
  }

  /**
   * One paid subscription per user: a second would bill twice. Stripe is asked too (a webhook may be
   * late, or an earlier request may have created one and died before storing it): any subscription
   * still billing, even past due, blocks a new one.
   */
  async function refuseSecondSubscription(userId: string): Promise<void> {
    const message = "You already have an active subscription. Switch plans instead of subscribing again.";
    const stored = await subscriptions.read(userId);
    if (stored && subscriptions.grants(stored)) throw new ConflictError(message);
    const customerId = await repo.findCustomerId(userId);
    if (!customerId) return;
    const live = (await stripe().listSubscriptions(customerId)).find((subscription) =>
      stillBilling(subscription.status),
    );
    if (!live) return;
    await subscriptions.save(userId, live);
    throw new ConflictError(message);
  }

  /**
   * The customer's open checkout for this plan is handed out again; open ones for other plans are
   * closed, so at most one checkout of the user can be paid.
   */
  async function reuseOpenCheckout(
    userId: string,
    input: { customerId: string; priceId: string; keyFor: KeyFor },
  ): Promise<string | null> {
    let reusable: string | null = null;
    for (const session of await stripe().listOpenCheckoutSessions(input.customerId)) {
      const price = await repo.findCheckoutSessionPrice(session.id, userId);
      if (!reusable && price === input.priceId && session.url) {
        reusable = session.url;
        continue;
      }
      await stripe().expireCheckoutSession(session.id, {
        idempotencyKey: input.keyFor("expire", session.id),
      });
    }
    return reusable;
  }

  /** The user's subscription as Stripe has it now; 404 when there is none, 409 when it has ended. */
  async function currentSubscription(userId: string, action: string): Promise<SubscriptionView> {
    const gateway = stripe();
    const stored = await subscriptions.read(userId);
    let current = stored ? await gateway.findSubscription(stored.subscriptionId) : null;
    if (!current || hasEnded(current.status)) {
      // The webhook of a newer subscription may not have arrived yet.
      const customerId = stored?.customerId ?? (await repo.findCustomerId(userId));
      const live = customerId
        ? (await gateway.listSubscriptions(customerId)).find((candidate) => !hasEnded(candidate.status))
        : undefined;
      if (live) current = (await gateway.findSubscription(live.id)) ?? live;
    }
    if (!current) throw new NotFoundError(`You have no subscription to ${action}. Choose a plan first.`);
    await subscriptions.save(userId, current);
    if (hasEnded(current.status))
      throw new ConflictError(
        `Your subscription has ended, so there is nothing to ${action}. Choose a plan to subscribe again.`,
      );
    return current;
  }

  /** After a checkout, before (or without) its webhook: ask Stripe what the session started. */
  async function syncFromCheckout(userId: string, sessionId: string): Promise<void> {
    const gateway = stripe();
    const session = await gateway.findCheckoutSession(sessionId);
    if (!session?.subscriptionId) return;
    if (session.clientReferenceId !== null && session.clientReferenceId !== userId) return;
    const subscription = await gateway.findSubscription(session.subscriptionId);
    if (!subscription) return;
    if (session.customerId) await repo.saveCustomer(userId, session.customerId, deps.now().toISOString());
    await subscriptions.save(userId, subscription);
  }

  async function saved(userId: string, view: SubscriptionView): Promise<Subscription> {
    return subscriptions.save(userId, view);
  }

  return {
    async plans(): Promise<Plan[]> {
      stripe();
      return catalog ? catalog.list() : [];
    },

    async createCheckoutSession(userId: string, priceId: string): Promise<CheckoutSession> {
      const gateway = stripe();
      const plan = await requirePlan(priceId);
      return lock.run(userId, "checkout", async (keyFor) => {
        await refuseSecondSubscription(userId);
        const customerId = await ensureCustomer(userId);
        const open = await reuseOpenCheckout(userId, { customerId, priceId: plan.stripePriceId, keyFor });
        if (open) return { url: open };
        const session = await gateway.createCheckoutSession({
          customerId,
          priceId: plan.stripePriceId,
          userId,
          successUrl: `${deps.appOrigin}/subscription/success?session_id={CHECKOUT_SESSION_ID}`,
          cancelUrl: `${deps.appOrigin}/subscription/cancel`,
          idempotencyKey: keyFor("session", plan.stripePriceId),
        });
        if (!session.url)
          throw new UpstreamError(
            "Stripe",
            "Creating the checkout session failed: Stripe answered without a checkout URL",
          );
        await repo.saveCheckoutSession({
          id: session.id,
          userId,
          priceId: plan.stripePriceId,
          now: deps.now().toISOString(),
        });
        return { url: session.url };
      });
    },

    async status(
      userId: string,
      sessionId?: string,
    ): Promise<{ subscription: Subscription | null; hasAccess: boolean }> {
      stripe();
      let stored = await subscriptions.read(userId);
      if (sessionId) {
        // Only sessions this user started may be looked up (never reveal whether another's exists).
        if (!(await repo.hasCheckoutSession(sessionId, userId)))
          throw new NotFoundError("Checkout session not found");
        if (!stored || !subscriptions.grants(stored)) {
          await syncFromCheckout(userId, sessionId);
          stored = await subscriptions.read(userId);
        }
      } else if (!stored) {
        const since = new Date(deps.now().getTime() - CHECKOUT_LOOKUP_WINDOW_MS).toISOString();
        const latest = await repo.latestCheckoutSessionId(userId, since);
        if (latest) {
          await syncFromCheckout(userId, latest);
          stored = await subscriptions.read(userId);
        }
      }
      const hasAccess = await subscriptions.hasAccess(userId, stored);
      // hasAccess may have re-read a late renewal from Stripe and stored it.
      if (stored) stored = await subscriptions.read(userId);
      return { subscription: stored ? toSubscription(stored) : null, hasAccess };
    },

    async create(userId: string, input: CreateSubscriptionInput): Promise<Subscription> {
      const gateway = stripe();
      const plan = await requirePlan(input.priceId);
      return lock.run(userId, "create", async (keyFor) => {
        await refuseSecondSubscription(userId);
        const customerId = await ensureCustomer(userId);
        const paymentMethodId = await gateway.attachPaymentMethod(input.paymentMethodId, {
          customerId,
          idempotencyKey: keyFor("attach", input.paymentMethodId),
        });
        await gateway.setDefaultPaymentMethod(customerId, {
          paymentMethodId,
          idempotencyKey: keyFor("default-payment-method", paymentMethodId),
        });
        const subscription = await gateway.createSubscription({
          customerId,
          priceId: plan.stripePriceId,
          paymentMethodId,
          idempotencyKey: keyFor("subscription", plan.stripePriceId, paymentMethodId),
        });
        return saved(userId, subscription);
      });
    },

    /** At period end by default (access stays until then); `false` ends it now. */
    async cancel(userId: string, cancelAtPeriodEnd: boolean): Promise<Subscription> {
      const gateway = stripe();
      return lock.run(userId, "cancel", async (keyFor) => {
        const current = await currentSubscription(userId, "cancel");
        if (cancelAtPeriodEnd && current.cancelAtPeriodEnd) return saved(userId, current);
        const idempotencyKey = keyFor(cancelAtPeriodEnd ? "at-period-end" : "now", current.id);
        return saved(
          userId,
          cancelAtPeriodEnd
            ? await gateway.setCancelAtPeriodEnd(current.id, { value: true, idempotencyKey })
            : await gateway.cancelNow(current.id, { idempotencyKey }),
        );
      });
    },

    /** Switches the plan on the existing item; Stripe prorates the difference. */
    async update(userId: string, priceId: string): Promise<Subscription> {
      const gateway = stripe();
      const plan = await requirePlan(priceId);
      return lock.run(userId, "switch", async (keyFor) => {
        const current = await currentSubscription(userId, "switch");
        if (current.priceId === plan.stripePriceId) return saved(userId, current);
        if (!current.itemId)
          throw new UpstreamError(
            "Stripe",
            "Switching the plan failed: the subscription has no item to change",
          );
        const switched = await gateway.switchPrice(current.id, {
          itemId: current.itemId,
          priceId: plan.stripePriceId,
          idempotencyKey: keyFor("price", current.id, plan.stripePriceId),
        });
        return saved(userId, switched);
      });
    },

    async resume(userId: string): Promise<Subscription> {
      const gateway = stripe();
      return lock.run(userId, "resume", async (keyFor) => {
        const current = await currentSubscription(userId, "resume");
        if (!current.cancelAtPeriodEnd) return saved(userId, current);
        const resumed = await gateway.setCancelAtPeriodEnd(current.id, {
          value: false,
          idempotencyKey: keyFor("resume", current.id),
        });
        return saved(userId, resumed);
      });
    },

    /** The gate of "subscriber" routes. */
    hasAccess: (userId: string, known?: AccessState | null) => subscriptions.hasAccess(userId, known),

    handleWebhook: (payload: string, signature: string) => webhooks.handle(payload, signature),
  };
}

export type BillingService = ReturnType<typeof createBillingService>;

/** A subscription that still charges the customer (or will, once a payment is fixed). */
function stillBilling(status: string): boolean {
  return grantsAccess(status) || status === "past_due" || status === "unpaid" || status === "paused";
}
