import { queryOptions } from "@tanstack/react-query";
import type { ApiClient } from "../../lib/api.ts";

/** Every sync run can change the drift: a run's end invalidates `driftKeys.all`. */
export const driftKeys = {
  all: ["drift"] as const,
  summary: () => [...driftKeys.all, "summary"] as const,
};

/**
 * GET /drift: the latest check's counts and its first 1,000 differing fields. Read again on every
 * visit (schedules and other tabs change it), showing the cached answer meanwhile.
 */
export function driftQuery(api: ApiClient) {
  return queryOptions({ queryKey: driftKeys.summary(), queryFn: () => api.call("drift"), staleTime: 0 });
}
