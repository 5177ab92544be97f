import { useState } from "react";
import type { ListParams } from "../../lib/list-query.ts";
import { usePagedSearch } from "../../lib/use-paged-search.ts";
import type { DataTableServerMode } from "../../ui/data-table/data-table.tsx";

/**
 * Page, size, search and sort of a server-paged product list. Any change of size, search or sort
 * goes back to page 1; only the API's sort fields are accepted.
 */
export function useServerTable<S extends string>(options: {
  sortFields: readonly S[];
  defaultSort: { id: S; direction: "asc" | "desc" };
}) {
  const paged = usePagedSearch();
  const [sort, setSort] = useState<{ id: S; direction: "asc" | "desc" }>(options.defaultSort);

  const params: ListParams<S> = {
    page: paged.page,
    limit: paged.limit,
    search: paged.search,
    sortBy: sort.id,
    sortDirection: sort.direction,
  };

  function server(total: number): DataTableServerMode {
    return {
      ...paged.server(total),
      sort,
      onSortChange(next) {
        const field = options.sortFields.find((candidate) => candidate === next.id);
        if (!field) return;
        setSort({ id: field, direction: next.direction });
        paged.setPage(1);
      },
    };
  }

  return { params, server, page: paged.page, setPage: paged.setPage };
}
