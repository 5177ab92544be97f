import { grantsAccess, type Subscription } from "@stockbridge/shared";
import { formatDateTime } from "./format.ts";

/** "Starter (active, renews Dec 1, 2026 00:00)", or "none" — with a word when it grants no access. */
export function describeSubscription(subscription: Subscription | null): string {
  if (!subscription) return "none (subscriber features need a plan: subscribe in the web app)";
  const name = subscription.planName ?? subscription.planId;
  const end = subscription.currentPeriodEnd
    ? `, ${subscription.cancelAtPeriodEnd ? "ends" : "renews"} ${formatDateTime(subscription.currentPeriodEnd)}`
    : "";
  const access = grantsAccess(subscription.status) ? "" : " — no access";
  return `${name} (${subscription.status}${end})${access}`;
}

/** A connection's test state: verified, failed with its error, or never tested. */
export function describeTestState(connection: {
  isVerified: boolean;
  lastTestedAt: string | null;
  lastTestError: string | null;
}): string {
  if (connection.isVerified) return `verified (last tested ${formatDateTime(connection.lastTestedAt)})`;
  if (connection.lastTestError) {
    return `test failed ${formatDateTime(connection.lastTestedAt)}: ${connection.lastTestError}`;
  }
  return "not tested yet";
}
