import { PageHeader } from "../../ui/page-header.tsx";

/** Subscription Plans (spec section 2): banner and plan cards are still to be built. */
export function SubscriptionPlansScreen() {
  return <PageHeader title="Subscription Plans" />;
}
