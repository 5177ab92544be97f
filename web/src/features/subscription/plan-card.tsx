import type { Plan } from "@stockbridge/shared";
import { Check } from "lucide-react";
import { useId } from "react";
import { useOnlineStatus } from "../../lib/use-online-status.ts";
import { Button } from "../../ui/button.tsx";
import { Chip } from "../../ui/chip.tsx";
import { cn } from "../../ui/cn.ts";
import { formatAmount, type PlanCardState } from "./subscription-view.ts";

export interface PlanCardProps {
  plan: Plan;
  state: PlanCardState;
  /** Another change is running: this card's buttons wait. */
  busy: boolean;
  /** This card's own request is running (its button shows the spinner). */
  subscribing: boolean;
  switching: boolean;
  canceling: boolean;
  resuming: boolean;
  onSubscribe(): void;
  onSwitch(): void;
  onCancel(): void;
  onResume(): void;
}

/** One plan: name, `$price/interval`, features, and the buttons the subscription state allows. */
export function PlanCard(props: PlanCardProps) {
  const { plan, state } = props;
  const titleId = useId();
  return (
    <section
      aria-labelledby={titleId}
      className={cn(
        "flex flex-col rounded-lg bg-white p-6 shadow-sm ring-1",
        state.current ? "ring-2 ring-accent-600" : "ring-gray-200",
      )}
    >
      <div className="flex items-start justify-between gap-3">
        <h2 id={titleId} className="text-lg font-semibold text-gray-900">
          {plan.name}
        </h2>
        {state.current ? <Chip tone="primary">Current plan</Chip> : null}
      </div>
      <p className="mt-3 text-gray-900">
        <span className="text-3xl font-semibold tracking-tight">{formatAmount(plan.price)}</span>
        <span className="text-base text-gray-600">/{plan.interval}</span>
      </p>
      {plan.features.length > 0 ? (
        <ul className="mt-5 flex flex-1 flex-col gap-2 text-sm text-gray-700">
          {plan.features.map((feature) => (
            <li key={feature} className="flex items-start gap-2">
              <Check className="mt-0.5 size-4 shrink-0 text-accent-600" aria-hidden="true" />
              <span>{feature}</span>
            </li>
          ))}
        </ul>
      ) : (
        <div className="flex-1" />
      )}
      <div className="mt-6 flex flex-col gap-2">
        <PlanButtons {...props} />
      </div>
    </section>
  );
}

function PlanButtons({
  state,
  busy: working,
  subscribing,
  switching,
  canceling,
  resuming,
  onSubscribe,
  onSwitch,
  onCancel,
  onResume,
}: PlanCardProps) {
  // Billing needs the server: offline every plan button is disabled with why.
  const online = useOnlineStatus();
  const busy = working || !online;
  if (state.action === "subscribe") {
    return (
      <Button onClick={onSubscribe} loading={subscribing} disabled={busy}>
        Subscribe
      </Button>
    );
  }
  if (state.action === "switch") {
    return (
      <Button variant="secondary" onClick={onSwitch} loading={switching} disabled={busy}>
        Switch to this plan
      </Button>
    );
  }
  // The current plan: cancel, or (set to end at the period end) 'Canceling...' and resume.
  const cancelling = state.cancelling || canceling;
  return (
    <>
      {state.canResume ? (
        <Button onClick={onResume} loading={resuming} disabled={busy}>
          Resume Subscription
        </Button>
      ) : null}
      <Button
        variant="secondary"
        onClick={onCancel}
        loading={canceling}
        disabled={busy || cancelling}
        className="text-red-700"
      >
        {cancelling ? "Canceling..." : "Cancel Subscription"}
      </Button>
    </>
  );
}
