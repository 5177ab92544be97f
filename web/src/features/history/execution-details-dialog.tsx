import { type ExecutionHistory, type ExecutionHistorySummary, MESSAGES } from "@stockbridge/shared";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { RotateCcw } from "lucide-react";
import { errorMessage } from "../../lib/errors.ts";
import { useApi } from "../../lib/services-context.tsx";
import { Button } from "../../ui/button.tsx";
import { DataTable, type DataTableColumn } from "../../ui/data-table/data-table.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { toast } from "../../ui/toast.tsx";
import { JobProgress } from "../jobs/job-progress.tsx";
import { useJobRunner } from "../jobs/use-job-runner.ts";
import { mappingKeys } from "../mapping/queries.ts";
import { productKeys } from "../products/queries.ts";
import { HeldRunActions } from "./held-run-actions.tsx";
import { HeldRunReview } from "./held-run-review.tsx";
import {
  changesNote,
  driftNote,
  formatRunDate,
  retryAvailability,
  retryOutcomeToast,
  scheduleDisplayName,
} from "./history-logic.ts";
import { executionHistoryEntryQuery, historyKeys } from "./queries.ts";
import { StatusChip } from "./status-chip.tsx";

interface ItemRow {
  _id: string;
  shopifySku: string;
  acumaticaSku: string;
  text: string;
}

const FAILED_COLUMNS: DataTableColumn<ItemRow>[] = [
  { id: "shopifySku", header: "Shopify SKU", className: "whitespace-nowrap" },
  { id: "acumaticaSku", header: "Acumatica SKU", className: "whitespace-nowrap" },
  { id: "text", header: "Error", className: "min-w-64 text-red-800" },
];

const SKIPPED_COLUMNS: DataTableColumn<ItemRow>[] = [
  { id: "shopifySku", header: "Shopify SKU", className: "whitespace-nowrap" },
  { id: "acumaticaSku", header: "Acumatica SKU", className: "whitespace-nowrap" },
  { id: "text", header: "Reason", className: "min-w-64 text-gray-700" },
];

/**
 * 'Execution Details - {name}': counts, the failed mappings with each one's error text, the
 * skipped ones with their reason, the run it retried, and 'Retry failed'; for a run the safety limits held, its reasons and plan,
 * and 'Approve' / 'Discard' while it is held. The list's row shows at
 * once; the entry (with its skipped mappings) is read when the dialog opens.
 */
export interface ExecutionDetailsDialogProps {
  open: boolean;
  /** The run to show; null keeps the dialog empty. */
  entryId: string | null;
  /** The run as the list shows it, while its full entry loads (none when opened from a link). */
  summary: ExecutionHistorySummary | null;
  onClose(): void;
  /** Shows another run in the dialog (the original of a retry). */
  onOpenEntry(id: string): void;
}

export function ExecutionDetailsDialog({
  open,
  entryId,
  summary,
  onClose,
  onOpenEntry,
}: ExecutionDetailsDialogProps) {
  const api = useApi();
  const loaded = useQuery({
    ...executionHistoryEntryQuery(api, entryId ?? "none"),
    enabled: open && entryId !== null,
  });
  const full: ExecutionHistory | undefined = loaded.data?._id === entryId ? loaded.data : undefined;
  const entry: ExecutionHistorySummary | null = full ?? (summary?._id === entryId ? summary : null);
  const retry = useRetryFailed(entryId);

  const failed: ItemRow[] = (entry?.failedMappings ?? []).map((failure, index) => ({
    _id: `${failure.mappingId ?? "run"}:${index}`,
    shopifySku: failure.shopifySku,
    acumaticaSku: failure.acumaticaSku,
    text: failure.error,
  }));
  const skipped: ItemRow[] = (full?.skippedMappings ?? []).map((skip, index) => ({
    _id: `${skip.mappingId ?? "run"}:${index}`,
    shopifySku: skip.shopifySku,
    acumaticaSku: skip.acumaticaSku,
    text: skip.reason,
  }));
  const availability = entry ? retryAvailability(entry) : { shown: false as const };

  return (
    <Dialog
      open={open && entryId !== null}
      onClose={onClose}
      size="xl"
      title={`Execution Details - ${entry ? scheduleDisplayName(entry) : ""}`}
      footer={
        <>
          {availability.shown ? (
            <Button
              variant="secondary"
              icon={<RotateCcw className="size-4" aria-hidden="true" />}
              disabled={availability.disabledReason !== null}
              title={availability.disabledReason ?? undefined}
              loading={retry.running}
              onClick={retry.start}
            >
              Retry failed
            </Button>
          ) : null}
          <Button variant={entry?.status === "held" ? "secondary" : "primary"} onClick={onClose}>
            Close
          </Button>
          {entry?.status === "held" ? <HeldRunActions entry={entry} /> : null}
        </>
      }
    >
      {entry ? (
        <div className="flex flex-col gap-5 text-sm">
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
            <Stat
              label="Success"
              value={entry.successCount}
              tone={entry.successCount > 0 ? "text-green-800" : "text-gray-900"}
            />
            <Stat
              label="Failure"
              value={entry.failureCount}
              tone={entry.failureCount > 0 ? "text-red-800" : "text-gray-900"}
            />
            <Stat label="Skipped" value={entry.skippedCount} tone="text-gray-900" />
            <div className="rounded-md bg-gray-50 p-3 ring-1 ring-gray-200">
              <dt className="text-gray-600">Status</dt>
              <dd className="mt-1">
                <StatusChip status={entry.status} />
              </dd>
            </div>
          </dl>
          <p className="text-gray-600">
            Started {formatRunDate(entry.startDate)}
            {entry.endDate ? `, ended ${formatRunDate(entry.endDate)}` : ", still running"}.
            {entry.syncOptions ? ` Synced ${syncOptionsText(entry.syncOptions)}.` : null}
          </p>
          {changesNote(entry) ? <p className="text-gray-600">{changesNote(entry)}</p> : null}
          {entry.checkOnly || entry.drifted ? (
            <p className="rounded-md bg-amber-50 p-3 text-amber-900 ring-1 ring-amber-200">
              {driftNote(entry)}{" "}
              <Link to="/drift" className="font-medium underline">
                View drift
              </Link>
            </p>
          ) : null}
          {entry.retryOf ? (
            <p className="text-gray-600">
              Retry of the failed mappings of{" "}
              <button
                type="button"
                className="font-medium text-accent-700 underline hover:text-accent-800"
                onClick={() => entry.retryOf && onOpenEntry(entry.retryOf)}
              >
                run {entry.retryOf}
              </button>
              .
            </p>
          ) : null}
          {availability.shown && availability.disabledReason ? (
            <p className="text-gray-600">{availability.disabledReason}</p>
          ) : null}
          {retry.running ? <JobProgress job={retry.job} label="Retry progress" /> : null}
          {entry.error ? (
            <p role="alert" className="rounded-md bg-red-50 p-3 text-red-800 ring-1 ring-red-200">
              {entry.error}
            </p>
          ) : null}
          {entry.review ? <HeldRunReview entry={entry} review={entry.review} /> : null}
          {failed.length > 0 ? (
            <section className="flex flex-col gap-2">
              <h3 className="text-base font-semibold text-gray-900">Failed Mappings</h3>
              <DataTable label="Failed Mappings" columns={FAILED_COLUMNS} rows={failed} />
            </section>
          ) : null}
          {skipped.length > 0 ? (
            <section className="flex flex-col gap-2">
              <h3 className="text-base font-semibold text-gray-900">Skipped</h3>
              <DataTable label="Skipped" columns={SKIPPED_COLUMNS} rows={skipped} />
            </section>
          ) : null}
        </div>
      ) : loaded.isError ? (
        <p role="alert" className="text-sm text-red-800">
          {errorMessage(loaded.error, MESSAGES.history.fetchFailed)}
        </p>
      ) : null}
    </Dialog>
  );
}

/**
 * 'Retry failed' as a sync job (features/jobs): start it, follow its progress, then toast and
 * refresh what a sync changes, as the other sync actions do. One retry is followed at a time.
 */
function useRetryFailed(entryId: string | null) {
  const api = useApi();
  const queryClient = useQueryClient();
  const refresh = () => {
    // Every real run is a new execution-history entry, whatever its outcome.
    void queryClient.invalidateQueries({ queryKey: historyKeys.all });
    void queryClient.invalidateQueries({ queryKey: mappingKeys.history() });
  };
  return useJobRunner({
    scope: "history-retry",
    start: () => api.call("retryExecutionHistory", { params: { id: entryId ?? "" } }),
    failureMessage: MESSAGES.history.retryFailed,
    onSucceeded(job) {
      const outcome = retryOutcomeToast(job);
      toast[outcome.tone](outcome.text);
      refresh();
      void queryClient.invalidateQueries({ queryKey: productKeys.all });
    },
    onFailed(message) {
      toast.error(message);
      refresh();
    },
  });
}

function syncOptionsText(options: NonNullable<ExecutionHistorySummary["syncOptions"]>): string {
  const fields = [options.price ? "price" : null, options.quantity ? "quantity" : null].filter(Boolean);
  return fields.join(" and ");
}

function Stat({ label, value, tone }: { label: string; value: number; tone: string }) {
  return (
    <div className="rounded-md bg-gray-50 p-3 ring-1 ring-gray-200">
      <dt className="text-gray-600">{label}</dt>
      <dd className={`text-xl font-semibold tabular-nums ${tone}`}>{value}</dd>
    </div>
  );
}
