import { toCents } from "@stockbridge/shared";
import { streamArrayItems } from "../json-array-stream.ts";
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
      {
        entity: "StockItem",
        fields: stockFields,
        options: { ...options, firstPage },
        toRow: (record) => {
          const row = itemRow(record, true);
          return { ...row, ...(quantities.get(row.sku) ?? emptyTotals()) };
        },
      },
      async (rows, pages) => {
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
    {
      entity: "NonStockItem",
      fields: nonStockFields,
      options: { ...options, firstPage },
      toRow: (record) => itemRow(record, false),
    },
    async (rows, pages) => {
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
 * Requests already sent past the end are awaited (empty) and dropped. Each answer is read record
 * by record into rows: a page of 1,000 items is about 480 KB of JSON, which as one text would be a
 * large object on V8's heap (freed only by a full collection), 52 of them per 52,000-item pull.
 */
async function readPages(
  api: AcumaticaApi,
  read: {
    entity: string;
    fields: string[];
    options: ReadAcumaticaCatalogOptions & { firstPage: number };
    toRow: (record: Wrapped) => AcumaticaItemRow;
  },
  handle: (rows: AcumaticaItemRow[], pagesDone: number) => Promise<void>,
) {
  const { entity, fields, options, toRow } = read;
  const size = options.pageSize;
  const page = (index: number) =>
    api.stream(
      {
        method: "GET",
        path: entity,
        query: { $select: fields.join(","), $top: size, $skip: index * size },
        body: undefined,
      },
      async (body) => {
        // Called again from scratch if the answer is cut off and retried.
        const rows: AcumaticaItemRow[] = [];
        try {
          for await (const record of streamArrayItems(body, null)) rows.push(toRow(record as Wrapped));
        } catch (error) {
          if (error instanceof SyntaxError)
            throw new AcumaticaError(`${entity} list answered something that is not a list`, "protocol");
          throw error;
        }
        return rows;
      },
    );
  const inFlight: Promise<AcumaticaItemRow[]>[] = [];
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
      const rows = await (inFlight.shift() as Promise<AcumaticaItemRow[]>);
      const ended = rows.length < size;
      if (!ended) ask();
      done += 1;
      if (rows.length > 0) await handle(rows, done);
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
