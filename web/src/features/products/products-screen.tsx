import type { Job, User } from "@stockbridge/shared";
import { type QueryKey, type UseQueryOptions, useQuery } from "@tanstack/react-query";
import { type ReactNode, useMemo } from "react";
import type { ApiClient } from "../../lib/api.ts";
import type { ListParams } from "../../lib/list-query.ts";
import { useApi } from "../../lib/services-context.tsx";
import { useClampPage } from "../../lib/use-paged-search.ts";
import { DataTable, type DataTableColumn } from "../../ui/data-table/data-table.tsx";
import { useAuth } from "../auth/use-auth.ts";
import { LastSynced, ProductCatalog } from "./product-catalog.tsx";
import { useProductPull } from "./use-product-pull.ts";
import { useServerTable } from "./use-server-table.ts";

interface ProductRow {
  _id: string;
  lastSynced: string;
}

interface ProductPage<Row extends ProductRow> {
  products: Row[];
  total: number;
  totalPages: number;
  /** The currency the prices are in; null until a connection test has read it. */
  currencyCode: string | null;
}

/** What differs between the Shopify and the Acumatica product screens. */
export interface ProductsScreenProps<
  Row extends ProductRow,
  S extends string,
  Page extends ProductPage<Row>,
  Key extends QueryKey,
> {
  system: "Shopify" | "Acumatica";
  /** The API's sort fields; the list starts newest first (`lastSynced`, descending). */
  sortFields: readonly (S | "lastSynced")[];
  /** The table's columns, prices shown in `currencyCode`. */
  columns(currencyCode: string | null): ReadonlyArray<DataTableColumn<Row>>;
  /** Shown above the table beside the last pull's time (the Shopify screen's location picker). */
  controls?: ReactNode;
  /** The query of one page of the list (queries.ts). */
  list(api: ApiClient, params: ListParams<S | "lastSynced">): UseQueryOptions<Page, Error, Page, Key>;
  /** The user's saved connection of this system. */
  connection(user: User | null): { isVerified: boolean } | null;
  pull: {
    scope: "shopify-pull" | "acumatica-pull";
    start(api: ApiClient): Promise<{ job: Job }>;
    /** The prefix of every page of the list, reloaded after a pull. */
    listKey: readonly unknown[];
    failureMessage: string;
  };
}

/** A product screen (spec section 2): the pulled catalog, server-paged, and 'Get Products'. */
export function ProductsScreen<
  Row extends ProductRow,
  S extends string,
  Page extends ProductPage<Row>,
  Key extends QueryKey,
>(props: ProductsScreenProps<Row, S, Page, Key>) {
  const { system, pull: pullOptions } = props;
  const api = useApi();
  const { user } = useAuth();
  const table = useServerTable({
    sortFields: props.sortFields,
    defaultSort: { id: "lastSynced", direction: "desc" },
  });
  const list = useQuery(props.list(api, table.params));
  // The newest product of the default order (the dashboard asks the same page, so one request).
  const latest = useQuery(props.list(api, { page: 1, limit: 1 }));
  useClampPage(table.page, list.data?.totalPages, table.setPage);
  const pull = useProductPull({ ...pullOptions, start: () => pullOptions.start(api) });
  const currencyCode = list.data?.currencyCode ?? latest.data?.currencyCode ?? null;
  const { columns } = props;
  const shown = useMemo(() => columns(currencyCode), [columns, currencyCode]);

  return (
    <ProductCatalog
      title={`${system} Products`}
      system={system}
      connection={props.connection(user)}
      pull={pull}
    >
      <DataTable
        label={`${system} products`}
        columns={shown}
        rows={list.data?.products ?? []}
        loading={list.isFetching}
        searchable
        showIndex
        top={
          <>
            <LastSynced at={latest.data ? (latest.data.products[0]?.lastSynced ?? null) : undefined} />
            {props.controls}
          </>
        }
        server={table.server(list.data?.total ?? 0)}
      />
    </ProductCatalog>
  );
}
