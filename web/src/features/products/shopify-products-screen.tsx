import { MESSAGES, SHOPIFY_SORT_FIELDS } from "@stockbridge/shared";
import { SHOPIFY_PRODUCT_COLUMNS } from "./product-columns.ts";
import { ProductsScreen } from "./products-screen.tsx";
import { productKeys, shopifyProductsQuery } from "./queries.ts";

/** Shopify Products (spec section 2): the pulled catalog, server-paged, and 'Get Products'. */
export function ShopifyProductsScreen() {
  return (
    <ProductsScreen
      system="Shopify"
      sortFields={SHOPIFY_SORT_FIELDS}
      columns={SHOPIFY_PRODUCT_COLUMNS}
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
