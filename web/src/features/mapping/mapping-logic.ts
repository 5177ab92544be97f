import {
  type FieldChange,
  formatMoney,
  type Mapping,
  type MappingSyncResult,
  MESSAGES,
  type Unmapped,
} from "@stockbridge/shared";
import type { UnmappedSystem } from "../../db/list-indexes.ts";

/** One row of the Unmapped Products tab: a product of one system, the other side blank. */
export interface UnmappedRow {
  _id: string;
  shopifySku: string | null;
  acumaticaSku: string | null;
}

/** The window of each list one request asks for (the query strings of `GET /mapping/unmapped`). */
export interface UnmappedRequest {
  limit: number;
  shopifyOffset: number;
  acumaticaOffset: number;
  search: string;
  sortDirection: "asc" | "desc";
}

/** Page, size, search and sort of the Unmapped Products table. */
export interface UnmappedView {
  page: number;
  limit: number;
  search: string;
  sort: { id: string; direction: "asc" | "desc" };
}

/** The spec's default order: Shopify SKU descending. */
export const UNMAPPED_DEFAULT_SORT = { id: "shopifySku", direction: "desc" } as const;

/**
 * The table is one list: the sorted column's system first, then the other (its SKU cell is
 * blank, and blanks sort last either way), both in the sort's direction.
 */
export function firstSystem(view: Pick<UnmappedView, "sort">): UnmappedSystem {
  return view.sort.id === "acumaticaSku" ? "acumatica" : "shopify";
}

/**
 * The request for one page of the table: the first list from the page's offset, the second from
 * where the first list ends (`firstTotal`, the first list's size as last answered; on page 1 it
 * does not matter). The answer carries the totals, so a stale `firstTotal` is corrected by the
 * next request.
 */
export function unmappedRequest(view: UnmappedView, firstTotal: number): UnmappedRequest {
  const offset = (view.page - 1) * view.limit;
  const secondOffset = Math.max(0, offset - firstTotal);
  const shopifyFirst = firstSystem(view) === "shopify";
  return {
    limit: view.limit,
    shopifyOffset: shopifyFirst ? offset : secondOffset,
    acumaticaOffset: shopifyFirst ? secondOffset : offset,
    search: view.search,
    sortDirection: view.sort.direction,
  };
}

/** The table's rows of one answer: the first list's rows, then the second's, one page in all. */
export function unmappedRows(
  unmapped: Unmapped | undefined,
  view: Pick<UnmappedView, "limit" | "sort">,
): UnmappedRow[] {
  if (!unmapped) return [];
  const shopify = unmapped.shopify.map((product) => ({
    _id: `shopify:${product._id}`,
    shopifySku: skuLabel(product.sku, product.variantId),
    acumaticaSku: null,
  }));
  const acumatica = unmapped.acumatica.map((product) => ({
    _id: `acumatica:${product._id}`,
    shopifySku: null,
    acumaticaSku: skuLabel(product.sku, product.acumaticaId),
  }));
  const rows = firstSystem(view) === "shopify" ? [...shopify, ...acumatica] : [...acumatica, ...shopify];
  return rows.slice(0, view.limit);
}

/** Both lists' unmapped products (matching the search), the table's row count. */
export function unmappedTotal(unmapped: Unmapped | undefined): number {
  return unmapped ? unmapped.shopifyTotal + unmapped.acumaticaTotal : 0;
}

/** A choice of a manual-mapping pick list: the id the API takes and the SKU people read. */
export interface ProductChoice {
  id: string;
  sku: string;
}

/**
 * The pick list of one side: the unmapped products, plus (when editing) the mapping's current
 * product, which is mapped and so not in the unmapped list. First, so it is easy to keep.
 */
export function productChoices(
  products: ReadonlyArray<{ id: string; sku: string }>,
  current?: ProductChoice | null,
): ProductChoice[] {
  const choices = products.map((product) => ({ id: product.id, sku: skuLabel(product.sku, product.id) }));
  if (!current || choices.some((choice) => choice.id === current.id)) return choices;
  return [{ id: current.id, sku: skuLabel(current.sku, current.id) }, ...choices];
}

/** Case-insensitive SKU match, at most `limit` results. */
export function filterChoices(
  choices: readonly ProductChoice[],
  query: string,
  limit: number,
): ProductChoice[] {
  const needle = query.trim().toLowerCase();
  const matches = needle ? choices.filter((choice) => choice.sku.toLowerCase().includes(needle)) : choices;
  return matches.slice(0, limit);
}

function skuLabel(sku: string, id: string): string {
  return sku.trim() === "" ? `(no SKU) ${id}` : sku;
}

export function mappingTypeLabel(type: Mapping["mappingType"]): string {
  return type === "exact-sku" ? "Exact SKU" : "Manual";
}

/** Last Updated: en-US short date (spec section 9), e.g. 11/21/2026. */
export function formatShortDate(iso: string | null | undefined): string {
  if (!iso) return "-";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "-" : date.toLocaleDateString("en-US");
}

const FIELD_LABELS: Record<FieldChange["field"], string> = {
  price: "Price",
  compareAtPrice: "Compare-at price",
  quantity: "Quantity",
};

/** A planned change as people read it: "Price", "12.00", "15.00" (no compare-at price is '-'). */
export function describeChange(change: FieldChange): { label: string; from: string; to: string } {
  const show = (value: number | null) =>
    change.field === "quantity" ? (value === null ? "-" : String(value)) : formatMoney(value);
  // A saved location mapping writes several locations: each quantity change says where.
  const label = change.location
    ? `${FIELD_LABELS[change.field]} (${change.location})`
    : FIELD_LABELS[change.field];
  return { label, from: show(change.from), to: show(change.to) };
}

/** The toast after a real sync of one mapping. */
export function syncOutcomeToast(result: MappingSyncResult | undefined): {
  tone: "success" | "warning" | "error";
  text: string;
} {
  if (!result) return { tone: "error", text: MESSAGES.mapping.syncFailed };
  if (result.outcome === "succeeded" || result.outcome === "unchanged") {
    return { tone: "success", text: MESSAGES.mapping.synchronized };
  }
  if (result.outcome === "skipped") {
    return {
      tone: "warning",
      text: result.reason ? `Nothing synchronized: ${result.reason}` : "Nothing synchronized",
    };
  }
  return { tone: "error", text: result.reason || MESSAGES.mapping.syncFailed };
}
