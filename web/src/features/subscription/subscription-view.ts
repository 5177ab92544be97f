import {
  ApiError,
  contract,
  grantsAccess,
  MESSAGES,
  type Plan,
  type Subscription,
} from "@stockbridge/shared";
import { errorMessage } from "../../lib/errors.ts";

/** Stripe statuses after which a subscription is over for good (the user may subscribe again). */
const ENDED_STATUSES: readonly string[] = ["canceled", "incomplete_expired"];

/** A subscription that still exists at Stripe: it can be cancelled, resumed or switched. */
export function isLiveSubscription(
  subscription: Subscription | null | undefined,
): subscription is Subscription {
  return Boolean(subscription) && !ENDED_STATUSES.includes(subscription?.status ?? "");
}

export type PlanPrimaryAction = "subscribe" | "switch" | "cancel";

export interface PlanCardState {
  /** This plan is the one the user pays for. */
  current: boolean;
  /** 'Subscribe' (no subscription), 'Switch to this plan' (another is current) or 'Cancel Subscription'. */
  action: PlanPrimaryAction;
  /** Set to end at the period end: 'Canceling...' (disabled) and 'Resume Subscription' show. */
  cancelling: boolean;
  canResume: boolean;
}

/** Which buttons a plan card shows (spec section 2, Subscription). */
export function planCardState(
  plan: Pick<Plan, "stripePriceId">,
  subscription: Subscription | null | undefined,
): PlanCardState {
  if (!isLiveSubscription(subscription)) {
    return { current: false, action: "subscribe", cancelling: false, canResume: false };
  }
  if (subscription.planId !== plan.stripePriceId) {
    return { current: false, action: "switch", cancelling: false, canResume: false };
  }
  const cancelling = subscription.cancelAtPeriodEnd;
  return { current: true, action: "cancel", cancelling, canResume: cancelling };
}

/** `$29/month`: whole dollars without cents, otherwise two decimals. */
export function formatPlanPrice(plan: Pick<Plan, "price" | "interval">): string {
  return `${formatAmount(plan.price)}/${plan.interval}`;
}

/** `$29`, `$29.50`, `$1,200`. */
export function formatAmount(price: number): string {
  const whole = Number.isInteger(price);
  return new Intl.NumberFormat("en-US", {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(price);
}

/** `past_due` -> `Past due`. */
export function formatStatus(status: string): string {
  const words = status.replaceAll("_", " ").trim();
  return words ? words[0]?.toUpperCase() + words.slice(1) : "Unknown";
}

export type StatusTone = "success" | "warning" | "error" | "neutral";

export function statusTone(status: string): StatusTone {
  if (grantsAccess(status)) return "success";
  if (status === "past_due" || status === "unpaid" || status === "incomplete" || status === "paused") {
    return "warning";
  }
  return ENDED_STATUSES.includes(status) ? "error" : "neutral";
}

/** `2025-07-01T00:00:00Z` -> `July 1, 2025`; '-' when unknown. */
export function formatBillingDate(iso: string | null | undefined): string {
  if (!iso) return "-";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "-";
  return new Intl.DateTimeFormat("en-US", { dateStyle: "long" }).format(date);
}

/** The plan's display name: the one stored with the subscription, else the catalogue's. */
export function planNameOf(subscription: Subscription, plans: readonly Plan[] | undefined): string {
  return (
    subscription.planName ??
    plans?.find((plan) => plan.stripePriceId === subscription.planId)?.name ??
    "Unknown plan"
  );
}

/**
 * The toast for a checkout that could not start: the server's own message when it gave one (e.g.
 * "You already have an active subscription..."), else the screen's 'Failed to start subscription
 * process' (the client fills in the endpoint default when the server says nothing).
 */
export function checkoutStartError(error: unknown): string {
  const fallback = MESSAGES.subscription.startFailed;
  if (error instanceof ApiError && error.message === contract.createCheckoutSession.defaultError) {
    return fallback;
  }
  return errorMessage(error, fallback);
}

export function sameSubscription(
  a: Subscription | null | undefined,
  b: Subscription | null | undefined,
): boolean {
  if (!a || !b) return !a && !b;
  return (
    a.planId === b.planId &&
    a.planName === b.planName &&
    a.status === b.status &&
    a.currentPeriodEnd === b.currentPeriodEnd &&
    a.cancelAtPeriodEnd === b.cancelAtPeriodEnd
  );
}

/** Whole seconds left until `deadline` (the cancel page's countdown), never below zero. */
export function secondsLeft(deadline: number, now: number): number {
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}
