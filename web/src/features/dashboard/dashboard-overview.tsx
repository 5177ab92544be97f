import { type Dashboard, MESSAGES } from "@stockbridge/shared";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { AlertTriangle, ArrowRight } from "lucide-react";
import { lazy, type ReactNode, Suspense } from "react";
import { errorMessage } from "../../lib/errors.ts";
import { useApi } from "../../lib/services-context.tsx";
import { browserTimeZone } from "../../lib/time-zone.ts";
import { Button } from "../../ui/button.tsx";
import { Card } from "../../ui/card.tsx";
import { cn } from "../../ui/cn.ts";
import { formatRunDate } from "../history/history-logic.ts";
import { StatusChip } from "../history/status-chip.tsx";
import { formatRunTime } from "../schedules/schedule-form.ts";
import { count } from "./dashboard-logic.ts";
import { dashboardQuery } from "./queries.ts";

// The chart library loads only with the dashboard's figures, in its own chunk.
const RunsChart = lazy(() => import("./runs-chart.tsx").then((module) => ({ default: module.RunsChart })));

/**
 * "Is my store in sync?" once the checklist is done: the last and next run, recent failures, drift
 * and unread alerts, the catalogs and mappings, and 30 days of runs, from one GET /dashboard.
 */
export function DashboardOverview() {
  const api = useApi();
  const dashboard = useQuery(dashboardQuery(api, browserTimeZone()));

  if (dashboard.isPending) return <OverviewLoading />;
  if (dashboard.isError)
    return (
      <div
        role="alert"
        className="flex flex-wrap items-center gap-3 rounded-md bg-red-50 p-4 text-sm text-red-800 ring-1 ring-red-200"
      >
        <AlertTriangle className="size-5 shrink-0" aria-hidden="true" />
        <p className="flex-1">{errorMessage(dashboard.error, MESSAGES.dashboard.fetchFailed)}</p>
        <Button variant="secondary" onClick={() => void dashboard.refetch()} loading={dashboard.isFetching}>
          Try again
        </Button>
      </div>
    );

  const data = dashboard.data;
  return (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
      <LastRunCard run={data.lastRun} />
      <NextRunCard next={data.nextRun} />
      <FailuresCard failures={data.failures} />
      <DriftCard drift={data.drift} />
      <AlertsCard unread={data.unreadAlerts} />
      <Card title="Catalogs" region>
        <Figures>
          <Figure label="Shopify products" value={count(data.catalog.shopifyProducts)} />
          <Figure label="Shopify variants" value={count(data.catalog.shopifyVariants)} />
          <Figure label="Acumatica items" value={count(data.catalog.acumaticaItems)} />
        </Figures>
        <CardLink to="/products/shopify">Products</CardLink>
      </Card>
      <MappingsCard mappings={data.mappings} limits={data.limits} />
      {/* min-w-0: the chart follows its card's width, not the other way round, when the window narrows. */}
      <Card title="Last 30 days" region className="min-w-0 sm:col-span-2 xl:col-span-3">
        <Suspense fallback={<div className="h-56 animate-pulse rounded-md bg-gray-100" aria-hidden="true" />}>
          <RunsChart days={data.days} />
        </Suspense>
      </Card>
    </div>
  );
}

function LastRunCard({ run }: { run: Dashboard["lastRun"] }) {
  if (!run)
    return (
      <Card title="Last run" region>
        <p className="text-sm text-gray-600">
          No runs yet. Sync a mapping, or create a schedule to sync on its own.
        </p>
        <CardLink to="/mapping-schedule">Schedules</CardLink>
      </Card>
    );
  const name = run.trigger === "schedule" && run.schedule ? run.schedule.name : "Manual sync";
  return (
    <Card title="Last run" region>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-medium text-gray-900">{name}</p>
        <StatusChip status={run.status} />
      </div>
      <p className="mt-1 text-sm text-gray-600 tabular-nums">{formatRunDate(run.startDate)}</p>
      <Figures>
        <Figure label="Synced" value={count(run.successCount)} />
        <Figure
          label="Failed"
          value={count(run.failureCount)}
          tone={run.failureCount > 0 ? "error" : undefined}
        />
        <Figure label="Skipped" value={count(run.skippedCount)} />
      </Figures>
      <Link
        to="/execution-history"
        search={{ entry: run._id }}
        className="mt-4 inline-flex items-center gap-1 text-sm font-medium text-accent-700 hover:underline"
      >
        View details
        <ArrowRight className="size-4" aria-hidden="true" />
      </Link>
    </Card>
  );
}

function NextRunCard({ next }: { next: Dashboard["nextRun"] }) {
  return (
    <Card title="Next run" region>
      {next ? (
        <>
          <p className="font-medium text-gray-900">{next.scheduleName}</p>
          <p className="mt-1 text-sm text-gray-600 tabular-nums">{formatRunTime(next.at, "Not scheduled")}</p>
        </>
      ) : (
        <p className="text-sm text-gray-600">
          No active schedule. Schedules sync prices and stock on their own.
        </p>
      )}
      <CardLink to="/mapping-schedule">Schedules</CardLink>
    </Card>
  );
}

function FailuresCard({ failures }: { failures: Dashboard["failures"] }) {
  const window = (label: string, figures: Dashboard["failures"]["last24Hours"]) => (
    <Figure
      label={label}
      value={`${count(figures.runs)} run${figures.runs === 1 ? "" : "s"}`}
      detail={`${count(figures.items)} item${figures.items === 1 ? "" : "s"} failed`}
      tone={figures.runs > 0 ? "error" : "success"}
    />
  );
  return (
    <Card title="Runs with failures" region>
      <Figures columns={2}>
        {window("Last 24 hours", failures.last24Hours)}
        {window("Last 7 days", failures.last7Days)}
      </Figures>
      <CardLink to="/execution-history">Execution history</CardLink>
    </Card>
  );
}

function DriftCard({ drift }: { drift: Dashboard["drift"] }) {
  return (
    <Card title="Drift" region>
      {drift.checkedAt ? (
        <>
          <Figures columns={2}>
            <Figure
              label="Differ from the ERP"
              value={count(drift.drifted)}
              detail={`of ${count(drift.mappings)} mapping${drift.mappings === 1 ? "" : "s"} checked`}
              tone={drift.drifted > 0 ? "error" : "success"}
            />
          </Figures>
          <p className="mt-2 text-xs text-gray-500 tabular-nums">Checked {formatRunDate(drift.checkedAt)}</p>
        </>
      ) : (
        <p className="text-sm text-gray-600">
          Not checked yet. A full sync, a dry run or a 'Check only' schedule compares every mapping.
        </p>
      )}
      <CardLink to="/drift">Drift</CardLink>
    </Card>
  );
}

function AlertsCard({ unread }: { unread: number }) {
  return (
    <Card title="Alerts" region>
      <Figures columns={2}>
        <Figure label="Unread" value={count(unread)} tone={unread > 0 ? "error" : undefined} />
      </Figures>
      <p className="mt-2 text-xs text-gray-500">
        {unread > 0 ? "The bell at the top lists them." : "Nothing needs a look."}
      </p>
      <CardLink to="/settings">Notification settings</CardLink>
    </Card>
  );
}

function MappingsCard({ mappings, limits }: Pick<Dashboard, "mappings" | "limits">) {
  return (
    <Card title="Mappings" region>
      <Figures>
        <Figure
          label="Mapped"
          value={count(mappings.mapped)}
          detail={limits.maxMappings === null ? undefined : `of ${count(limits.maxMappings)} on your plan`}
        />
        <Figure label="Unmapped in Shopify" value={count(mappings.unmappedShopify)} />
        <Figure label="Unmapped in Acumatica" value={count(mappings.unmappedAcumatica)} />
      </Figures>
      <CardLink to="/mapping">Mapping</CardLink>
    </Card>
  );
}

function Figures({ children, columns = 3 }: { children: ReactNode; columns?: 2 | 3 }) {
  return <dl className={cn("mt-4 grid gap-3", columns === 3 ? "grid-cols-3" : "grid-cols-2")}>{children}</dl>;
}

function Figure({
  label,
  value,
  detail,
  tone,
}: {
  label: string;
  value: string;
  detail?: string | undefined;
  tone?: "error" | "success" | undefined;
}) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-gray-500">{label}</dt>
      <dd
        className={cn(
          "mt-0.5 text-lg font-semibold tabular-nums text-gray-900",
          tone === "error" && "text-red-700",
          tone === "success" && "text-green-700",
        )}
      >
        {value}
      </dd>
      {detail ? <dd className="text-xs text-gray-500">{detail}</dd> : null}
    </div>
  );
}

type CardTarget =
  | "/mapping-schedule"
  | "/execution-history"
  | "/mapping"
  | "/products/shopify"
  | "/drift"
  | "/settings";

function CardLink({ to, children }: { to: CardTarget; children: string }) {
  return (
    <Link
      to={to}
      className="mt-4 inline-flex items-center gap-1 text-sm font-medium text-accent-700 hover:underline"
    >
      {children}
      <ArrowRight className="size-4" aria-hidden="true" />
    </Link>
  );
}

const LOADING_CARDS = [
  "last-run",
  "next-run",
  "failures",
  "drift",
  "alerts",
  "catalogs",
  "mappings",
] as const;

function OverviewLoading() {
  return (
    <div role="status" aria-busy="true" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
      <span className="sr-only">Loading the dashboard</span>
      {LOADING_CARDS.map((card) => (
        <div key={card} className="h-40 animate-pulse rounded-lg bg-white ring-1 ring-gray-200" />
      ))}
    </div>
  );
}
