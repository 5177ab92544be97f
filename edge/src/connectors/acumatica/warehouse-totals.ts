import { streamArrayItems } from "../json-array-stream.ts";
import type { AcumaticaApi } from "./session.ts";

/** A record as the contract-based API answers it: every field wrapped as `{ value }`. */
export type Wrapped = Record<string, { value?: unknown } | undefined> & { id?: unknown };

export interface Quantities {
  available: number;
  onHand: number;
  availableForShipping: number;
}

/** One warehouse's quantities of an item (its locations' rows summed). */
export interface WarehouseQuantities extends Quantities {
  warehouseId: string;
}

/** An item's quantities summed over every warehouse, and per warehouse (in WarehouseID order). */
export interface Totals extends Quantities {
  warehouses: WarehouseQuantities[];
}

export function emptyTotals(): Totals {
  return { available: 0, onHand: 0, availableForShipping: 0, warehouses: [] };
}

/** Adds one warehouse row to an item's totals (a warehouse seen again, e.g. another of its locations, adds up). */
export function addRow(totals: Totals, warehouseId: string, row: Quantities): void {
  totals.available += row.available;
  totals.onHand += row.onHand;
  totals.availableForShipping += row.availableForShipping;
  let warehouse = totals.warehouses.find((candidate) => candidate.warehouseId === warehouseId);
  if (!warehouse) {
    warehouse = { warehouseId, available: 0, onHand: 0, availableForShipping: 0 };
    totals.warehouses.push(warehouse);
    totals.warehouses.sort((a, b) => a.warehouseId.localeCompare(b.warehouseId));
  }
  warehouse.available += row.available;
  warehouse.onHand += row.onHand;
  warehouse.availableForShipping += row.availableForShipping;
}

/**
 * One StorageDetailsInquiry over every warehouse, streamed and summed per InventoryID (and per
 * warehouse of it); `rows`
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
  return api.stream(
    { method: "PUT", path: "StorageDetailsInquiry", query: { $expand: "StorageDetails" }, body: {} },
    async (body) => {
      // Called again from scratch if the answer is cut off and retried.
      const totals = new Map<string, Totals>();
      let rows = 0;
      for await (const item of streamArrayItems(body, "StorageDetails")) {
        const row = item as Wrapped;
        const sku = text(row.InventoryID);
        const warehouseId = text(row[names.site]);
        // Only warehouse rows count: a summary row (no item or no warehouse) would count stock twice.
        if (!sku || !warehouseId) continue;
        rows += 1;
        const current = totals.get(sku) ?? emptyTotals();
        addRow(current, warehouseId, {
          available: number(row[names.available]) ?? 0,
          onHand: number(row[names.onHand]) ?? 0,
          availableForShipping: number(row[names.shipping]) ?? 0,
        });
        totals.set(sku, current);
      }
      return { totals, rows };
    },
  );
}

export function text(field: { value?: unknown } | undefined): string {
  return typeof field?.value === "string" ? field.value.trim() : "";
}

export function number(field: { value?: unknown } | undefined): number | null {
  const value = field?.value;
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}
