import { queryOptions } from "@tanstack/react-query";
import type { ApiClient } from "../../lib/api.ts";

/** Keys nest from general to specific; a subscription write refreshes `subscriptionKeys.status()`. */
export const subscriptionKeys = {
  all: ["subscription"] as const,
  plans: () => [...subscriptionKeys.all, "plans"] as const,
  status: () => [...subscriptionKeys.all, "status"] as const,
  current: () => [...subscriptionKeys.status(), "current"] as const,
  checkout: (sessionId: string | undefined) =>
    [...subscriptionKeys.status(), "checkout", sessionId ?? null] as const,
};

/**
 * GET /subscriptions/plans. Cached like every list (5 minutes, persisted), so the plan list is
 * requested only when the local copy is missing or old.
 */
export function plansQuery(api: ApiClient) {
  return queryOptions({
    queryKey: subscriptionKeys.plans(),
    queryFn: () => api.call("plans"),
  });
}

/**
 * GET /subscriptions/status: the server's word on the user's subscription. Asked on every visit
 * (webhooks and other tabs change it) and never written to IndexedDB.
 */
export function subscriptionStatusQuery(api: ApiClient) {
  return queryOptions({
    queryKey: subscriptionKeys.current(),
    queryFn: () => api.call("subscriptionStatus"),
    staleTime: 0,
    meta: { persist: false },
  });
}

/**
 * GET /subscriptions/status?session_id=... after the hosted checkout: the server asks Stripe what
 * the session started. The success screen reports a failure itself (no global toast).
 */
export function checkoutVerificationQuery(api: ApiClient, sessionId: string | undefined) {
  return queryOptions({
    queryKey: subscriptionKeys.checkout(sessionId),
    queryFn: () => api.call("subscriptionStatus", { query: sessionId ? { session_id: sessionId } : {} }),
    staleTime: 0,
    gcTime: 0,
    meta: { persist: false, silent: true },
  });
}
