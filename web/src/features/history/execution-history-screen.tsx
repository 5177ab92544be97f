import { EXECUTION_HISTORY_PAGE_SIZE, type ExecutionHistorySummary } from "@stockbridge/shared";
import { useQuery } from "@tanstack/react-query";
import { Eye } from "lucide-react";
import { useState } from "react";
import { useApi } from "../../lib/services-context.tsx";
import { IconButton } from "../../ui/button.tsx";
import { Chip } from "../../ui/chip.tsx";
import { DataTable, type DataTableColumn } from "../../ui/data-table/data-table.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { ExecutionDetailsDialog } from "./execution-details-dialog.tsx";
import { formatRunDate, scheduleDisplayName } from "./history-logic.ts";
import { executionHistoryQuery } from "./queries.ts";
import { StatusChip } from "./status-chip.tsx";
import { useLinkedEntry } from "./use-linked-entry.ts";

/**
 * Execution History (spec section 2): every sync run, newest first, ten per page. `entryId` (the
 * address's `?entry=`, a notification's link) opens that run's details; `onEntryClosed` drops it.
 */
export function ExecutionHistoryScreen({
  entryId,
  onEntryClosed,
}: {
  entryId?: string | undefined;
  onEntryClosed?(): void;
} = {}) {
  const api = useApi();
  const [page, setPage] = useState(1);
  // The viewed entry outlives `open` so the dialog keeps its text while it fades out.
  const [viewing, setViewing] = useState<{
    open: boolean;
    id: string | null;
    row: ExecutionHistorySummary | null;
  }>({ open: false, id: null, row: null });
  const history = useQuery(executionHistoryQuery(api, page));
  useLinkedEntry(entryId, (entry) => setViewing({ open: true, id: entry._id, row: entry }));
  // A running entry keeps refreshing in the list; the dialog shows its latest state.
  const viewed = history.data?.histories.find((entry) => entry._id === viewing.id) ?? viewing.row;

  const columns: DataTableColumn<ExecutionHistorySummary>[] = [
    {
      id: "schedule",
      header: "Schedule Name",
      accessor: (row) => scheduleDisplayName(row),
      cell: (row) => (
        <span className="inline-flex flex-wrap items-center gap-2">
          {scheduleDisplayName(row)}
          {row.checkOnly ? <Chip tone="warning">Check only</Chip> : null}
        </span>
      ),
    },
    {
      id: "startDate",
      header: "Start Date",
      accessor: (row) => formatRunDate(row.startDate),
      className: "whitespace-nowrap tabular-nums",
    },
    {
      id: "endDate",
      header: "End Date",
      accessor: (row) => formatRunDate(row.endDate),
      className: "whitespace-nowrap tabular-nums",
    },
    { id: "successCount", header: "Success", align: "right", className: "tabular-nums" },
    { id: "failureCount", header: "Failure", align: "right", className: "tabular-nums" },
    { id: "status", header: "Status", cell: (row) => <StatusChip status={row.status} /> },
    {
      id: "actions",
      header: "Actions",
      pinned: true,
      align: "right",
      cell: (row) => (
        <IconButton
          label={`View ${scheduleDisplayName(row)} run of ${formatRunDate(row.startDate)}`}
          icon={<Eye className="size-4" aria-hidden="true" />}
          onClick={() => setViewing({ open: true, id: row._id, row })}
        />
      ),
    },
  ];

  return (
    <>
      <PageHeader title="Execution History" description="Every synchronization run, newest first." />
      <DataTable
        label="Execution history"
        columns={columns}
        rows={history.data?.histories ?? []}
        loading={history.isFetching}
        pageSizeOptions={null}
        server={{
          total: history.data?.total ?? 0,
          page,
          rowsPerPage: EXECUTION_HISTORY_PAGE_SIZE,
          onPageChange: setPage,
        }}
      />
      <ExecutionDetailsDialog
        open={viewing.open}
        entryId={viewing.id}
        summary={viewed}
        onClose={() => {
          setViewing((current) => ({ ...current, open: false }));
          if (entryId) onEntryClosed?.();
        }}
        onOpenEntry={(id) => setViewing({ open: true, id, row: null })}
      />
    </>
  );
}
