import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { ApiClient } from "../../lib/api.ts";
import { type ListParams, normalizeListParams, toQueryStrings } from "../../lib/list-query.ts";

/** Keys nest from general to specific; a mapping write invalidates `mappingKeys.all`. */
export const mappingKeys = {
  all: ["mapping"] as const,
  history: () => [...mappingKeys.all, "history"] as const,
  historyList: (params: ListParams<never>) =>
    [...mappingKeys.history(), normalizeListParams(params)] as const,
};

/** GET /mapping/history (server-paged, searchable). */
export function mappingHistoryQuery(api: ApiClient, params: ListParams<never>) {
  const normalized = normalizeListParams(params);
  const { page, limit, search } = toQueryStrings(normalized);
  return queryOptions({
    queryKey: mappingKeys.historyList(normalized),
    queryFn: () => api.call("mappingHistory", { query: { page, limit, ...(search ? { search } : {}) } }),
    placeholderData: keepPreviousData,
  });
}
