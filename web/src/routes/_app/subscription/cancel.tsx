import { createFileRoute } from "@tanstack/react-router";
import { SubscriptionCancelScreen } from "../../../features/subscription/subscription-cancel-screen.tsx";

export const Route = createFileRoute("/_app/subscription/cancel")({
  component: SubscriptionCancelScreen,
});
