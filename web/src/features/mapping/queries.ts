import type { SyncOptions } from "@stockbridge/shared";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { ApiClient } from "../../lib/api.ts";
import { type ListParams, normalizeListParams, toQueryStrings } from "../../lib/list-query.ts";
import type { UnmappedRequest } from "./mapping-logic.ts";

/** Keys nest from general to specific; a mapping write invalidates `mappingKeys.all`. */
export const mappingKeys = {
  all: ["mapping"] as const,
  history: () => [...mappingKeys.all, "history"] as const,
  historyList: (params: ListParams<never>) =>
    [...mappingKeys.history(), normalizeListParams(params)] as const,
  unmapped: () => [...mappingKeys.all, "unmapped"] as const,
  unmappedWindow: (request: UnmappedRequest) => [...mappingKeys.unmapped(), request] as const,
  syncPreview: (mappingId: string, options: SyncOptions) =>
    [
      ...mappingKeys.all,
      "sync-preview",
      mappingId,
      { price: options.price, quantity: options.quantity },
    ] as const,
};

/** GET /mapping/history (server-paged, searchable). */
export function mappingHistoryQuery(api: ApiClient, params: ListParams<never>) {
  const normalized = normalizeListParams(params);
  const { page, limit, search } = toQueryStrings(normalized);
  return queryOptions({
    queryKey: mappingKeys.historyList(normalized),
    queryFn: () => api.call("mappingHistory", { query: { page, limit, ...(search ? { search } : {}) } }),
    placeholderData: keepPreviousData,
    // The mirror answers it: saved with the query cache, a page written a second after the last
    // change could show a row the mirror already knows was deleted (seen after a refused replay).
    meta: { persist: false },
  });
}

/** GET /mapping/unmapped: a window of each catalog's products that no mapping uses yet, with totals. */
export function unmappedQuery(api: ApiClient, request: UnmappedRequest) {
  return queryOptions({
    queryKey: mappingKeys.unmappedWindow(request),
    queryFn: () =>
      api.call("unmapped", {
        query: {
          limit: String(request.limit),
          shopifyOffset: String(request.shopifyOffset),
          acumaticaOffset: String(request.acumaticaOffset),
          sortDirection: request.sortDirection,
          ...(request.search ? { search: request.search } : {}),
        },
      }),
    placeholderData: keepPreviousData,
    // The mirror answers it: saved with the query cache, a page written a second after the last
    // change could show a row the mirror already knows was deleted (seen after a refused replay).
    meta: { persist: false },
  });
}

/**
 * POST /mapping/:id/sync with `dryRun`: what a sync would change right now. Live values of both
 * systems, so never cached or persisted, and the dialog reports its own errors.
 */
export function syncPreviewQuery(api: ApiClient, mappingId: string, options: SyncOptions) {
  return queryOptions({
    queryKey: mappingKeys.syncPreview(mappingId, options),
    queryFn: () =>
      api.call("syncMapping", {
        params: { id: mappingId },
        body: { syncOptions: { price: options.price, quantity: options.quantity }, dryRun: true },
      }),
    staleTime: 0,
    gcTime: 0,
    retry: false,
    meta: { persist: false, silent: true },
  });
}
