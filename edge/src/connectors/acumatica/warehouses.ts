import type { AcumaticaWarehouse } from "@stockbridge/shared";
import { AcumaticaError } from "./failures.ts";
import type { AcumaticaApi } from "./session.ts";
import { text, type Wrapped } from "./warehouse-totals.ts";

/** The ERP's warehouses from the Warehouse entity (a handful: one request, no paging). */
export async function readWarehouses(api: AcumaticaApi): Promise<AcumaticaWarehouse[]> {
  const answer = await api.get<unknown>("Warehouse", { $select: "WarehouseID,Description" });
  if (!Array.isArray(answer))
    throw new AcumaticaError("Warehouse list answered something that is not a list", "protocol");
  return (answer as Wrapped[])
    .map((record) => ({ id: text(record.WarehouseID), description: text(record.Description) }))
    .filter((warehouse) => warehouse.id !== "")
    .sort((a, b) => a.id.localeCompare(b.id));
}
