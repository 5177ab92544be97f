import { queryOptions } from "@tanstack/react-query";
import type { ApiClient } from "../../lib/api.ts";
import { isJobFinished, JOB_POLL_MS } from "./job-logic.ts";

/** Keys nest from general to specific. */
export const jobKeys = {
  all: ["jobs"] as const,
  detail: (id: string) => [...jobKeys.all, "detail", id] as const,
  /** The id of the job a screen started and follows (kept here so leaving the screen keeps it). */
  active: (scope: string) => [...jobKeys.all, "active", scope] as const,
};

/**
 * GET /jobs/:id, read again every 500 ms until the job finished. Never persisted (a job is live
 * state) and silent: the screen following it reports failures in its own words.
 */
export function jobQuery(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: jobKeys.detail(id),
    queryFn: () => api.call("job", { params: { id } }),
    staleTime: 0,
    refetchInterval: (query) => (isJobFinished(query.state.data) ? false : JOB_POLL_MS),
    refetchIntervalInBackground: true,
    meta: { persist: false, silent: true },
  });
}
