import { DEFAULT_PAGE_SIZE } from "@stockbridge/shared";
import { useEffect, useState } from "react";
import type { DataTableServerMode } from "../ui/data-table/data-table.tsx";

/** Page, size and search of a server-paged list; a new size or search goes back to page 1. */
export function usePagedSearch() {
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(DEFAULT_PAGE_SIZE);
  const [search, setSearch] = useState("");

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
      onSearchChange(text) {
        setSearch(text);
        setPage(1);
      },
    };
  }

  return { page, limit, search, params: { page, limit, search }, setPage, server };
}

/** A page past the end (the list shrank after a pull or a delete) moves to the last page that exists. */
export function useClampPage(page: number, totalPages: number | undefined, setPage: (page: number) => void) {
  useEffect(() => {
    if (totalPages !== undefined && totalPages > 0 && page > totalPages) setPage(totalPages);
  }, [page, totalPages, setPage]);
}
