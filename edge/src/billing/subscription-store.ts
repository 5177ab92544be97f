import { grantsAccess, NO_PLAN_LIMITS, type Plan, type Subscription } from "@stockbridge/shared";
import type { PlanCatalog } from "./plans.ts";
import type { BillingRepo, StoredSubscription } from "./repo.ts";
import type { StripeGateway, SubscriptionView } from "./stripe-gateway.ts";

/** What the access decision reads first: enough while a subscription's period is running. */
export type AccessState = Pick<StoredSubscription, "status" | "currentPeriodEnd">;

/** A renewal whose webhook is late is checked with Stripe at most this often per user. */
const REFRESH_AFTER_MS = 60_000;

export interface SaveOptions {
  /** `created` of the webhook event that reported this state (0 for API answers). */
  sourceEventCreated?: number;
}

/**
 * The stored subscription and the access decision made from it. Everything stored here came from
 * Stripe (an API answer, a fresh read, or a signed webhook), never from what a client said.
 */
export function createSubscriptionStore(deps: {
  repo: BillingRepo;
  gateway: StripeGateway | null;
  catalog: PlanCatalog | null;
  now: () => Date;
}) {
  const { repo } = deps;

  async function planOf(view: SubscriptionView): Promise<Plan | null> {
    if (!view.priceId || !deps.catalog) return null;
    try {
      return (await deps.catalog.find(view.priceId)) ?? null;
    } catch {
      // A catalogue read failing must not lose the subscription state: the name and limits stored
      // for the same plan are kept (saveSubscription), or stay unknown for a new one.
      return null;
    }
  }

  function periodRunning(currentPeriodEnd: string | null): boolean {
    return currentPeriodEnd === null || new Date(currentPeriodEnd).getTime() > deps.now().getTime();
  }

  function grants(stored: Pick<StoredSubscription, "status" | "currentPeriodEnd">): boolean {
    return grantsAccess(stored.status) && periodRunning(stored.currentPeriodEnd);
  }

  const store = {
    async save(userId: string, view: SubscriptionView, options: SaveOptions = {}): Promise<Subscription> {
      const plan = await planOf(view);
      const write = {
        subscriptionId: view.id,
        customerId: view.customerId,
        planId: view.priceId ?? "",
        planName: view.productName ?? plan?.name ?? null,
        planLimits: plan?.limits ?? null,
        status: view.status,
        currentPeriodEnd:
          view.currentPeriodEnd === null ? null : new Date(view.currentPeriodEnd * 1000).toISOString(),
        cancelAtPeriodEnd: view.cancelAtPeriodEnd,
        sourceEventCreated: options.sourceEventCreated ?? 0,
      };
      await repo.saveSubscription(userId, write, deps.now().toISOString());
      // The answer carries the limits enforced: those kept for the same plan when the catalogue failed.
      const stored = write.planLimits === null ? await repo.findSubscription(userId) : null;
      const kept = stored?.planId === write.planId ? stored.planLimits : null;
      return toSubscription({ ...write, planLimits: write.planLimits ?? kept });
    },

    read: (userId: string) => repo.findSubscription(userId),

    grants,

    /**
     * Active or trialing, and the period not over: a subscription set to cancel loses access at its
     * period end even before the deletion webhook. A renewing one whose period end has passed is
     * re-read from Stripe once (the renewal webhook may be late) before access is refused.
     */
    async hasAccess(userId: string, known?: StoredSubscription | AccessState | null): Promise<boolean> {
      if (!deps.gateway) return false;
      // The common case, on every gated request: a running subscription, known or read narrowly.
      const state = known === undefined ? await repo.findAccessState(userId) : known;
      if (!state || !grantsAccess(state.status)) return false;
      if (periodRunning(state.currentPeriodEnd)) return true;
      const stored = known && "subscriptionId" in known ? known : await repo.findSubscription(userId);
      if (!stored || !grantsAccess(stored.status)) return false;
      if (periodRunning(stored.currentPeriodEnd)) return true;
      if (stored.cancelAtPeriodEnd) return false;
      if (deps.now().getTime() - new Date(stored.updatedAt).getTime() < REFRESH_AFTER_MS) return false;
      try {
        const fresh = await deps.gateway.findSubscription(stored.subscriptionId);
        if (!fresh) return false;
        const saved = await store.save(userId, fresh);
        return grants(saved);
      } catch {
        return false;
      }
    },
  };
  return store;
}

export type SubscriptionStore = ReturnType<typeof createSubscriptionStore>;

export function toSubscription(
  stored: Omit<StoredSubscription, "updatedAt" | "sourceEventCreated">,
): Subscription {
  return {
    planId: stored.planId,
    planName: stored.planName,
    status: stored.status,
    currentPeriodEnd: stored.currentPeriodEnd,
    cancelAtPeriodEnd: stored.cancelAtPeriodEnd,
    limits: stored.planLimits ?? NO_PLAN_LIMITS,
  };
}

/** Statuses after which a subscription is over for good. */
export function hasEnded(status: string): boolean {
  return status === "canceled" || status === "incomplete_expired";
}
