import { EXECUTION_HISTORY_PAGE_SIZE } from "@stockbridge/shared";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { ApiClient } from "../../lib/api.ts";

/** Keys nest from general to specific; every real sync run invalidates `historyKeys.all`. */
export const historyKeys = {
  all: ["execution-history"] as const,
  list: (page: number) => [...historyKeys.all, "list", { page, limit: EXECUTION_HISTORY_PAGE_SIZE }] as const,
  entry: (id: string) => [...historyKeys.all, "entry", id] as const,
  plan: (id: string, page: { status: string; page: number; limit: number }) =>
    [...historyKeys.all, "plan", id, page] as const,
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
    // The mirror answers it: saved with the query cache, a page written a second after the last
    // change could show a row the mirror already knows was deleted (seen after a refused replay).
    meta: { persist: false },
    refetchInterval: (query) =>
      query.state.data?.histories.some((entry) => entry.status === "running") ? RUNNING_REFRESH_MS : false,
  });
}

/** GET /execution-history/:id: one run with its failed and skipped mappings (the details dialog). */
export function executionHistoryEntryQuery(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: historyKeys.entry(id),
    queryFn: () => api.call("executionHistoryEntry", { params: { id } }),
    refetchInterval: (query) => (query.state.data?.status === "running" ? RUNNING_REFRESH_MS : false),
  });
}

/**
 * GET /execution-history/:id/plan: a page of a held run's plan. The run's status is part of the
 * key, so the plan is read again (with what was done to each change) once an approval ends.
 */
export function heldPlanQuery(
  api: ApiClient,
  id: string,
  page: { status: string; page: number; limit: number },
) {
  return queryOptions({
    queryKey: historyKeys.plan(id, page),
    queryFn: () =>
      api.call("executionPlan", {
        params: { id },
        query: { page: String(page.page), limit: String(page.limit) },
      }),
    placeholderData: keepPreviousData,
  });
}
