import type { ExecutionHistory } from "@stockbridge/shared";
import { Link } from "@tanstack/react-router";
import { Button } from "../../ui/button.tsx";
import { DataTable, type DataTableColumn } from "../../ui/data-table/data-table.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { driftNote, formatRunDate, scheduleDisplayName } from "./history-logic.ts";
import { StatusChip } from "./status-chip.tsx";

interface FailedRow {
  _id: string;
  shopifySku: string;
  acumaticaSku: string;
  error: string;
}

const FAILED_COLUMNS: DataTableColumn<FailedRow>[] = [
  { id: "shopifySku", header: "Shopify SKU", className: "whitespace-nowrap" },
  { id: "acumaticaSku", header: "Acumatica SKU", className: "whitespace-nowrap" },
  { id: "error", header: "Error", className: "min-w-64 text-red-800" },
];

/** 'Execution Details - {name}': counts, and the failed mappings with each one's error text. */
export interface ExecutionDetailsDialogProps {
  open: boolean;
  entry: ExecutionHistory | null;
  onClose(): void;
}

export function ExecutionDetailsDialog({ open, entry, onClose }: ExecutionDetailsDialogProps) {
  const failed: FailedRow[] = (entry?.failedMappings ?? []).map((failure, index) => ({
    _id: `${failure.mappingId ?? "run"}:${index}`,
    shopifySku: failure.shopifySku,
    acumaticaSku: failure.acumaticaSku,
    error: failure.error,
  }));
  return (
    <Dialog
      open={open && entry !== null}
      onClose={onClose}
      size="xl"
      title={`Execution Details - ${entry ? scheduleDisplayName(entry) : ""}`}
      footer={<Button onClick={onClose}>Close</Button>}
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
          </p>
          {entry.checkOnly || entry.drifted ? (
            <p className="rounded-md bg-amber-50 p-3 text-amber-900 ring-1 ring-amber-200">
              {driftNote(entry)}{" "}
              <Link to="/drift" className="font-medium underline">
                View drift
              </Link>
            </p>
          ) : null}
          {entry.error ? (
            <p role="alert" className="rounded-md bg-red-50 p-3 text-red-800 ring-1 ring-red-200">
              {entry.error}
            </p>
          ) : null}
          {failed.length > 0 ? (
            <section className="flex flex-col gap-2">
              <h3 className="text-base font-semibold text-gray-900">Failed Mappings</h3>
              <DataTable label="Failed Mappings" columns={FAILED_COLUMNS} rows={failed} />
            </section>
          ) : null}
        </div>
      ) : null}
    </Dialog>
  );
}

function Stat({ label, value, tone }: { label: string; value: number; tone: string }) {
  return (
    <div className="rounded-md bg-gray-50 p-3 ring-1 ring-gray-200">
      <dt className="text-gray-600">{label}</dt>
      <dd className={`text-xl font-semibold tabular-nums ${tone}`}>{value}</dd>
    </div>
  );
}
