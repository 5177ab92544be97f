import { PageHeader } from "../../ui/page-header.tsx";

/** Shopify Products (spec section 2). The table and 'Get Products' are still to be built. */
export function ShopifyProductsScreen() {
  return <PageHeader title="Shopify Products" />;
}
