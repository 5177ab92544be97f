import { toCents } from "@stockbridge/shared";
import { AcumaticaError } from "./failures.ts";
import type { AcumaticaApi } from "./session.ts";
import {
  addRow,
  emptyTotals,
  number,
  readWarehouseTotals,
  type Totals,
  type TotalsLookup,
  text,
  type WarehouseQuantities,
  type Wrapped,
} from "./warehouse-totals.ts";

/** The ERP's current values of one item (prices in cents, quantities summed over warehouses and per warehouse). */
export interface ErpValues {
  inventoryId: string;
  defaultPriceCents: number | null;
  msrpCents: number | null;
  isStockItem: boolean;
  /** Null for a non-stock item, which has no quantities. */
  available: number | null;
  onHand: number | null;
  availableForShipping: number | null;
  warehouses: WarehouseQuantities[];
}

/** A mapped ERP item: its persistent id (NoteID, what the mapping stores) and InventoryID (the key to ask by). */
export interface ErpKey {
  acumaticaId: string;
  inventoryId: string;
}

/** Per mapping's acumaticaId: the ERP's current values, or null when the item no longer exists. */
export interface ErpReading {
  get(acumaticaId: string): ErpValues | null | undefined;
  /** How many of the keys asked for were found. */
  readonly found: number;
}

/** InventoryIDs per `$filter` (an `or` chain keeps the URL well under common limits). */
const FILTER_BATCH = 40;
/** Above this many items the whole lists are paged instead of filtered. */
const LIST_THRESHOLD = 1_000;
const PAGE_SIZE = 1_000;
const PARALLEL_PAGES = 3;
/** Up to this many stock items read their quantities one inquiry each; more read one warehouse-wide inquiry. */
const PER_ITEM_QUANTITIES = 5;

interface ItemRecord {
  id: string;
  inventoryId: string;
  defaultPriceCents: number | null;
  msrpCents: number | null;
  isStockItem: boolean;
}

/**
 * Prices from StockItem / NonStockItem ($filter on InventoryID in batches, or `$top`/`$skip` pages
 * for a large scope) and quantities from inquiries summed over warehouses: one inquiry per item for
 * a handful, else one StorageDetailsInquiry for all. Never one request per item for a big scope.
 */
export async function readErpItems(
  api: AcumaticaApi,
  apiVersion: string,
  keys: ErpKey[],
): Promise<ErpReading> {
  const major = Number(apiVersion.split(".")[0]);
  const records =
    keys.length > LIST_THRESHOLD ? await listAll(api, major) : await filterByKeys(api, major, keys);
  const byId = new Map(records.map((record) => [record.id, record]));
  // Matched by NoteID; by InventoryID (exact, then case-insensitive as Acumatica keys are) as a fallback.
  const byInventoryId = new Map(records.map((record) => [record.inventoryId, record]));
  const byKey = new Map(records.map((record) => [record.inventoryId.toUpperCase(), record]));
  const found = keys.map((key) => {
    const inventoryId = key.inventoryId.trim();
    return {
      key,
      record:
        byId.get(key.acumaticaId) ??
        byInventoryId.get(inventoryId) ??
        byKey.get(inventoryId.toUpperCase()) ??
        null,
    };
  });

  const stock = found.flatMap(({ record }) => (record?.isStockItem ? [record.inventoryId] : []));
  const quantities: TotalsLookup =
    stock.length === 0
      ? new Map<string, Totals>()
      : stock.length <= PER_ITEM_QUANTITIES
        ? await perItemQuantities(api, stock)
        : (await readWarehouseTotals(api, major)).totals;

  const reading = new ErpTable(quantities);
  for (const { key, record } of found) reading.set(key.acumaticaId, record);
  return reading;
}

/**
 * The items found per acumaticaId, each ErpValues made (with its warehouse quantities) only when
 * asked for: as objects a full sync's read held about 300 bytes per item for the whole run.
 */
class ErpTable implements ErpReading {
  readonly #records = new Map<string, Omit<ItemRecord, "id"> | null>();
  found = 0;

  constructor(private readonly quantities: TotalsLookup) {}

  set(acumaticaId: string, record: ItemRecord | null): void {
    if (!record) {
      this.#records.set(acumaticaId, null);
      return;
    }
    this.found += 1;
    // The NoteID is the key already: the values need the rest.
    const { inventoryId, defaultPriceCents, msrpCents, isStockItem } = record;
    this.#records.set(acumaticaId, { inventoryId, defaultPriceCents, msrpCents, isStockItem });
  }

  get(acumaticaId: string): ErpValues | null | undefined {
    const record = this.#records.get(acumaticaId);
    if (!record) return record;
    // A non-stock item has no quantities at all (the pull stores none, the lists show '-'); a stock
    // item without warehouse rows has none on hand.
    const totals = record.isStockItem
      ? (this.quantities.get(record.inventoryId) ?? emptyTotals())
      : { available: null, onHand: null, availableForShipping: null, warehouses: [] };
    return {
      inventoryId: record.inventoryId,
      defaultPriceCents: record.defaultPriceCents,
      msrpCents: record.msrpCents,
      isStockItem: record.isStockItem,
      ...totals,
    };
  }
}

function fieldsFor(major: number, stock: boolean): string {
  // NonStockItem has MSRP only from 22.200.001 on.
  return ["InventoryID", "DefaultPrice", ...(stock || major >= 22 ? ["MSRP"] : [])].join(",");
}

async function filterByKeys(api: AcumaticaApi, major: number, keys: ErpKey[]): Promise<ItemRecord[]> {
  const ids = [...new Set(keys.map((key) => key.inventoryId.trim()).filter(Boolean))];
  const stock = await filtered(api, {
    entity: "StockItem",
    select: fieldsFor(major, true),
    ids,
    isStockItem: true,
  });
  // Whatever StockItem did not know is looked for among the non-stock items (services, fees).
  const seen = new Set(stock.map((record) => record.inventoryId.toUpperCase()));
  const rest = ids.filter((id) => !seen.has(id.toUpperCase()));
  const nonStock =
    rest.length > 0
      ? await filtered(api, {
          entity: "NonStockItem",
          select: fieldsFor(major, false),
          ids: rest,
          isStockItem: false,
        })
      : [];
  return [...stock, ...nonStock];
}

async function filtered(
  api: AcumaticaApi,
  query: { entity: string; select: string; ids: string[]; isStockItem: boolean },
): Promise<ItemRecord[]> {
  const { entity, select, ids, isStockItem } = query;
  const batches: string[][] = [];
  for (let start = 0; start < ids.length; start += FILTER_BATCH)
    batches.push(ids.slice(start, start + FILTER_BATCH));
  const pages = await Promise.all(
    batches.map(async (batch) => {
      // OData string literals double their single quotes.
      const filter = batch.map((id) => `InventoryID eq '${id.replace(/'/g, "''")}'`).join(" or ");
      return listOf(entity, await api.get<unknown>(entity, { $select: select, $filter: filter }));
    }),
  );
  return pages.flat().map((record) => toRecord(record, isStockItem));
}

async function listAll(api: AcumaticaApi, major: number): Promise<ItemRecord[]> {
  const [stock, nonStock] = await Promise.all([
    pages(api, { entity: "StockItem", select: fieldsFor(major, true), isStockItem: true }),
    pages(api, { entity: "NonStockItem", select: fieldsFor(major, false), isStockItem: false }),
  ]);
  return [...stock, ...nonStock];
}

/**
 * `$top`/`$skip` pages, a wave of PARALLEL_PAGES at a time (the session caps concurrency), until a
 * short page; each page's answer becomes records at once (an answer's objects weigh several times
 * the record).
 */
async function pages(
  api: AcumaticaApi,
  query: { entity: string; select: string; isStockItem: boolean },
): Promise<ItemRecord[]> {
  const { entity, select, isStockItem } = query;
  const all: ItemRecord[] = [];
  for (let index = 0; ; index += PARALLEL_PAGES) {
    const wave = await Promise.all(
      Array.from({ length: PARALLEL_PAGES }, async (_, offset) =>
        listOf(
          entity,
          await api.get<unknown>(entity, {
            $select: select,
            $top: PAGE_SIZE,
            $skip: (index + offset) * PAGE_SIZE,
          }),
        ),
      ),
    );
    for (const records of wave) for (const record of records) all.push(toRecord(record, isStockItem));
    if (wave.some((records) => records.length < PAGE_SIZE)) return all;
  }
}

function listOf(entity: string, answer: unknown): Wrapped[] {
  if (!Array.isArray(answer))
    throw new AcumaticaError(`${entity} list answered something that is not a list`, "protocol");
  return answer as Wrapped[];
}

function toRecord(record: Wrapped, isStockItem: boolean): ItemRecord {
  const price = number(record.DefaultPrice);
  const msrp = number(record.MSRP);
  return {
    id: typeof record.id === "string" ? record.id : "",
    inventoryId: text(record.InventoryID),
    defaultPriceCents: price === null ? null : toCents(price),
    msrpCents: msrp === null ? null : toCents(msrp),
    isStockItem,
  };
}

/**
 * InventorySummaryInquiry per item: its warehouse/location rows summed. The answer ends with a
 * total row (IN401000 appends it, with no warehouse), which would count everything twice.
 */
async function perItemQuantities(api: AcumaticaApi, inventoryIds: string[]): Promise<Map<string, Totals>> {
  const totals = new Map<string, Totals>();
  await Promise.all(
    inventoryIds.map(async (inventoryId) => {
      const answer = await api.put<{ Results?: Wrapped[] } | null>(
        "InventorySummaryInquiry",
        { $expand: "Results" },
        { InventoryID: { value: inventoryId } },
      );
      const sum = emptyTotals();
      for (const row of answer?.Results ?? []) {
        const warehouseId = text(row.WarehouseID);
        if (!warehouseId) continue;
        addRow(sum, warehouseId, {
          available: number(row.QtyAvailable) ?? 0,
          onHand: number(row.QtyOnHand) ?? 0,
          availableForShipping: number(row.QtyAvailableForShipment) ?? 0,
        });
      }
      totals.set(inventoryId, sum);
    }),
  );
  return totals;
}
