import { grantsAccess, MESSAGES, type Subscription } from "@stockbridge/shared";
import { useQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { AlertTriangle } from "lucide-react";
import { useEffect, useRef } from "react";
import { errorMessage, isUnauthorized } from "../../lib/errors.ts";
import { useServices } from "../../lib/services-context.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { toast } from "../../ui/toast.tsx";
import { checkoutVerificationQuery } from "./queries.ts";
import { StatusPanel } from "./status-panel.tsx";
import { useApplySubscription } from "./use-subscription-actions.ts";

/**
 * Where Stripe's checkout returns after paying: asks the server about the checkout session; active
 * or trialing goes on to the Dashboard, anything else back to the plans.
 */
export function SubscriptionSuccessScreen({ sessionId }: { sessionId?: string | undefined }) {
  const { api, auth } = useServices();
  const navigate = useNavigate();
  const apply = useApplySubscription();
  const verification = useQuery(checkoutVerificationQuery(api, sessionId));
  // The outcome is acted on once, even if the query settles again while navigating away.
  const handled = useRef(false);

  useEffect(() => {
    if (handled.current || verification.isPending) return;
    handled.current = true;
    const subscription: Subscription | null = verification.data?.subscription ?? null;
    if (verification.isSuccess && grantsAccess(subscription?.status)) {
      void (async () => {
        await apply(subscription);
        toast.success(MESSAGES.subscription.activated);
        // The server's full user (the subscription may have brought more than the status says).
        await auth.refreshUser().catch(() => undefined);
        await navigate({ to: "/dashboard", replace: true });
      })();
      return;
    }
    if (verification.isError && isUnauthorized(verification.error)) return; // on its way to /login
    const reason = verification.isError
      ? errorMessage(verification.error, MESSAGES.subscription.fetchStatusFailed)
      : undefined;
    toast.error(MESSAGES.subscription.verificationFailed, reason ? { description: reason } : {});
    void navigate({ to: "/subscription", replace: true });
  }, [verification, apply, auth, navigate]);

  const failed =
    verification.isError || (verification.isSuccess && !grantsAccess(verification.data.subscription?.status));
  if (failed) {
    return (
      <StatusPanel
        icon={<AlertTriangle className="size-10 text-red-600" aria-hidden="true" />}
        title={MESSAGES.subscription.verificationFailed}
      >
        <p>Taking you back to the subscription plans…</p>
      </StatusPanel>
    );
  }
  return (
    <StatusPanel
      icon={<Spinner size="lg" className="text-accent-600" />}
      title="Verifying your subscription..."
    >
      <p role="status">
        Confirming your payment with Stripe. You will be taken to your dashboard in a moment.
      </p>
    </StatusPanel>
  );
}
