import { grantsAccess, MESSAGES, type Subscription, type User } from "@stockbridge/shared";
import { useMutation } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import { errorMessage, isUnauthorized } from "../../lib/errors.ts";
import { useServices } from "../../lib/services-context.tsx";
import { toast } from "../../ui/toast.tsx";
import { sessionKeys } from "../auth/queries.ts";
import { subscriptionKeys } from "./queries.ts";
import { checkoutStartError, sameSubscription } from "./subscription-view.ts";

/**
 * Puts a subscription into the session's user (the sidebar marking and the route guards read it
 * from there) and into the cached user, unless it is already there.
 */
export function useSyncUserSubscription(): (subscription: Subscription | null) => void {
  const { auth, queryClient } = useServices();
  return useCallback(
    (subscription: Subscription | null) => {
      const user = auth.getState().user;
      if (!user || sameSubscription(user.subscription, subscription)) return;
      const next: User = { ...user, subscription };
      auth.setUser(next);
      queryClient.setQueryData(sessionKeys.me(), (previous: { user: User } | undefined) =>
        previous ? { user: next } : undefined,
      );
    },
    [auth, queryClient],
  );
}

/**
 * After a change the server answered with the new subscription: the user takes it, and so does the
 * cached status, so no cached answer from before the change can put the old one back.
 */
export function useApplySubscription(): (subscription: Subscription | null) => Promise<void> {
  const { queryClient } = useServices();
  const syncUser = useSyncUserSubscription();
  return useCallback(
    async (subscription: Subscription | null) => {
      // A status read that started before the change must not land after it.
      await queryClient.cancelQueries({ queryKey: subscriptionKeys.status() });
      syncUser(subscription);
      queryClient.setQueryData(subscriptionKeys.current(), {
        subscription,
        hasAccess: grantsAccess(subscription?.status),
      });
      // The server's own answer follows in the background.
      void queryClient.invalidateQueries({ queryKey: subscriptionKeys.status() });
    },
    [queryClient, syncUser],
  );
}

function toastFailure(error: unknown, fallback: string): void {
  // A 401 ends the session and goes to /login; a toast would only add noise.
  if (isUnauthorized(error)) return;
  toast.error(errorMessage(error, fallback));
}

/** Subscribe (hosted checkout), switch, cancel at period end and resume, with the spec's toasts. */
export function useSubscriptionActions() {
  const { api } = useServices();
  const apply = useApplySubscription();
  // Set once the browser is on its way to the checkout page: the button keeps its spinner.
  const [redirectingTo, setRedirectingTo] = useState<string | null>(null);
  // Back from the checkout page, the browser may show this page from its cache: unfreeze it.
  useEffect(() => {
    function onPageShow(event: PageTransitionEvent): void {
      if (event.persisted) setRedirectingTo(null);
    }
    window.addEventListener("pageshow", onPageShow);
    return () => window.removeEventListener("pageshow", onPageShow);
  }, []);

  const checkout = useMutation({
    mutationFn: (priceId: string) => api.call("createCheckoutSession", { body: { priceId } }),
    onSuccess({ url }, priceId) {
      setRedirectingTo(priceId);
      window.location.assign(url);
    },
    onError(error) {
      if (!isUnauthorized(error)) toast.error(checkoutStartError(error));
    },
  });

  const cancel = useMutation({
    mutationFn: () => api.call("cancelSubscription", { body: { cancelAtPeriodEnd: true } }),
    async onSuccess(subscription) {
      await apply(subscription);
      toast.success(MESSAGES.subscription.willCancel);
    },
    onError: (error) => toastFailure(error, MESSAGES.subscription.cancelFailed),
  });

  const switchPlan = useMutation({
    mutationFn: (priceId: string) => api.call("updateSubscription", { body: { priceId } }),
    async onSuccess(subscription) {
      await apply(subscription);
      toast.success(MESSAGES.subscription.updated);
    },
    onError: (error) => toastFailure(error, MESSAGES.subscription.updateFailed),
  });

  const resume = useMutation({
    mutationFn: () => api.call("resumeSubscription"),
    async onSuccess(subscription) {
      await apply(subscription);
      toast.success(MESSAGES.subscription.resumed);
    },
    onError: (error) => toastFailure(error, MESSAGES.subscription.resumeFailed),
  });

  const checkoutPriceId = redirectingTo ?? (checkout.isPending ? (checkout.variables ?? null) : null);
  return {
    checkout,
    cancel,
    switchPlan,
    resume,
    /** The plan whose checkout is starting (or whose page is loading). */
    checkoutPriceId,
    /** Any change in flight: every plan button waits. */
    busy: checkoutPriceId !== null || cancel.isPending || switchPlan.isPending || resume.isPending,
  };
}
