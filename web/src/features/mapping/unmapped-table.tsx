import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useApi } from "../../lib/services-context.tsx";
import { useClampPage, usePagedSearch } from "../../lib/use-paged-search.ts";
import { DataTable, type DataTableColumn } from "../../ui/data-table/data-table.tsx";
import type { SortState } from "../../ui/data-table/table-logic.ts";
import {
  firstSystem,
  UNMAPPED_DEFAULT_SORT,
  type UnmappedRow,
  unmappedRequest,
  unmappedRows,
  unmappedTotal,
} from "./mapping-logic.ts";
import { unmappedQuery } from "./queries.ts";

const COLUMNS: DataTableColumn<UnmappedRow>[] = [
  { id: "shopifySku", header: "Shopify SKU", sortable: true },
  { id: "acumaticaSku", header: "Acumatica SKU", sortable: true },
];

/**
 * The Unmapped Products tab: both catalogs' unmapped products as one table, paged, searched and
 * sorted by the server (a catalog may hold 100,000 of them), one page of rows at a time.
 */
export function UnmappedTable() {
  const api = useApi();
  const table = usePagedSearch();
  const [sort, setSort] = useState<SortState>(UNMAPPED_DEFAULT_SORT);
  // Where the first list ends, as last answered: the second list's rows start there.
  const [firstTotal, setFirstTotal] = useState(0);
  const view = { page: table.page, limit: table.limit, search: table.search, sort };
  const unmapped = useQuery(unmappedQuery(api, unmappedRequest(view, firstTotal)));
  const data = unmapped.data;
  const answeredFirstTotal =
    data && !unmapped.isPlaceholderData
      ? firstSystem(view) === "shopify"
        ? data.shopifyTotal
        : data.acumaticaTotal
      : undefined;
  useEffect(() => {
    if (answeredFirstTotal !== undefined) setFirstTotal(answeredFirstTotal);
  }, [answeredFirstTotal]);
  const total = unmappedTotal(data);
  // Mapping products shrinks the list: a page past the end steps back to the last one.
  useClampPage(table.page, data ? Math.ceil(total / table.limit) : undefined, table.setPage);

  return (
    <DataTable
      label="Unmapped products"
      columns={COLUMNS}
      rows={unmappedRows(data, view)}
      loading={unmapped.isFetching}
      searchable
      server={{
        ...table.server(total),
        sort,
        onSortChange(next) {
          setSort(next);
          table.setPage(1);
        },
      }}
    />
  );
}
