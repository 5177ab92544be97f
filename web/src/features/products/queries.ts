import type { ACUMATICA_SORT_FIELDS, SHOPIFY_SORT_FIELDS } from "@stockbridge/shared";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { ApiClient } from "../../lib/api.ts";
import { type ListParams, normalizeListParams, toQueryStrings } from "../../lib/list-query.ts";

export type ShopifySortField = (typeof SHOPIFY_SORT_FIELDS)[number];
export type AcumaticaSortField = (typeof ACUMATICA_SORT_FIELDS)[number];

/** Keys nest from general to specific: invalidating `productKeys.shopify()` refreshes every Shopify page. */
export const productKeys = {
  all: ["products"] as const,
  shopify: () => [...productKeys.all, "shopify"] as const,
  shopifyList: (params: ListParams<ShopifySortField>) =>
    [...productKeys.shopify(), "list", normalizeListParams(params)] as const,
  acumatica: () => [...productKeys.all, "acumatica"] as const,
  acumaticaList: (params: ListParams<AcumaticaSortField>) =>
    [...productKeys.acumatica(), "list", normalizeListParams(params)] as const,
};

/** GET /shopify/products (server-paged, searchable, sortable). */
export function shopifyProductsQuery(api: ApiClient, params: ListParams<ShopifySortField>) {
  const normalized = normalizeListParams(params);
  return queryOptions({
    queryKey: productKeys.shopifyList(normalized),
    queryFn: () => api.call("shopifyProducts", { query: toQueryStrings(normalized) }),
    placeholderData: keepPreviousData,
    // The mirror answers it: saved with the query cache, a page written a second after the last
    // change could show a row the mirror already knows was deleted (seen after a refused replay).
    meta: { persist: false },
  });
}

/** GET /acumatica/products (server-paged, searchable, sortable). */
export function acumaticaProductsQuery(api: ApiClient, params: ListParams<AcumaticaSortField>) {
  const normalized = normalizeListParams(params);
  return queryOptions({
    queryKey: productKeys.acumaticaList(normalized),
    queryFn: () => api.call("acumaticaProducts", { query: toQueryStrings(normalized) }),
    placeholderData: keepPreviousData,
    // The mirror answers it: saved with the query cache, a page written a second after the last
    // change could show a row the mirror already knows was deleted (seen after a refused replay).
    meta: { persist: false },
  });
}
