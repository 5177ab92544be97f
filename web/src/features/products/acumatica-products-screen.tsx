import { ACUMATICA_SORT_FIELDS, MESSAGES } from "@stockbridge/shared";
import { acumaticaProductColumns } from "./product-columns.ts";
import { ProductsScreen } from "./products-screen.tsx";
import { acumaticaProductsQuery, productKeys } from "./queries.ts";

/** Acumatica Products (spec section 2): the pulled catalog, server-paged, and 'Get Products'. */
export function AcumaticaProductsScreen() {
  return (
    <ProductsScreen
      system="Acumatica"
      sortFields={ACUMATICA_SORT_FIELDS}
      columns={acumaticaProductColumns}
      list={acumaticaProductsQuery}
      connection={(user) => user?.acumaticaConnection ?? null}
      pull={{
        scope: "acumatica-pull",
        start: (api) => api.call("syncAcumaticaProducts"),
        listKey: productKeys.acumatica(),
        failureMessage: MESSAGES.products.syncAcumaticaFailed,
      }}
    />
  );
}
