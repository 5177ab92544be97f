import { PageHeader } from "../../ui/page-header.tsx";

/** Subscription cancel (spec section 2): the 5-second redirect and button are still to be built. */
export function SubscriptionCancelScreen() {
  return <PageHeader title="Subscription Process Cancelled" />;
}
