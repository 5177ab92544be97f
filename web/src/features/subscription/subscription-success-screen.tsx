import { PageHeader } from "../../ui/page-header.tsx";

/** Subscription success (spec section 2): the verification and redirect are still to be built. */
export function SubscriptionSuccessScreen() {
  return <PageHeader title="Verifying your subscription..." />;
}
