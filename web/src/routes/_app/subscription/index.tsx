import { createFileRoute } from "@tanstack/react-router";
import { SubscriptionPlansScreen } from "../../../features/subscription/subscription-plans-screen.tsx";

export const Route = createFileRoute("/_app/subscription/")({
  component: SubscriptionPlansScreen,
});
