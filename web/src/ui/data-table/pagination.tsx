import { ChevronLeft, ChevronRight, ChevronsLeft, ChevronsRight } from "lucide-react";
import { useId } from "react";
import { IconButton } from "../button.tsx";
import { pageCount, pageRange } from "./table-logic.ts";

export interface PaginationProps {
  /** Zero-based. */
  pageIndex: number;
  pageSize: number;
  total: number;
  onPageIndexChange(pageIndex: number): void;
  /** Page-size choices; leave out for a fixed size. */
  pageSizeOptions?: readonly number[] | undefined;
  onPageSizeChange?(pageSize: number): void;
}

export function Pagination({
  pageIndex,
  pageSize,
  total,
  onPageIndexChange,
  pageSizeOptions,
  onPageSizeChange,
}: PaginationProps) {
  const sizeId = useId();
  const pages = pageCount(pageSize, total);
  const { from, to } = pageRange(pageIndex, pageSize, total);
  const first = pageIndex <= 0;
  const last = pageIndex >= pages - 1;
  return (
    <div className="flex flex-wrap items-center justify-end gap-x-6 gap-y-2 border-t border-gray-200 px-4 py-3 text-sm text-gray-700">
      {pageSizeOptions && onPageSizeChange ? (
        <div className="flex items-center gap-2">
          <label htmlFor={sizeId}>Rows per page</label>
          <select
            id={sizeId}
            value={pageSize}
            onChange={(event) => onPageSizeChange(Number(event.target.value))}
            className="h-8 rounded-md border-0 bg-white pr-7 pl-2 text-sm shadow-sm ring-1 ring-gray-300 ring-inset"
          >
            {pageSizeOptions.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <p aria-live="polite">
        {from}–{to} of {total}
      </p>
      <nav aria-label="Pagination" className="flex items-center gap-1">
        <IconButton
          label="First page"
          icon={<ChevronsLeft className="size-4" aria-hidden="true" />}
          disabled={first}
          onClick={() => onPageIndexChange(0)}
        />
        <IconButton
          label="Previous page"
          icon={<ChevronLeft className="size-4" aria-hidden="true" />}
          disabled={first}
          onClick={() => onPageIndexChange(pageIndex - 1)}
        />
        <IconButton
          label="Next page"
          icon={<ChevronRight className="size-4" aria-hidden="true" />}
          disabled={last}
          onClick={() => onPageIndexChange(pageIndex + 1)}
        />
        <IconButton
          label="Last page"
          icon={<ChevronsRight className="size-4" aria-hidden="true" />}
          disabled={last}
          onClick={() => onPageIndexChange(pages - 1)}
        />
      </nav>
    </div>
  );
}
