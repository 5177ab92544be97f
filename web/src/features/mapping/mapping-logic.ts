import {
  type FieldChange,
  formatMoney,
  type Mapping,
  type MappingSyncResult,
  MESSAGES,
  type Unmapped,
} from "@stockbridge/shared";

/** One row of the Unmapped Products tab: a product of one system, the other side blank. */
export interface UnmappedRow {
  _id: string;
  shopifySku: string | null;
  acumaticaSku: string | null;
}

/** Both unmapped lists as one table; a blank SKU still shows the product, by its id. */
export function unmappedRows(unmapped: Unmapped | undefined): UnmappedRow[] {
  if (!unmapped) return [];
  return [
    ...unmapped.shopify.map((product) => ({
      _id: `shopify:${product._id}`,
      shopifySku: skuLabel(product.sku, product.variantId),
      acumaticaSku: null,
    })),
    ...unmapped.acumatica.map((product) => ({
      _id: `acumatica:${product._id}`,
      shopifySku: null,
      acumaticaSku: skuLabel(product.sku, product.acumaticaId),
    })),
  ];
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

/** Case-insensitive SKU match, at most `limit` results so a 100k catalog stays responsive. */
export function filterChoices(
  choices: readonly ProductChoice[],
  query: string,
  limit: number,
): { shown: ProductChoice[]; matched: number } {
  const needle = query.trim().toLowerCase();
  const matches = needle ? choices.filter((choice) => choice.sku.toLowerCase().includes(needle)) : choices;
  return { shown: matches.slice(0, limit), matched: matches.length };
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
  return { label: FIELD_LABELS[change.field], from: show(change.from), to: show(change.to) };
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
