import { createFileRoute } from "@tanstack/react-router";
import { SubscriptionSuccessScreen } from "../../../features/subscription/subscription-success-screen.tsx";

export const Route = createFileRoute("/_app/subscription/success")({
  component: SubscriptionSuccessScreen,
});
