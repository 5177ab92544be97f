import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS } from "@stockbridge/shared";
import {
  type ColumnDef,
  getCoreRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  type PaginationState,
  useReactTable,
} from "@tanstack/react-table";
import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import { type ReactNode, useMemo, useRef, useState } from "react";
import { cn } from "../cn.ts";
import { ProgressBar } from "../progress-bar.tsx";
import { Spinner } from "../spinner.tsx";
import { Pagination } from "./pagination.tsx";
import { SearchBox } from "./search-box.tsx";
import {
  ariaSort,
  compareValues,
  EMPTY_CELL,
  emptyText,
  formatCellValue,
  getByPath,
  isEmptyCellValue,
  matchesSearch,
  nextSort,
  rowNumber,
  type SortState,
} from "./table-logic.ts";
import { useDebouncedSearch } from "./use-debounced-search.ts";
import { useScrollEdges } from "./use-scroll-edges.ts";

export interface DataTableColumn<Row> {
  /** Unique; also the sort field handed to `onSortChange` in server mode. */
  id: string;
  header: string;
  /** A dotted path into the row (default: `id`), or a function. */
  accessor?: string | ((row: Row) => unknown);
  /** Custom rendering; an empty result still shows '-'. */
  cell?(row: Row): ReactNode;
  sortable?: boolean;
  /** Searched by the client-side search box (default true). */
  searchable?: boolean;
  align?: "left" | "right" | "center";
  className?: string;
  /**
   * Kept in view at the right edge while the table scrolls sideways (the row actions), so no action
   * is ever off-screen on a narrow window.
   */
  pinned?: boolean;
}

/** Server mode: the parent owns paging, sort and search and refetches on every callback. */
export interface DataTableServerMode {
  total: number;
  /** One-based, as the API counts. */
  page: number;
  rowsPerPage: number;
  onPageChange(page: number): void;
  onRowsPerPageChange?(rowsPerPage: number): void;
  sort?: SortState | null;
  onSortChange?(sort: SortState): void;
  /** Called 500 ms after typing stops (at once on clear), with the trimmed text. */
  onSearchChange?(search: string): void;
}

export interface DataTableProps<Row extends { _id: string }> {
  /** Accessible name of the table. */
  label: string;
  columns: ReadonlyArray<DataTableColumn<Row>>;
  rows: ReadonlyArray<Row>;
  loading?: boolean;
  searchable?: boolean;
  /** Rendered beside the search box (buttons, filters, "Last synced"). */
  top?: ReactNode;
  /** A leading '#' column whose numbering continues across pages. */
  showIndex?: boolean;
  /** Client mode: the initial sort. */
  initialSort?: SortState | null;
  /** Client mode: the initial page size (default 10). */
  initialPageSize?: number;
  /** Page-size choices (default 10/25/100); `null` fixes the page size and hides the selector. */
  pageSizeOptions?: readonly number[] | null;
  server?: DataTableServerMode;
}

const ALIGN = { left: "text-left", right: "text-right", center: "text-center" } as const;
/** A pinned cell covers what scrolls under it, with the row's own background. */
const PINNED = "sticky right-0 z-[1]";
/** Sort headers are tapped: on a touch screen the button fills the header's height. */
const HEADER_CELL = "px-4 py-3 pointer-coarse:py-1";

/**
 * The shared table: search, sort, index column, loading bar, empty text and pagination, either
 * on the client (all rows given) or on the server (one page given, callbacks for the rest).
 */
export function DataTable<Row extends { _id: string }>(props: DataTableProps<Row>) {
  const { label, columns, rows, loading = false, searchable = false, top, showIndex = false, server } = props;
  const sizeOptions = props.pageSizeOptions === undefined ? PAGE_SIZE_OPTIONS : props.pageSizeOptions;

  const [clientSort, setClientSort] = useState<SortState | null>(props.initialSort ?? null);
  const [localServerSort, setLocalServerSort] = useState<SortState | null>(null);
  const sort = server ? (server.sort !== undefined ? server.sort : localServerSort) : clientSort;
  const [pagination, setPagination] = useState<PaginationState>({
    pageIndex: 0,
    pageSize: props.initialPageSize ?? DEFAULT_PAGE_SIZE,
  });
  const search = useDebouncedSearch((text) => {
    if (server) server.onSearchChange?.(text);
    else setPagination((current) => ({ ...current, pageIndex: 0 }));
  });

  const readValue = useMemo(() => {
    const byId = new Map(columns.map((column) => [column.id, column]));
    return (row: Row, id: string): unknown => {
      const column = byId.get(id);
      if (!column) return undefined;
      return typeof column.accessor === "function"
        ? column.accessor(row)
        : getByPath(row, column.accessor ?? column.id);
    };
  }, [columns]);

  const visibleRows = useMemo(() => {
    if (server || !search.applied) return rows as Row[];
    const searched = columns.filter((column) => column.searchable !== false);
    return rows.filter((row) =>
      matchesSearch(
        searched.map((column) => readValue(row, column.id)),
        search.applied,
      ),
    );
  }, [rows, columns, server, search.applied, readValue]);

  const columnDefs = useMemo<ColumnDef<Row>[]>(
    () =>
      columns.map((column) => ({
        id: column.id,
        // Empty values become undefined so `sortUndefined: "last"` keeps them last in both directions.
        accessorFn: (row: Row) => {
          const value = readValue(row, column.id);
          return isEmptyCellValue(value) ? undefined : value;
        },
        enableSorting: Boolean(column.sortable),
        sortingFn: (a, b, id) => compareValues(a.getValue(id), b.getValue(id)),
        sortUndefined: "last" as const,
      })),
    [columns, readValue],
  );

  const pageState: PaginationState = server
    ? { pageIndex: Math.max(0, server.page - 1), pageSize: server.rowsPerPage }
    : pagination;
  const table = useReactTable<Row>({
    data: visibleRows,
    columns: columnDefs,
    getRowId: (row) => row._id,
    state: { sorting: sort ? [{ id: sort.id, desc: sort.direction === "desc" }] : [], pagination: pageState },
    onPaginationChange: (updater) => {
      if (!server) setPagination(updater);
    },
    manualSorting: Boolean(server),
    manualPagination: Boolean(server),
    autoResetPageIndex: false,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getPaginationRowModel: getPaginationRowModel(),
    ...(server ? { rowCount: server.total } : {}),
  });

  function toggleSort(columnId: string): void {
    const next = nextSort(sort, columnId);
    if (server) {
      if (server.sort === undefined) setLocalServerSort(next);
      server.onSortChange?.(next);
    } else {
      setClientSort(next);
      setPagination((current) => ({ ...current, pageIndex: 0 }));
    }
  }

  const total = server ? server.total : visibleRows.length;
  const pageRows = table.getRowModel().rows;
  const columnCount = columns.length + (showIndex ? 1 : 0);
  const canResize = sizeOptions !== null && (!server || server.onRowsPerPageChange !== undefined);
  const scroller = useRef<HTMLDivElement>(null);
  const edges = useScrollEdges(scroller);

  return (
    <div className="rounded-lg bg-white shadow-sm ring-1 ring-gray-200">
      {searchable || top ? (
        <div className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
          {searchable ? (
            <SearchBox
              value={search.input}
              onChange={search.setInput}
              onClear={search.clear}
              label={`Search ${label}`}
            />
          ) : null}
          {top ? <div className="flex flex-wrap items-center gap-2">{top}</div> : null}
        </div>
      ) : null}
      <div className="relative">
        <div className={cn("absolute inset-x-0 top-0 z-10", !loading && "invisible")}>
          {loading ? <ProgressBar label={`Loading ${label}`} className="rounded-none" /> : null}
        </div>
        {/* A table wider than its box says so: a shade over each edge that hides columns. */}
        <div
          aria-hidden="true"
          data-scroll-hint="before"
          className={cn(
            "pointer-events-none absolute inset-y-0 left-0 z-[2] w-8 bg-linear-to-r from-gray-900/15 to-transparent transition-opacity",
            !edges.before && "opacity-0",
          )}
        />
        <div
          aria-hidden="true"
          data-scroll-hint="after"
          style={{ right: edges.pinnedWidth }}
          className={cn(
            "pointer-events-none absolute inset-y-0 z-[2] w-8 bg-linear-to-l from-gray-900/15 to-transparent transition-opacity",
            !edges.after && "opacity-0",
          )}
        />
        <div ref={scroller} className="overflow-x-auto" data-table-scroller="">
          <table className="min-w-full divide-y divide-gray-200 text-sm" aria-busy={loading || undefined}>
            <caption className="sr-only">{label}</caption>
            <thead className="bg-gray-50">
              <tr>
                {showIndex ? (
                  <th scope="col" className={cn("w-12 text-left font-semibold text-gray-700", HEADER_CELL)}>
                    #
                  </th>
                ) : null}
                {columns.map((column) => (
                  <th
                    key={column.id}
                    scope="col"
                    aria-sort={column.sortable ? ariaSort(sort, column.id) : undefined}
                    data-pinned={column.pinned ? "" : undefined}
                    className={cn(
                      "font-semibold whitespace-nowrap text-gray-700",
                      HEADER_CELL,
                      ALIGN[column.align ?? "left"],
                      column.pinned && cn(PINNED, "bg-gray-50"),
                    )}
                  >
                    {column.sortable ? (
                      <button
                        type="button"
                        onClick={() => toggleSort(column.id)}
                        className="inline-flex items-center gap-1 rounded hover:text-gray-900 pointer-coarse:min-h-11"
                      >
                        {column.header}
                        <SortIcon state={ariaSort(sort, column.id)} />
                      </button>
                    ) : (
                      column.header
                    )}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-100">
              {pageRows.length === 0 ? (
                <tr>
                  <td colSpan={columnCount} className="px-4 py-10 text-center text-gray-500">
                    {loading ? <Spinner size="sm" label="Loading" /> : emptyText(search.applied !== "")}
                  </td>
                </tr>
              ) : (
                pageRows.map((row, index) => (
                  <tr key={row.id} className="group hover:bg-gray-50">
                    {showIndex ? (
                      <td className="px-4 py-3 text-gray-500 tabular-nums">
                        {rowNumber(pageState.pageIndex, pageState.pageSize, index)}
                      </td>
                    ) : null}
                    {columns.map((column) => (
                      <td
                        key={column.id}
                        className={cn(
                          "px-4 py-3 text-gray-800",
                          ALIGN[column.align ?? "left"],
                          column.className,
                          column.pinned && cn(PINNED, "bg-white group-hover:bg-gray-50"),
                        )}
                      >
                        {renderCell(column, row.original, row.getValue(column.id))}
                      </td>
                    ))}
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </div>
      <Pagination
        pageIndex={pageState.pageIndex}
        pageSize={pageState.pageSize}
        total={total}
        onPageIndexChange={(pageIndex) =>
          server
            ? server.onPageChange(pageIndex + 1)
            : setPagination((current) => ({ ...current, pageIndex }))
        }
        pageSizeOptions={canResize ? sizeOptions : undefined}
        onPageSizeChange={(pageSize) => {
          if (server) server.onRowsPerPageChange?.(pageSize);
          else setPagination({ pageIndex: 0, pageSize });
        }}
      />
    </div>
  );
}

function renderCell<Row>(column: DataTableColumn<Row>, row: Row, value: unknown): ReactNode {
  if (!column.cell) return formatCellValue(value);
  const rendered = column.cell(row);
  return rendered === null || rendered === undefined || rendered === false || isEmptyCellValue(rendered)
    ? EMPTY_CELL
    : rendered;
}

function SortIcon({ state }: { state: "ascending" | "descending" | "none" }) {
  if (state === "ascending") return <ArrowUp className="size-3.5" aria-hidden="true" />;
  if (state === "descending") return <ArrowDown className="size-3.5" aria-hidden="true" />;
  return <ArrowUpDown className="size-3.5 text-gray-400" aria-hidden="true" />;
}
