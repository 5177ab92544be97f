import { MESSAGES, SHOPIFY_SORT_FIELDS } from "@stockbridge/shared";
import { shopifyProductColumns } from "./product-columns.ts";
import { ProductsScreen } from "./products-screen.tsx";
import { productKeys, shopifyProductsQuery } from "./queries.ts";

/** Shopify Products (spec section 2): the pulled catalog, server-paged, and 'Get Products'. */
export function ShopifyProductsScreen() {
  return (
    <ProductsScreen
      system="Shopify"
      sortFields={SHOPIFY_SORT_FIELDS}
      columns={shopifyProductColumns}
      list={shopifyProductsQuery}
      connection={(user) => user?.shopifyConnection ?? null}
      pull={{
        scope: "shopify-pull",
        start: (api) => api.call("syncShopifyProducts"),
        listKey: productKeys.shopify(),
        failureMessage: MESSAGES.products.syncShopifyFailed,
      }}
    />
  );
}
