import { type DriftField, type DriftItem, type DriftSummary, formatMoney } from "@stockbridge/shared";
import { format } from "date-fns";

export const FIELD_LABELS: Record<DriftField, string> = {
  price: "Price",
  compareAtPrice: "Compare At Price",
  quantity: "Quantity",
};

/** A value as the product lists show it: dollars with two decimals, units, '-' for none. */
export function driftValue(item: Pick<DriftItem, "field">, value: number | null): string {
  if (value === null) return "-";
  return item.field === "quantity" ? String(value) : formatMoney(value);
}

/** A Shopify location's GraphQL id as people read it ('Location 123'); '-' for prices. */
export function locationLabel(location: string | null): string {
  if (!location) return "-";
  const id = location.match(/\/(\d+)$/)?.[1];
  return id ? `Location ${id}` : location;
}

/** 'Checked Nov 21, 2026 10:15 · 12 of 240 mappings differ', or why there is nothing yet. */
export function checkedText(summary: Pick<DriftSummary, "checkedAt" | "mappings" | "drifted">): string {
  if (!summary.checkedAt) return "Not checked yet";
  const date = new Date(summary.checkedAt);
  const when = Number.isNaN(date.getTime()) ? summary.checkedAt : format(date, "MMM d, yyyy HH:mm");
  const what = summary.mappings === 1 ? "mapping" : "mappings";
  return `Checked ${when} · ${summary.drifted} of ${summary.mappings} ${what} differ`;
}

/** The confirmation's text: how many mappings the sync writes, and what. */
export function fixMessage(summary: Pick<DriftSummary, "drifted" | "byField">): string {
  const prices = summary.byField.price + summary.byField.compareAtPrice > 0;
  const quantities = summary.byField.quantity > 0;
  const what = [prices ? "prices" : null, quantities ? "quantities" : null].filter(Boolean).join(" and ");
  const mappings =
    summary.drifted === 1 ? "1 mapping that differs" : `${summary.drifted} mappings that differ`;
  return `Sync the ${mappings}? The ERP's ${what} will be written to Shopify, and the run is recorded in Execution History.`;
}
