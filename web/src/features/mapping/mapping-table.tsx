import type { Mapping } from "@stockbridge/shared";
import { useQuery } from "@tanstack/react-query";
import { AlertTriangle, Pencil, RefreshCw, Trash2 } from "lucide-react";
import { isPendingRow } from "../../db/mirror-rows.ts";
import { useApi } from "../../lib/services-context.tsx";
import { useClampPage, usePagedSearch } from "../../lib/use-paged-search.ts";
import { IconButton } from "../../ui/button.tsx";
import { Chip } from "../../ui/chip.tsx";
import { DataTable, type DataTableColumn } from "../../ui/data-table/data-table.tsx";
import { PendingChip } from "../pwa/pending-chip.tsx";
import { formatShortDate, mappingTypeLabel } from "./mapping-logic.ts";
import { mappingHistoryQuery } from "./queries.ts";

export interface MappingTableProps {
  /** Ids of the mappings whose sync is running. */
  syncing: ReadonlySet<string>;
  onSync(mapping: Mapping): void;
  onEdit(mapping: Mapping): void;
  onDelete(mapping: Mapping): void;
}

/** The Mapping tab: every mapping, server-paged and searchable, with Sync / Edit / Delete. */
export function MappingTable({ syncing, onSync, onEdit, onDelete }: MappingTableProps) {
  const api = useApi();
  const table = usePagedSearch();
  const history = useQuery(mappingHistoryQuery(api, table.params));
  const data = history.data;
  // A delete can empty the last page: step back to the new last page.
  useClampPage(table.page, data?.totalPages, table.setPage);

  const columns: DataTableColumn<Mapping>[] = [
    {
      id: "shopifySku",
      header: "Shopify SKU",
      accessor: "shopifyDetails.sku",
      cell: (row) => (
        <SkuCell sku={row.shopifyDetails.sku} missing={row.shopifyDetails.missing} system="Shopify" />
      ),
    },
    {
      id: "acumaticaSku",
      header: "Acumatica SKU",
      accessor: "acumaticaDetails.sku",
      cell: (row) => (
        <SkuCell sku={row.acumaticaDetails.sku} missing={row.acumaticaDetails.missing} system="Acumatica" />
      ),
    },
    {
      id: "mappingType",
      header: "Mapping Type",
      accessor: (row) => mappingTypeLabel(row.mappingType),
      className: "whitespace-nowrap",
    },
    {
      id: "updatedAt",
      header: "Last Updated",
      accessor: (row) => formatShortDate(row.updatedAt),
      className: "whitespace-nowrap tabular-nums",
    },
    {
      id: "actions",
      header: "Actions",
      pinned: true,
      align: "right",
      searchable: false,
      cell: (row) => {
        const busy = syncing.has(row._id);
        const pair = `mapping ${row.shopifyDetails.sku || row.shopifyDetails.variantId} / ${row.acumaticaDetails.sku || row.acumaticaDetails.acumaticaId}`;
        return (
          <div className="flex items-center justify-end gap-1">
            {isPendingRow(row) ? <PendingChip /> : null}
            {busy ? (
              <Chip tone="primary" className="mr-1">
                Syncing...
              </Chip>
            ) : null}
            <IconButton
              label={`Sync ${pair}`}
              icon={<RefreshCw className="size-4" aria-hidden="true" />}
              loading={busy}
              onClick={() => onSync(row)}
            />
            <IconButton
              label={`Edit ${pair}`}
              icon={<Pencil className="size-4" aria-hidden="true" />}
              disabled={busy}
              onClick={() => onEdit(row)}
            />
            <IconButton
              label={`Delete ${pair}`}
              icon={<Trash2 className="size-4" aria-hidden="true" />}
              disabled={busy}
              onClick={() => onDelete(row)}
              className="hover:bg-red-50 hover:text-red-700"
            />
          </div>
        );
      },
    },
  ];

  return (
    <DataTable
      label="Mappings"
      columns={columns}
      rows={data?.mappings ?? []}
      loading={history.isFetching}
      searchable
      showIndex
      server={table.server(data?.total ?? 0)}
    />
  );
}

/** A SKU, and when the pull no longer found that side, a warning that the mapping is broken. */
function SkuCell({ sku, missing, system }: { sku: string; missing: boolean; system: string }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <span className={missing ? "whitespace-nowrap text-gray-500 line-through" : "whitespace-nowrap"}>
        {sku || "-"}
      </span>
      {missing ? (
        <Chip tone="warning" icon={<AlertTriangle className="size-3" aria-hidden="true" />}>
          Missing in {system}
        </Chip>
      ) : null}
    </span>
  );
}
