import { EXECUTION_HISTORY_PAGE_SIZE, type ExecutionHistory } from "@stockbridge/shared";
import { useQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { Eye } from "lucide-react";
import { useEffect, useState } from "react";
import { useApi } from "../../lib/services-context.tsx";
import { IconButton } from "../../ui/button.tsx";
import { DataTable, type DataTableColumn } from "../../ui/data-table/data-table.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { ExecutionDetailsDialog } from "./execution-details-dialog.tsx";
import { formatRunDate, scheduleDisplayName } from "./history-logic.ts";
import { executionHistoryEntryQuery, executionHistoryQuery } from "./queries.ts";
import { StatusChip } from "./status-chip.tsx";

/** Execution History (spec section 2): every sync run, newest first, ten per page. */
export function ExecutionHistoryScreen({ runId }: { runId?: string | undefined } = {}) {
  const api = useApi();
  const [page, setPage] = useState(1);
  // The viewed entry outlives `open` so the dialog keeps its text while it fades out.
  const [viewing, setViewing] = useState<{ open: boolean; entry: ExecutionHistory | null }>({
    open: false,
    entry: null,
  });
  const history = useQuery(executionHistoryQuery(api, page));
  // A link to one run (`?run=`) opens its details once it is read; closing drops it from the URL.
  const navigate = useNavigate();
  const linked = useQuery({ ...executionHistoryEntryQuery(api, runId ?? ""), enabled: Boolean(runId) });
  useEffect(() => {
    if (linked.data) setViewing({ open: true, entry: linked.data });
  }, [linked.data]);
  // A running entry keeps refreshing in the list; the dialog shows its latest state.
  const viewed = history.data?.histories.find((entry) => entry._id === viewing.entry?._id) ?? viewing.entry;

  const columns: DataTableColumn<ExecutionHistory>[] = [
    { id: "schedule", header: "Schedule Name", accessor: (row) => scheduleDisplayName(row) },
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
      align: "right",
      cell: (row) => (
        <IconButton
          label={`View ${scheduleDisplayName(row)} run of ${formatRunDate(row.startDate)}`}
          icon={<Eye className="size-4" aria-hidden="true" />}
          onClick={() => setViewing({ open: true, entry: row })}
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
        entry={viewed}
        onClose={() => {
          setViewing((current) => ({ ...current, open: false }));
          if (runId) void navigate({ to: "/execution-history", search: {}, replace: true });
        }}
      />
    </>
  );
}
