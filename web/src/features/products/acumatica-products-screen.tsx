import { PageHeader } from "../../ui/page-header.tsx";

/** Acumatica Products (spec section 2). The table and 'Get Products' are still to be built. */
export function AcumaticaProductsScreen() {
  return <PageHeader title="Acumatica Products" />;
}
