import { PageHeader } from "../../ui/page-header.tsx";

/** Execution History (spec section 2). The table and details dialog are still to be built. */
export function ExecutionHistoryScreen() {
  return <PageHeader title="Execution History" />;
}
