import { MESSAGES, SHOPIFY_SORT_FIELDS } from "@stockbridge/shared";
import { useQuery } from "@tanstack/react-query";
import { useApi } from "../../lib/services-context.tsx";
import { DataTable } from "../../ui/data-table/data-table.tsx";
import { useAuth } from "../auth/use-auth.ts";
import { LastSynced, ProductCatalog } from "./product-catalog.tsx";
import { SHOPIFY_PRODUCT_COLUMNS } from "./product-columns.ts";
import { productKeys, shopifyProductsQuery } from "./queries.ts";
import { useProductPull } from "./use-product-pull.ts";
import { useClampPage, useServerTable } from "./use-server-table.ts";

/** Shopify Products (spec section 2): the pulled catalog, server-paged, and 'Get Products'. */
export function ShopifyProductsScreen() {
  const api = useApi();
  const { user } = useAuth();
  const table = useServerTable({
    sortFields: SHOPIFY_SORT_FIELDS,
    defaultSort: { id: "lastSynced", direction: "desc" },
  });
  const list = useQuery(shopifyProductsQuery(api, table.params));
  // The newest product of the default order (the dashboard asks the same page, so one request).
  const latest = useQuery(shopifyProductsQuery(api, { page: 1, limit: 1 }));
  useClampPage(table.page, list.data?.totalPages, table.setPage);
  const pull = useProductPull({
    scope: "shopify-pull",
    start: () => api.call("syncShopifyProducts"),
    listKey: productKeys.shopify(),
    failureMessage: MESSAGES.products.syncShopifyFailed,
  });

  return (
    <ProductCatalog
      title="Shopify Products"
      system="Shopify"
      connection={user?.shopifyConnection ?? null}
      pull={pull}
    >
      <DataTable
        label="Shopify products"
        columns={SHOPIFY_PRODUCT_COLUMNS}
        rows={list.data?.products ?? []}
        loading={list.isFetching}
        searchable
        showIndex
        top={<LastSynced at={latest.data ? (latest.data.products[0]?.lastSynced ?? null) : undefined} />}
        server={table.server(list.data?.total ?? 0)}
      />
    </ProductCatalog>
  );
}
