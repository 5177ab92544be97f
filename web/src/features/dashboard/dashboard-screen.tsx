import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { ArrowRight, CheckCircle2, Circle, Lock } from "lucide-react";
import { useEffect } from "react";
import { useApi } from "../../lib/services-context.tsx";
import { browserTimeZone } from "../../lib/time-zone.ts";
import { Card } from "../../ui/card.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { ProgressBar } from "../../ui/progress-bar.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { hasSubscriptionAccess } from "../auth/guards.ts";
import { meQuery } from "../auth/queries.ts";
import { useAuth } from "../auth/use-auth.ts";
import { GATED_HINT } from "../shell/nav-items.ts";
import { checklistProgress, computeChecklist } from "./checklist.ts";
import { DashboardOverview } from "./dashboard-overview.tsx";
import { dashboardQuery } from "./queries.ts";

/**
 * A getting-started checklist computed from the user and the list totals; once every step is
 * done, the store's sync state (DashboardOverview) in its place.
 */
export function DashboardScreen() {
  const api = useApi();
  const { user, store } = useAuth();
  const me = useQuery(meQuery(api));
  // Keep the session's user current: subscription and connections change on other screens and tabs.
  useEffect(() => {
    if (me.data) store.setUser(me.data.user);
  }, [me.data, store]);

  const subscribed = hasSubscriptionAccess(user);
  // One GET /dashboard holds the counts the checklist needs and the overview itself, so the first
  // screen is one request (started at start-up, queries.ts prefetchDashboard). Gated: only when
  // subscribed.
  const dashboard = useQuery({ ...dashboardQuery(api, browserTimeZone()), enabled: subscribed });
  const figures = dashboard.data;

  const items = computeChecklist(user, {
    shopifyProducts: figures?.catalog.shopifyVariants,
    acumaticaProducts: figures?.catalog.acumaticaItems,
    mappings: figures?.mappings.mapped,
  });
  const progress = checklistProgress(items);

  // Connected and subscribed, the counts still loading: neither screen yet, so the checklist does
  // not flash by on the way to the overview.
  const ready = subscribed && items.slice(0, 3).every((item) => item.done);
  const counting = ready && dashboard.isPending;
  if (counting)
    return (
      <>
        <PageHeader title="Dashboard" />
        <div role="status" aria-busy="true" className="flex justify-center py-16">
          <Spinner />
          <span className="sr-only">Loading the dashboard</span>
        </div>
      </>
    );

  // Counts that failed to load are no reason to show the checklist: the overview says what failed.
  if (progress.done === progress.total || (ready && dashboard.isError))
    return (
      <>
        <PageHeader
          title="Dashboard"
          description="Is your store in sync? The last runs and what comes next."
        />
        <DashboardOverview />
      </>
    );

  return (
    <>
      <PageHeader title="Dashboard" />
      <Card title="Getting started">
        <div className="mb-4 flex items-center gap-4">
          <ProgressBar
            label="Getting started progress"
            value={(progress.done / progress.total) * 100}
            className="h-2 max-w-sm"
          />
          <p className="text-sm whitespace-nowrap text-gray-600">
            {progress.done} of {progress.total} done
          </p>
        </div>
        <ol className="divide-y divide-gray-100">
          {items.map((item) => (
            <li key={item.id} className="flex items-start gap-4 py-4">
              {item.done ? (
                <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-green-600" aria-hidden="true" />
              ) : (
                <Circle className="mt-0.5 size-5 shrink-0 text-gray-300" aria-hidden="true" />
              )}
              <div className="min-w-0 flex-1">
                <p className="font-medium text-gray-900">
                  {item.title}
                  <span className="sr-only">{item.done ? " (done)" : " (not done)"}</span>
                </p>
                <p className="mt-0.5 text-sm text-gray-600">{item.description}</p>
                {item.locked ? (
                  <p className="mt-1 inline-flex items-center gap-1 text-xs text-gray-500">
                    <Lock className="size-3" aria-hidden="true" />
                    {GATED_HINT}
                  </p>
                ) : null}
              </div>
              {item.done ? null : (
                <Link
                  to={item.to}
                  className="inline-flex shrink-0 items-center gap-1 rounded-md text-sm font-medium text-accent-700 hover:underline"
                >
                  Open
                  <span className="sr-only"> {item.title}</span>
                  <ArrowRight className="size-4" aria-hidden="true" />
                </Link>
              )}
            </li>
          ))}
        </ol>
      </Card>
    </>
  );
}
