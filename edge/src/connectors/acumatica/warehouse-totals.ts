import { streamArrayItems } from "../json-array-stream.ts";
import type { AcumaticaApi } from "./session.ts";

/** A record as the contract-based API answers it: every field wrapped as `{ value }`. */
export type Wrapped = Record<string, { value?: unknown } | undefined> & { id?: unknown };

export interface Totals {
  available: number;
  onHand: number;
  availableForShipping: number;
}

/**
 * One StorageDetailsInquiry over every warehouse, streamed and summed per InventoryID; `rows`
 * counts the inquiry rows that named an item and a warehouse. Shared by the catalog pull and the sync's ERP read.
 */
export async function readWarehouseTotals(
  api: AcumaticaApi,
  major: number,
): Promise<{ totals: Map<string, Totals>; rows: number }> {
  // The columns were renamed in 23.200.001 (SiteOnHand... -> QtyOnHand...).
  const names =
    major >= 23
      ? { onHand: "QtyOnHand", available: "QtyAvailable", shipping: "QtyHardAvailable", site: "WarehouseID" }
      : {
          onHand: "SiteOnHand",
          available: "SiteAvailable",
          shipping: "SiteAvailableforShipping",
          site: "SiteID",
        };
  return api.stream("PUT", "StorageDetailsInquiry", { $expand: "StorageDetails" }, {}, async (body) => {
    // Called again from scratch if the answer is cut off and retried.
    const totals = new Map<string, Totals>();
    let rows = 0;
    for await (const item of streamArrayItems(body, "StorageDetails")) {
      const row = item as Wrapped;
      const sku = text(row.InventoryID);
      // Only warehouse rows count: a summary row (no item or no warehouse) would count stock twice.
      if (!sku || !text(row[names.site])) continue;
      rows += 1;
      const current = totals.get(sku) ?? { available: 0, onHand: 0, availableForShipping: 0 };
      current.available += number(row[names.available]) ?? 0;
      current.onHand += number(row[names.onHand]) ?? 0;
      current.availableForShipping += number(row[names.shipping]) ?? 0;
      totals.set(sku, current);
    }
    return { totals, rows };
  });
}

export function text(field: { value?: unknown } | undefined): string {
  return typeof field?.value === "string" ? field.value.trim() : "";
}

export function number(field: { value?: unknown } | undefined): number | null {
  const value = field?.value;
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}
