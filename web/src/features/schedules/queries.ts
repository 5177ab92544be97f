import { infiniteQueryOptions, keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { ApiClient } from "../../lib/api.ts";
import { type ListParams, normalizeListParams, toQueryStrings } from "../../lib/list-query.ts";
import { mappingKeys } from "../mapping/queries.ts";

/** Keys nest from general to specific; a schedule write invalidates `scheduleKeys.all`. */
export const scheduleKeys = {
  all: ["mapping-schedules"] as const,
  list: (params: ListParams<never>) => [...scheduleKeys.all, "list", normalizeListParams(params)] as const,
};

/**
 * The selector lists mappings, so it lives under the mapping area's keys: a mapping write
 * refreshes it too.
 */
const selectorKeys = {
  all: [...mappingKeys.all, "selector"] as const,
  search: (search: string) => [...selectorKeys.all, { search: search.trim() }] as const,
  byIds: (ids: readonly string[]) => [...mappingKeys.all, "by-ids", [...ids].sort()] as const,
};

/** GET /mapping-schedule. The screen shows its errors in the banner (no global toast). */
export function schedulesQuery(api: ApiClient, params: ListParams<never>) {
  const normalized = normalizeListParams(params);
  const { page, limit, search } = toQueryStrings(normalized);
  return queryOptions({
    queryKey: scheduleKeys.list(normalized),
    queryFn: () => api.call("listSchedules", { query: { page, limit, ...(search ? { search } : {}) } }),
    placeholderData: keepPreviousData,
    // The mirror answers it: saved with the query cache, a page written a second after the last
    // change could show a row the mirror already knows was deleted (seen after a refused replay).
    meta: { silent: true, persist: false },
  });
}

/** GET /mapping/selector, page by page: page 1 replaces the list, later pages append. */
export function mappingSelectorQuery(api: ApiClient, search: string) {
  const text = search.trim();
  return infiniteQueryOptions({
    queryKey: selectorKeys.search(text),
    queryFn: ({ pageParam }) =>
      api.call("mappingSelector", { query: { page: String(pageParam), ...(text ? { search: text } : {}) } }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.hasMore ? last.page + 1 : undefined),
    meta: { persist: false },
  });
}

/** POST /mapping/by-ids: the mappings an edited schedule already selects. */
export function mappingsByIdsQuery(api: ApiClient, ids: readonly string[]) {
  return queryOptions({
    queryKey: selectorKeys.byIds(ids),
    queryFn: () => api.call("mappingsByIds", { body: { mappingIds: [...ids] } }),
    enabled: ids.length > 0,
    meta: { persist: false },
  });
}
