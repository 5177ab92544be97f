import { EXECUTION_HISTORY_PAGE_SIZE } from "@stockbridge/shared";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { ApiClient } from "../../lib/api.ts";

/** Keys nest from general to specific; every real sync run invalidates `historyKeys.all`. */
export const historyKeys = {
  all: ["execution-history"] as const,
  list: (page: number) => [...historyKeys.all, "list", { page, limit: EXECUTION_HISTORY_PAGE_SIZE }] as const,
  entry: (id: string) => [...historyKeys.all, "entry", id] as const,
};

/** How often the list refreshes while a run is still going. */
const RUNNING_REFRESH_MS = 2_000;

/** GET /execution-history: fixed page size 10, answered at the top level (histories, total...). */
export function executionHistoryQuery(api: ApiClient, page: number) {
  return queryOptions({
    queryKey: historyKeys.list(page),
    queryFn: () =>
      api.call("executionHistory", {
        query: { page: String(page), limit: String(EXECUTION_HISTORY_PAGE_SIZE) },
      }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.histories.some((entry) => entry.status === "running") ? RUNNING_REFRESH_MS : false,
  });
}

/** GET /execution-history/:id: one run, for a link straight to its details (the dashboard's last run). */
export function executionHistoryEntryQuery(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: historyKeys.entry(id),
    queryFn: () => api.call("executionHistoryEntry", { params: { id } }),
    refetchInterval: (query) => (query.state.data?.status === "running" ? RUNNING_REFRESH_MS : false),
  });
}
