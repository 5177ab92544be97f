import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { useApi } from "../../lib/services-context.tsx";
import { DataTable, type DataTableColumn } from "../../ui/data-table/data-table.tsx";
import { type UnmappedRow, unmappedRows } from "./mapping-logic.ts";
import { unmappedQuery } from "./queries.ts";

const COLUMNS: DataTableColumn<UnmappedRow>[] = [
  { id: "shopifySku", header: "Shopify SKU", sortable: true },
  { id: "acumaticaSku", header: "Acumatica SKU", sortable: true },
];

/** The Unmapped Products tab: both catalogs' unmapped products, searched and sorted in the browser. */
export function UnmappedTable() {
  const api = useApi();
  const unmapped = useQuery(unmappedQuery(api));
  const rows = useMemo(() => unmappedRows(unmapped.data), [unmapped.data]);
  return (
    <DataTable
      label="Unmapped products"
      columns={COLUMNS}
      rows={rows}
      loading={unmapped.isFetching}
      searchable
      initialSort={{ id: "shopifySku", direction: "desc" }}
    />
  );
}
