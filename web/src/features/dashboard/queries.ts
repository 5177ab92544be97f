import { queryOptions } from "@tanstack/react-query";
import type { ApiClient } from "../../lib/api.ts";
import { browserTimeZone } from "../../lib/time-zone.ts";
import type { RouterContext } from "../../router-context.ts";
import { meQuery } from "../auth/queries.ts";

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
    // Read again on every visit (runs and schedule changes elsewhere do not invalidate it), but not
    // right after the start-up prefetch answered.
    staleTime: 5_000,
    refetchInterval: REFRESH_MS,
    meta: { silent: true },
  });
}

/**
 * The Dashboard's first screen: the user and GET /dashboard (its counts decide between checklist and
 * overview), and the chart's code. Gated: an unsubscribed user's 403 is silent and unused.
 */
export function prefetchDashboard({ api, queryClient }: RouterContext): void {
  void queryClient.prefetchQuery(meQuery(api));
  void queryClient.prefetchQuery(dashboardQuery(api, browserTimeZone()));
  void import("./runs-chart.tsx").catch(() => undefined);
}
