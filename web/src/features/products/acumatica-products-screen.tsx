import { ACUMATICA_SORT_FIELDS, MESSAGES } from "@stockbridge/shared";
import { useQuery } from "@tanstack/react-query";
import { useApi } from "../../lib/services-context.tsx";
import { DataTable } from "../../ui/data-table/data-table.tsx";
import { useAuth } from "../auth/use-auth.ts";
import { LastSynced, ProductCatalog } from "./product-catalog.tsx";
import { ACUMATICA_PRODUCT_COLUMNS } from "./product-columns.ts";
import { acumaticaProductsQuery, productKeys } from "./queries.ts";
import { useProductPull } from "./use-product-pull.ts";
import { useClampPage, useServerTable } from "./use-server-table.ts";

/** Acumatica Products (spec section 2): the pulled catalog, server-paged, and 'Get Products'. */
export function AcumaticaProductsScreen() {
  const api = useApi();
  const { user } = useAuth();
  const table = useServerTable({
    sortFields: ACUMATICA_SORT_FIELDS,
    defaultSort: { id: "lastSynced", direction: "desc" },
  });
  const list = useQuery(acumaticaProductsQuery(api, table.params));
  // The newest product of the default order (the dashboard asks the same page, so one request).
  const latest = useQuery(acumaticaProductsQuery(api, { page: 1, limit: 1 }));
  useClampPage(table.page, list.data?.totalPages, table.setPage);
  const pull = useProductPull({
    scope: "acumatica-pull",
    start: () => api.call("syncAcumaticaProducts"),
    listKey: productKeys.acumatica(),
    failureMessage: MESSAGES.products.syncAcumaticaFailed,
  });

  return (
    <ProductCatalog
      title="Acumatica Products"
      system="Acumatica"
      connection={user?.acumaticaConnection ?? null}
      pull={pull}
    >
      <DataTable
        label="Acumatica products"
        columns={ACUMATICA_PRODUCT_COLUMNS}
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
