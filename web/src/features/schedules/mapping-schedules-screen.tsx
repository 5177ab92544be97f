import { describeSchedule, MESSAGES, type Schedule } from "@stockbridge/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { CheckCircle2, Pause, Pencil, Play, Plus, Trash2, X, XCircle } from "lucide-react";
import { useEffect, useState } from "react";
import { isPendingRow } from "../../db/mirror-rows.ts";
import { errorMessage } from "../../lib/errors.ts";
import { useApi } from "../../lib/services-context.tsx";
import { useClampPage, usePagedSearch } from "../../lib/use-paged-search.ts";
import { Button, IconButton } from "../../ui/button.tsx";
import { Chip } from "../../ui/chip.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { DataTable, type DataTableColumn } from "../../ui/data-table/data-table.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { toast } from "../../ui/toast.tsx";
import { PendingChip } from "../pwa/pending-chip.tsx";
import { scheduleKeys, schedulesQuery } from "./queries.ts";
import { ScheduleDialog } from "./schedule-dialog.tsx";
import { formatRunTime } from "./schedule-form.ts";

/** Mapping Schedules (spec section 2, the full reading; the 'Coming soon....' reading is the noted conflict). */
export function MappingSchedulesScreen() {
  const api = useApi();
  const queryClient = useQueryClient();
  const table = usePagedSearch();
  // The edited schedule outlives `open` so the title does not change while the dialog fades out.
  const [dialog, setDialog] = useState<{ open: boolean; editing: Schedule | null }>({
    open: false,
    editing: null,
  });
  const [deleting, setDeleting] = useState<Schedule | null>(null);
  const [toggling, setToggling] = useState<ReadonlySet<string>>(new Set());
  const [banner, setBanner] = useState<string | null>(null);

  const list = useQuery(schedulesQuery(api, table.params));
  const data = list.data;

  // Spec section 4: a store error is shown (here in the banner), then cleared from the store.
  useEffect(() => {
    if (list.isError) setBanner(errorMessage(list.error, MESSAGES.schedules.fetchFailed));
  }, [list.isError, list.error]);

  // A delete can empty the last page: step back to the new last page.
  useClampPage(table.page, data?.totalPages, table.setPage);

  const remove = useMutation({
    mutationFn: (schedule: Schedule) => api.call("deleteSchedule", { params: { id: schedule._id } }),
    onSuccess: async () => {
      toast.success(MESSAGES.schedules.deleted);
      setDeleting(null);
      await queryClient.invalidateQueries({ queryKey: scheduleKeys.all });
    },
    onError: (error) => {
      setDeleting(null);
      setBanner(errorMessage(error, MESSAGES.schedules.deleteFailed));
    },
  });

  async function toggle(schedule: Schedule): Promise<void> {
    const status = schedule.status === "active" ? "inactive" : "active";
    setToggling((current) => new Set(current).add(schedule._id));
    try {
      await api.call("setScheduleStatus", { params: { id: schedule._id }, body: { status } });
      toast.success(status === "active" ? MESSAGES.schedules.activated : MESSAGES.schedules.deactivated);
      await queryClient.invalidateQueries({ queryKey: scheduleKeys.all });
    } catch (error) {
      setBanner(errorMessage(error, MESSAGES.schedules.statusFailed));
    } finally {
      setToggling((current) => {
        const next = new Set(current);
        next.delete(schedule._id);
        return next;
      });
    }
  }

  const columns: DataTableColumn<Schedule>[] = [
    { id: "name", header: "Name", className: "font-medium text-gray-900" },
    {
      id: "schedule",
      header: "Schedule",
      accessor: (row) => describeSchedule(row.schedule),
      className: "whitespace-nowrap",
    },
    {
      id: "lastRun",
      header: "Last Run",
      accessor: (row) => formatRunTime(row.lastRun, "Never"),
      className: "whitespace-nowrap tabular-nums",
    },
    {
      id: "nextRun",
      header: "Next Run",
      accessor: (row) => formatRunTime(row.nextRun, "Not scheduled"),
      // A schedule the plan no longer includes (after a downgrade) does not run: say why.
      cell: (row) => (
        <>
          <span className="whitespace-nowrap tabular-nums">
            {formatRunTime(row.nextRun, "Not scheduled")}
          </span>
          {row.pausedByPlan ? (
            <p className="mt-1 max-w-xs text-xs whitespace-normal text-red-700">{row.pausedByPlan}</p>
          ) : null}
        </>
      ),
    },
    { id: "status", header: "Status", align: "center", cell: (row) => <StatusIcon status={row.status} /> },
    {
      id: "syncOptions",
      header: "Sync Options",
      accessor: (row) =>
        [
          row.syncOptions.price ? "Price" : null,
          row.syncOptions.quantity ? "Quantity" : null,
          row.checkOnly ? "Check only" : null,
        ]
          .filter(Boolean)
          .join(", "),
      cell: (row) => <SyncOptionChips options={row.syncOptions} checkOnly={row.checkOnly} />,
    },
    {
      id: "actions",
      header: "Actions",
      pinned: true,
      align: "right",
      cell: (row) => {
        const active = row.status === "active";
        return (
          <div className="flex items-center justify-end gap-1">
            {isPendingRow(row) ? <PendingChip /> : null}
            <IconButton
              label={`${active ? "Deactivate" : "Activate"} schedule ${row.name}`}
              icon={
                active ? (
                  <Pause className="size-4" aria-hidden="true" />
                ) : (
                  <Play className="size-4" aria-hidden="true" />
                )
              }
              loading={toggling.has(row._id)}
              onClick={() => void toggle(row)}
            />
            <IconButton
              label={`Edit schedule ${row.name}`}
              icon={<Pencil className="size-4" aria-hidden="true" />}
              onClick={() => setDialog({ open: true, editing: row })}
            />
            <IconButton
              label={`Delete schedule ${row.name}`}
              icon={<Trash2 className="size-4" aria-hidden="true" />}
              onClick={() => setDeleting(row)}
              className="hover:bg-red-50 hover:text-red-700"
            />
          </div>
        );
      },
    },
  ];

  return (
    <>
      <PageHeader
        title="Mapping Schedules"
        description="Run price and quantity syncs automatically, on your time zone's clock."
        actions={
          <Button
            icon={<Plus className="size-4" aria-hidden="true" />}
            onClick={() => setDialog({ open: true, editing: null })}
          >
            Create Schedule
          </Button>
        }
      />
      {banner ? <ErrorBanner message={banner} onDismiss={() => setBanner(null)} /> : null}
      <DataTable
        label="Mapping schedules"
        columns={columns}
        rows={data?.schedules ?? []}
        loading={list.isFetching}
        searchable
        server={table.server(data?.total ?? 0)}
      />
      <ScheduleDialog
        open={dialog.open}
        editing={dialog.editing}
        onClose={() => setDialog((current) => ({ ...current, open: false }))}
      />
      <ConfirmDialog
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting);
        }}
        title="Delete Schedule"
        message="Are you sure you want to delete this schedule? This action cannot be undone."
        confirmLabel="Delete"
        loading={remove.isPending}
      />
    </>
  );
}

/** Active: a success icon; anything else: an error icon. The word is there for screen readers. */
function StatusIcon({ status }: { status: Schedule["status"] }) {
  const active = status === "active";
  const label = active ? "Active" : "Inactive";
  return (
    <span className="inline-flex items-center justify-center" title={label}>
      {active ? (
        <CheckCircle2 className="size-5 text-green-600" aria-hidden="true" />
      ) : (
        <XCircle className="size-5 text-red-600" aria-hidden="true" />
      )}
      <span className="sr-only">{label}</span>
    </span>
  );
}

function SyncOptionChips({ options, checkOnly }: { options: Schedule["syncOptions"]; checkOnly: boolean }) {
  if (!options.price && !options.quantity) return <span className="text-gray-500">None selected</span>;
  return (
    <span className="inline-flex flex-wrap gap-1">
      {options.price ? <Chip tone="primary">Price</Chip> : null}
      {options.quantity ? <Chip tone="primary">Quantity</Chip> : null}
      {/* A check compares these fields and writes nothing. */}
      {checkOnly ? <Chip tone="warning">Check only</Chip> : null}
    </span>
  );
}

function ErrorBanner({ message, onDismiss }: { message: string; onDismiss(): void }) {
  return (
    <div
      role="alert"
      className="mb-4 flex items-start justify-between gap-3 rounded-md bg-red-50 px-4 py-3 text-sm text-red-800 ring-1 ring-red-200"
    >
      <p className="pt-1.5">{message}</p>
      <IconButton
        label="Dismiss error"
        icon={<X className="size-4" aria-hidden="true" />}
        onClick={onDismiss}
        className="text-red-800 hover:bg-red-100"
      />
    </div>
  );
}
