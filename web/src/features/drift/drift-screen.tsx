import {
  DRIFT_ITEMS_LIMIT,
  type DriftItem,
  type DriftSummary,
  type Job,
  MESSAGES,
  SyncJobResultSchema,
} from "@stockbridge/shared";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Download, RefreshCw, Wrench } from "lucide-react";
import { useState } from "react";
import * as v from "valibot";
import { errorMessage } from "../../lib/errors.ts";
import { useApi } from "../../lib/services-context.tsx";
import { Button } from "../../ui/button.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { DataTable, type DataTableColumn } from "../../ui/data-table/data-table.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { toast } from "../../ui/toast.tsx";
import { historyKeys } from "../history/queries.ts";
import { JobProgress } from "../jobs/job-progress.tsx";
import { useJobRunner } from "../jobs/use-job-runner.ts";
import { productKeys } from "../products/queries.ts";
import { checkedText, driftValue, FIELD_LABELS, fixMessage, locationLabel } from "./drift-logic.ts";
import { driftKeys, driftQuery } from "./queries.ts";

type DriftRow = DriftItem & { _id: string };

const COLUMNS: DataTableColumn<DriftRow>[] = [
  { id: "shopifySku", header: "Shopify SKU", sortable: true, className: "whitespace-nowrap" },
  { id: "acumaticaSku", header: "Acumatica SKU", sortable: true, className: "whitespace-nowrap" },
  { id: "field", header: "Field", sortable: true, accessor: (row) => FIELD_LABELS[row.field] },
  { id: "location", header: "Location", accessor: (row) => locationLabel(row.location) },
  {
    id: "shopify",
    header: "Shopify",
    align: "right",
    className: "tabular-nums",
    accessor: (row) => driftValue(row, row.shopify),
  },
  {
    id: "erp",
    header: "ERP",
    align: "right",
    className: "tabular-nums",
    accessor: (row) => driftValue(row, row.erp),
  },
];

const SOURCE_TEXT: Record<NonNullable<DriftSummary["source"]>, string> = {
  sync: "by a sync of every mapping (what it could not write)",
  "dry-run": "by a dry run of every mapping",
  check: "by a check-only schedule",
};

/** Drift: where Shopify differs from the ERP, as the latest check found it; download it or fix it. */
export function DriftScreen() {
  const api = useApi();
  const queryClient = useQueryClient();
  const drift = useQuery(driftQuery(api));
  const [confirming, setConfirming] = useState(false);
  const [downloading, setDownloading] = useState(false);

  // A run changes the drift, the history and the cached catalog rows.
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: driftKeys.all });
    void queryClient.invalidateQueries({ queryKey: historyKeys.all });
    void queryClient.invalidateQueries({ queryKey: productKeys.all });
  };
  const ended = (job: Job) => {
    const result = v.safeParse(SyncJobResultSchema, job.result);
    const failed = result.success && result.output.failure > 0;
    toast[failed ? "warning" : "success"](job.message ?? MESSAGES.mapping.synchronized);
    refresh();
  };
  const failed = (message: string) => {
    toast.error(message);
    refresh();
  };
  const check = useJobRunner({
    scope: "drift-check",
    start: () =>
      api.call("syncMappings", { body: { syncOptions: { price: true, quantity: true }, dryRun: true } }),
    failureMessage: MESSAGES.mapping.syncFailed,
    onSucceeded: ended,
    onFailed: failed,
  });
  const fix = useJobRunner({
    scope: "drift-fix",
    start: () => api.call("fixDrift"),
    failureMessage: MESSAGES.drift.fixFailed,
    onSucceeded: ended,
    onFailed: failed,
  });
  const running = check.running || fix.running;

  async function download() {
    setDownloading(true);
    try {
      const csv = await api.call("driftCsv");
      const url = URL.createObjectURL(new Blob([csv], { type: "text/csv" }));
      const link = document.createElement("a");
      link.href = url;
      link.download = "drift.csv";
      link.click();
      // The browser reads the file after the click returns: free it once that is long done.
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (error) {
      toast.error(errorMessage(error, MESSAGES.drift.downloadFailed));
    } finally {
      setDownloading(false);
    }
  }

  const summary = drift.data;
  const rows: DriftRow[] = (summary?.items ?? []).map((item) => ({
    ...item,
    _id: `${item.mappingId}:${item.field}:${item.location ?? ""}`,
  }));
  const drifted = summary?.drifted ?? 0;

  return (
    <>
      <PageHeader
        title="Drift"
        description="Where Shopify differs from the ERP, as the latest check of every mapping found it."
        actions={
          <>
            <Button
              variant="secondary"
              icon={<RefreshCw className="size-4" aria-hidden="true" />}
              onClick={check.start}
              disabled={running}
            >
              Check now
            </Button>
            <Button
              variant="secondary"
              icon={<Download className="size-4" aria-hidden="true" />}
              onClick={() => void download()}
              loading={downloading}
              disabled={rows.length === 0}
            >
              Download CSV
            </Button>
            <Button
              icon={<Wrench className="size-4" aria-hidden="true" />}
              onClick={() => setConfirming(true)}
              disabled={drifted === 0 || running}
            >
              Fix these
            </Button>
          </>
        }
      />
      {running ? (
        <JobProgress
          job={check.running ? check.job : fix.job}
          label={check.running ? "Drift check progress" : "Drift fix progress"}
          className="mb-4"
        />
      ) : null}
      {summary ? <Summary summary={summary} /> : null}
      <DataTable
        label="Drift"
        columns={COLUMNS}
        rows={rows}
        loading={drift.isFetching}
        searchable
        initialPageSize={25}
      />
      {rows.length >= DRIFT_ITEMS_LIMIT ? (
        <p className="mt-3 text-sm text-gray-600">
          The table shows the first {DRIFT_ITEMS_LIMIT.toLocaleString("en-US")} differing fields; the CSV has
          all of them.
        </p>
      ) : null}
      <ConfirmDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          fix.start();
        }}
        title="Fix these"
        message={summary ? fixMessage(summary) : ""}
        confirmLabel="Fix these"
        tone="primary"
      />
    </>
  );
}

function Summary({ summary }: { summary: DriftSummary }) {
  return (
    <section aria-label="Drift summary" className="mb-6 flex flex-col gap-3">
      <p className="text-sm text-gray-700">
        {checkedText(summary)}
        {summary.source ? ` ${SOURCE_TEXT[summary.source]}.` : "."}
        {summary.checkedAt
          ? ""
          : " A sync or dry run of every mapping, or a check-only schedule, records what differs."}
      </p>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Stat label="Mappings that differ" value={summary.drifted} />
        <Stat label={FIELD_LABELS.price} value={summary.byField.price} />
        <Stat label={FIELD_LABELS.compareAtPrice} value={summary.byField.compareAtPrice} />
        <Stat label={FIELD_LABELS.quantity} value={summary.byField.quantity} />
      </dl>
    </section>
  );
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-md bg-white p-3 shadow-sm ring-1 ring-gray-200">
      <dt className="text-sm text-gray-600">{label}</dt>
      <dd className="text-xl font-semibold text-gray-900 tabular-nums">{value}</dd>
    </div>
  );
}
