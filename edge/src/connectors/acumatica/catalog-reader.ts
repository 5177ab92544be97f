import { toCents } from "@stockbridge/shared";
import { AcumaticaError } from "./failures.ts";
import type { AcumaticaApi } from "./session.ts";
import {
  emptyTotals,
  number,
  readWarehouseTotals,
  text,
  type WarehouseQuantities,
  type Wrapped,
} from "./warehouse-totals.ts";

/** One ERP item as the catalog keeps it (money in cents, quantities summed over warehouses). */
export interface AcumaticaItemRow {
  /** The record's persistent id (NoteID). */
  acumaticaId: string;
  sku: string;
  description: string;
  defaultPriceCents: number;
  msrpCents: number | null;
  available: number | null;
  onHand: number | null;
  availableForShipping: number | null;
  isStockItem: boolean;
  /** Per-warehouse quantities of a stock item (empty for a non-stock one). */
  warehouses: WarehouseQuantities[];
}

/** How far a pull got: the entity being read, its pages done, and the items counted so far. */
export interface AcumaticaPullCheckpoint {
  entity: "StockItem" | "NonStockItem";
  pages: number;
  stockItems: number;
  nonStockItems: number;
}

export interface AcumaticaCatalogSummary {
  stockItems: number;
  nonStockItems: number;
  quantityRows: number;
}

export interface ReadAcumaticaCatalogOptions {
  /** Items per `$top` page. */
  pageSize: number;
  /** Pages requested at once (within the session's own concurrency cap). */
  parallelPages: number;
  /** Rows in chunks; the next chunk waits until this resolves. */
  onRows(rows: AcumaticaItemRow[]): Promise<void>;
  /** Where an earlier attempt of this pull got to: pages already read (and their rows kept) are not read again. */
  resumeFrom?: AcumaticaPullCheckpoint | null;
  /** Told after each page's rows were kept (`onRows` resolved): save it to resume from there. */
  onPage?(checkpoint: AcumaticaPullCheckpoint): Promise<void>;
  onProgress?(progress: { done: number; total: number | null; phase: string }): void;
}

/**
 * Reads the ERP catalog without one request per item: warehouse quantities for every stock item
 * from one StorageDetailsInquiry (streamed, summed per item), then StockItem and NonStockItem in
 * `$top`/`$skip` pages with `$select`. Field names follow the endpoint version (acumatica.md §3).
 */
export async function readAcumaticaCatalog(
  api: AcumaticaApi,
  apiVersion: string,
  options: ReadAcumaticaCatalogOptions,
): Promise<AcumaticaCatalogSummary> {
  const major = Number(apiVersion.split(".")[0]);
  const from = options.resumeFrom ?? null;
  const summary: AcumaticaCatalogSummary = {
    stockItems: from?.stockItems ?? 0,
    nonStockItems: from?.nonStockItems ?? 0,
    quantityRows: 0,
  };
  const progress = (phase: string) =>
    options.onProgress?.({ done: summary.stockItems + summary.nonStockItems, total: null, phase });
  const saved = (entity: AcumaticaPullCheckpoint["entity"], pages: number) =>
    options.onPage?.({ entity, pages, stockItems: summary.stockItems, nonStockItems: summary.nonStockItems });

  if (from?.entity !== "NonStockItem") {
    // Read again on a resumed pull too: one inquiry, and quantities may have moved meanwhile.
    progress("Reading Acumatica warehouse quantities");
    const { totals: quantities, rows: quantityRows } = await readWarehouseTotals(api, major);
    summary.quantityRows = quantityRows;

    progress("Reading Acumatica stock items");
    const stockFields = ["InventoryID", "Description", "DefaultPrice", "MSRP"];
    const firstPage = from?.entity === "StockItem" ? from.pages : 0;
    await readPages(
      api,
      { entity: "StockItem", fields: stockFields, options: { ...options, firstPage } },
      async (records, pages) => {
        const rows = records.map((record) => {
          const row = itemRow(record, true);
          const totals = quantities.get(row.sku) ?? emptyTotals();
          return { ...row, ...totals };
        });
        summary.stockItems += rows.length;
        await options.onRows(rows);
        await saved("StockItem", pages);
        progress("Reading Acumatica stock items");
      },
    );
    await saved("NonStockItem", 0);
  }

  progress("Reading Acumatica non-stock items");
  // NonStockItem has MSRP only from 22.200.001 on.
  const nonStockFields = ["InventoryID", "Description", "DefaultPrice", ...(major >= 22 ? ["MSRP"] : [])];
  const firstPage = from?.entity === "NonStockItem" ? from.pages : 0;
  await readPages(
    api,
    { entity: "NonStockItem", fields: nonStockFields, options: { ...options, firstPage } },
    async (records, pages) => {
      const rows = records.map((record) => itemRow(record, false));
      summary.nonStockItems += rows.length;
      await options.onRows(rows);
      await saved("NonStockItem", pages);
      progress("Reading Acumatica non-stock items");
    },
  );
  return summary;
}

/**
 * Pages of `$top` records until a short page, `parallelPages` requests kept in flight: as soon as
 * a page arrives the next one is asked for, so the ERP is never idle while a page is written.
 * Pages are handled in order, from `firstPage`; `handle` learns how many pages are done with it.
 * Requests already sent past the end are awaited (empty) and dropped.
 */
async function readPages(
  api: AcumaticaApi,
  read: { entity: string; fields: string[]; options: ReadAcumaticaCatalogOptions & { firstPage: number } },
  handle: (records: Wrapped[], pagesDone: number) => Promise<void>,
) {
  const { entity, fields, options } = read;
  const size = options.pageSize;
  const page = async (index: number) => {
    const records = await api.get<unknown>(entity, {
      $select: fields.join(","),
      $top: size,
      $skip: index * size,
    });
    if (!Array.isArray(records))
      throw new AcumaticaError(`${entity} list answered something that is not a list`, "protocol");
    return records as Wrapped[];
  };
  const inFlight: Promise<Wrapped[]>[] = [];
  let next = options.firstPage;
  let done = options.firstPage;
  const ask = () => {
    const request = page(next++);
    // A failure surfaces when its turn comes (or is dropped if the end was reached first).
    request.catch(() => {});
    inFlight.push(request);
  };
  for (let index = 0; index < Math.max(1, options.parallelPages); index += 1) ask();
  try {
    for (;;) {
      const records = await (inFlight.shift() as Promise<Wrapped[]>);
      const ended = records.length < size;
      if (!ended) ask();
      done += 1;
      if (records.length > 0) await handle(records, done);
      if (ended) return;
    }
  } finally {
    // The session is logged out after this read: no request of it may still be running.
    await Promise.allSettled(inFlight);
  }
}

function itemRow(record: Wrapped, isStockItem: boolean): AcumaticaItemRow {
  const id = typeof record.id === "string" ? record.id : "";
  const sku = text(record.InventoryID);
  if (!id || !sku) throw new AcumaticaError("an item came back without its id or InventoryID", "protocol");
  const msrp = number(record.MSRP);
  return {
    acumaticaId: id,
    sku,
    description: text(record.Description),
    defaultPriceCents: toCents(number(record.DefaultPrice) ?? 0),
    msrpCents: msrp === null ? null : toCents(msrp),
    available: null,
    onHand: null,
    availableForShipping: null,
    isStockItem,
    warehouses: [],
  };
}
