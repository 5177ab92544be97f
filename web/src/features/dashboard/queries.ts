import { queryOptions } from "@tanstack/react-query";
import type { ApiClient } from "../../lib/api.ts";

/** Keys nest from general to specific. */
const dashboardKeys = {
  all: ["dashboard"] as const,
  zone: (timezone: string) => [...dashboardKeys.all, { timezone }] as const,
};

/** How often an open dashboard reads its figures again (runs end and schedules fire meanwhile). */
const REFRESH_MS = 60_000;

/** GET /dashboard, its days counted on the browser's calendar. Shown with its own error state. */
export function dashboardQuery(api: ApiClient, timezone: string) {
  return queryOptions({
    queryKey: dashboardKeys.zone(timezone),
    queryFn: () => api.call("dashboard", { query: { timezone } }),
    // Read again on every visit: runs and schedule changes elsewhere do not invalidate it.
    staleTime: 0,
    refetchInterval: REFRESH_MS,
    meta: { silent: true },
  });
}
