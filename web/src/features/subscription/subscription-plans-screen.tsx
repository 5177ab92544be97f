import { MESSAGES, type Plan } from "@stockbridge/shared";
import { useQuery } from "@tanstack/react-query";
import { AlertTriangle, RefreshCw } from "lucide-react";
import { useEffect, useState } from "react";
import { errorMessage } from "../../lib/errors.ts";
import { useApi } from "../../lib/services-context.tsx";
import { Button } from "../../ui/button.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { useAuth } from "../auth/use-auth.ts";
import { PlanCard } from "./plan-card.tsx";
import { plansQuery, subscriptionStatusQuery } from "./queries.ts";
import { SubscriptionBanner } from "./subscription-banner.tsx";
import {
  formatBillingDate,
  formatPlanPrice,
  isLiveSubscription,
  planCardState,
  planNameOf,
} from "./subscription-view.ts";
import { useSubscriptionActions, useSyncUserSubscription } from "./use-subscription-actions.ts";

type Confirmation = { kind: "cancel" } | { kind: "switch"; plan: Plan } | null;

const GRID = "grid grid-cols-1 gap-6 md:grid-cols-2 xl:grid-cols-3";

/** 'Subscription Plans': the current subscription and a card per plan (spec section 2). */
export function SubscriptionPlansScreen() {
  const api = useApi();
  const { user } = useAuth();
  const plans = useQuery(plansQuery(api));
  const status = useQuery(subscriptionStatusQuery(api));
  const syncUser = useSyncUserSubscription();
  const actions = useSubscriptionActions();
  const [confirmation, setConfirmation] = useState<Confirmation>(null);

  // The server's answer wins over the session's copy (a webhook or another tab may have changed it).
  useEffect(() => {
    if (status.data) syncUser(status.data.subscription);
  }, [status.data, syncUser]);

  const subscription = user?.subscription ?? null;

  async function confirm(): Promise<void> {
    if (!confirmation) return;
    try {
      if (confirmation.kind === "cancel") await actions.cancel.mutateAsync();
      else await actions.switchPlan.mutateAsync(confirmation.plan.stripePriceId);
    } catch {
      return; // the mutation's own onError has shown the toast; the dialog stays for a retry
    }
    setConfirmation(null);
  }

  return (
    <>
      <PageHeader
        title="Subscription Plans"
        description="Pick the plan that fits your catalog. Payment runs on Stripe's secure checkout."
      />
      <SubscriptionBanner subscription={subscription} plans={plans.data} />

      {plans.isPending ? (
        <PlanSkeletons />
      ) : plans.isError && !plans.data ? (
        <PlansError
          message={errorMessage(plans.error, MESSAGES.subscription.fetchPlansFailed)}
          retrying={plans.isFetching}
          onRetry={() => void plans.refetch()}
        />
      ) : plans.data.length === 0 ? (
        <p className="rounded-lg bg-white p-6 text-sm text-gray-600 ring-1 ring-gray-200">
          No plans are offered at the moment. Please check back later.
        </p>
      ) : (
        <div className={GRID}>
          {plans.data.map((plan) => (
            <PlanCard
              key={plan.id}
              plan={plan}
              state={planCardState(plan, subscription)}
              busy={actions.busy}
              subscribing={actions.checkoutPriceId === plan.stripePriceId}
              switching={actions.switchPlan.isPending && actions.switchPlan.variables === plan.stripePriceId}
              canceling={actions.cancel.isPending}
              resuming={actions.resume.isPending}
              onSubscribe={() => actions.checkout.mutate(plan.stripePriceId)}
              onSwitch={() => setConfirmation({ kind: "switch", plan })}
              onCancel={() => setConfirmation({ kind: "cancel" })}
              onResume={() => actions.resume.mutate()}
            />
          ))}
        </div>
      )}

      <ConfirmDialog
        open={confirmation?.kind === "cancel"}
        onClose={() => setConfirmation(null)}
        onConfirm={confirm}
        title="Cancel your subscription?"
        message={
          isLiveSubscription(subscription) ? (
            <p>
              Your {planNameOf(subscription, plans.data)} plan stays active until{" "}
              <strong>{formatBillingDate(subscription.currentPeriodEnd)}</strong> and then ends. You can
              resume it any time before then.
            </p>
          ) : (
            <p>Your subscription ends at the end of the current billing period.</p>
          )
        }
        confirmLabel="Cancel Subscription"
        cancelLabel="Keep Subscription"
        tone="danger"
        loading={actions.cancel.isPending}
      />
      <ConfirmDialog
        open={confirmation?.kind === "switch"}
        onClose={() => setConfirmation(null)}
        onConfirm={confirm}
        title={confirmation?.kind === "switch" ? `Switch to ${confirmation.plan.name}?` : "Switch plan?"}
        message={
          confirmation?.kind === "switch" ? (
            <p>
              {subscription
                ? `Your plan changes from ${planNameOf(subscription, plans.data)} `
                : "Your plan changes "}
              to {confirmation.plan.name} ({formatPlanPrice(confirmation.plan)}) right away. The price
              difference is prorated on your next invoice.
            </p>
          ) : null
        }
        confirmLabel="Switch Plan"
        cancelLabel="Keep Current Plan"
        tone="primary"
        loading={actions.switchPlan.isPending}
      />
    </>
  );
}

function PlanSkeletons() {
  return (
    <div className={GRID} role="status" aria-live="polite">
      <span className="sr-only">Loading plans…</span>
      {[0, 1, 2].map((index) => (
        <div
          key={index}
          aria-hidden="true"
          className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-gray-200"
        >
          <div className="h-5 w-24 animate-pulse rounded bg-gray-200" />
          <div className="mt-4 h-8 w-32 animate-pulse rounded bg-gray-200" />
          <div className="mt-6 flex flex-col gap-3">
            <div className="h-4 w-5/6 animate-pulse rounded bg-gray-100" />
            <div className="h-4 w-4/6 animate-pulse rounded bg-gray-100" />
            <div className="h-4 w-3/4 animate-pulse rounded bg-gray-100" />
          </div>
          <div className="mt-8 h-10 w-full animate-pulse rounded-md bg-gray-200" />
        </div>
      ))}
    </div>
  );
}

function PlansError({ message, retrying, onRetry }: { message: string; retrying: boolean; onRetry(): void }) {
  return (
    <div role="alert" className="flex flex-col items-start gap-4 rounded-lg bg-white p-6 ring-1 ring-red-200">
      <div className="flex items-start gap-3">
        <AlertTriangle className="mt-0.5 size-5 shrink-0 text-red-600" aria-hidden="true" />
        <div className="text-sm">
          <p className="font-medium text-gray-900">The plans could not be loaded.</p>
          <p className="mt-1 text-gray-700">{message}</p>
        </div>
      </div>
      <Button
        variant="secondary"
        onClick={onRetry}
        loading={retrying}
        icon={<RefreshCw className="size-4" aria-hidden="true" />}
      >
        Try again
      </Button>
    </div>
  );
}
