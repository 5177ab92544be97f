import { DEFAULT_PAGE_SIZE } from "@stockbridge/shared";
import { useEffect, useState } from "react";
import type { ListParams } from "../../lib/list-query.ts";
import type { DataTableServerMode } from "../../ui/data-table/data-table.tsx";

/**
 * Page, size, search and sort of a server-paged product list. Any change of size, search or sort
 * goes back to page 1; only the API's sort fields are accepted.
 */
export function useServerTable<S extends string>(options: {
  sortFields: readonly S[];
  defaultSort: { id: S; direction: "asc" | "desc" };
}) {
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(DEFAULT_PAGE_SIZE);
  const [search, setSearch] = useState("");
  const [sort, setSort] = useState<{ id: S; direction: "asc" | "desc" }>(options.defaultSort);

  const params: ListParams<S> = { page, limit, search, sortBy: sort.id, sortDirection: sort.direction };

  function server(total: number): DataTableServerMode {
    return {
      total,
      page,
      rowsPerPage: limit,
      onPageChange: setPage,
      onRowsPerPageChange(size) {
        setLimit(size);
        setPage(1);
      },
      sort,
      onSortChange(next) {
        const field = options.sortFields.find((candidate) => candidate === next.id);
        if (!field) return;
        setSort({ id: field, direction: next.direction });
        setPage(1);
      },
      onSearchChange(text) {
        setSearch(text);
        setPage(1);
      },
    };
  }

  return { params, server, page, setPage };
}

/** A page past the end (the list shrank after a pull) moves to the last page that exists. */
export function useClampPage(page: number, totalPages: number | undefined, setPage: (page: number) => void) {
  useEffect(() => {
    if (totalPages !== undefined && totalPages > 0 && page > totalPages) setPage(totalPages);
  }, [page, totalPages, setPage]);
}
