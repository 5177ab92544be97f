import { PageHeader } from "../../ui/page-header.tsx";

/** Product Mapping (spec section 2). Tabs, tables and dialogs are still to be built. */
export function MappingScreen() {
  return <PageHeader title="Product Mapping" />;
}
