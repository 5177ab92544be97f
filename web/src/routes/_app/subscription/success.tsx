import { createFileRoute } from "@tanstack/react-router";
import * as v from "valibot";
import { SubscriptionSuccessScreen } from "../../../features/subscription/subscription-success-screen.tsx";

/** Stripe returns here with `?session_id={CHECKOUT_SESSION_ID}`; anything else in it is ignored. */
const SuccessSearchSchema = v.object({
  session_id: v.fallback(v.optional(v.pipe(v.string(), v.maxLength(200))), undefined),
});

export const Route = createFileRoute("/_app/subscription/success")({
  validateSearch: SuccessSearchSchema,
  component: SubscriptionSuccessRoute,
});

function SubscriptionSuccessRoute() {
  const { session_id: sessionId } = Route.useSearch();
  return <SubscriptionSuccessScreen sessionId={sessionId} />;
}
