import { MESSAGES, type Plan, type Subscription } from "@stockbridge/shared";
import { AlertTriangle, Info } from "lucide-react";
import { Chip } from "../../ui/chip.tsx";
import {
  formatBillingDate,
  formatStatus,
  isLiveSubscription,
  planNameOf,
  statusTone,
} from "./subscription-view.ts";

export interface SubscriptionBannerProps {
  subscription: Subscription | null;
  plans: readonly Plan[] | undefined;
}

/** The info banner of the plans screen: plan, status, next billing date and the cancelling note. */
export function SubscriptionBanner({ subscription, plans }: SubscriptionBannerProps) {
  return (
    <section
      aria-label="Current subscription"
      className="mb-8 rounded-lg bg-accent-50 px-5 py-4 ring-1 ring-accent-200 ring-inset"
    >
      <div className="flex items-start gap-3">
        <Info className="mt-0.5 size-5 shrink-0 text-accent-600" aria-hidden="true" />
        {subscription ? <Details subscription={subscription} plans={plans} /> : <NoSubscription />}
      </div>
    </section>
  );
}

function NoSubscription() {
  return (
    <div className="text-sm">
      <p className="font-medium text-gray-900">You have no subscription yet.</p>
      <p className="mt-1 text-gray-700">
        Choose a plan below. An active subscription unlocks products, mapping, mapping schedules and execution
        history.
      </p>
    </div>
  );
}

function Details({
  subscription,
  plans,
}: {
  subscription: Subscription;
  plans: readonly Plan[] | undefined;
}) {
  const live = isLiveSubscription(subscription);
  const cancelling = live && subscription.cancelAtPeriodEnd;
  return (
    <div className="min-w-0 flex-1 text-sm">
      <dl className="grid grid-cols-1 gap-x-8 gap-y-3 sm:grid-cols-3">
        <div>
          <dt className="text-gray-600">Current plan</dt>
          <dd className="mt-0.5 font-semibold text-gray-900">{planNameOf(subscription, plans)}</dd>
        </div>
        <div>
          <dt className="text-gray-600">Status</dt>
          <dd className="mt-0.5">
            <Chip tone={statusTone(subscription.status)}>{formatStatus(subscription.status)}</Chip>
          </dd>
        </div>
        {live ? (
          <div>
            <dt className="text-gray-600">{cancelling ? "Access until" : "Next billing date"}</dt>
            <dd className="mt-0.5 font-semibold text-gray-900">
              {formatBillingDate(subscription.currentPeriodEnd)}
            </dd>
          </div>
        ) : null}
      </dl>
      {cancelling ? (
        <p className="mt-4 flex items-start gap-2 font-medium text-amber-800">
          <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          {MESSAGES.subscription.endsAtPeriodEnd}
        </p>
      ) : null}
      {live ? null : (
        <p className="mt-4 text-gray-700">This subscription has ended. Choose a plan to subscribe again.</p>
      )}
    </div>
  );
}
