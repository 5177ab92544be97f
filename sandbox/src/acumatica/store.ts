import type { DemoCatalog } from "../seed/catalog.ts";
import { stableGuid } from "./json.ts";

/** One warehouse's quantities of an item (INSiteStatus in Acumatica terms). */
export interface WarehouseQuantity {
  warehouseId: string;
  onHand: number;
  available: number;
  availableForShipment: number;
  /** When the quantities last changed (epoch ms); separate from the item's own LastModified. */
  lastModified: number;
}

export interface ErpItem {
  /** The NoteID: persistent, so it survives resets with the same seed. */
  id: string;
  inventoryId: string;
  description: string;
  isStockItem: boolean;
  defaultPrice: number;
  msrp: number;
  itemClass: string;
  itemStatus: string;
  lastModified: number;
  createdAt: number;
  warehouses: WarehouseQuantity[];
}

export interface ErpWarehouse {
  id: string;
  warehouseId: string;
  description: string;
  lastModified: number;
}

/** A sorted list of one entity's records plus its key and id indexes. */
export interface ItemTable {
  rows: ErpItem[];
  byKey: Map<string, ErpItem>;
  /** Upper-cased key -> first item, for case-insensitive lookups. */
  byUpperKey: Map<string, ErpItem>;
  byId: Map<string, ErpItem>;
}

export interface ErpStore {
  stock: ItemTable;
  nonStock: ItemTable;
  warehouses: ErpWarehouse[];
}

export function createStore(catalog: DemoCatalog): ErpStore {
  const stock = emptyTable();
  const nonStock = emptyTable();
  const seed = catalog.seed;
  for (const seedItem of catalog.acumatica.items) {
    const lastModified = Date.parse(seedItem.lastModified);
    const item: ErpItem = {
      id: stableGuid(`${seed}:item:${seedItem.isStockItem ? "stock" : "nonstock"}:${seedItem.inventoryId}`),
      inventoryId: seedItem.inventoryId,
      description: seedItem.description,
      isStockItem: seedItem.isStockItem,
      defaultPrice: seedItem.defaultPriceCents / 100,
      msrp: seedItem.msrpCents / 100,
      itemClass: seedItem.itemClass,
      itemStatus: seedItem.itemStatus,
      lastModified,
      createdAt: lastModified,
      warehouses: seedItem.warehouses.map((quantity) => ({ ...quantity, lastModified })),
    };
    const table = item.isStockItem ? stock : nonStock;
    if (table.byKey.has(item.inventoryId)) continue;
    table.rows.push(item);
    index(table, item);
  }
  // Lists come back in key order, like a clustered-index scan in the real database.
  sortTable(stock);
  sortTable(nonStock);
  const warehouses = catalog.acumatica.warehouses.map((warehouse) => ({
    id: stableGuid(`${seed}:warehouse:${warehouse.id}`),
    warehouseId: warehouse.id,
    description: warehouse.description,
    lastModified: Date.UTC(2026, 0, 5, 8, 0, 0),
  }));
  return { stock, nonStock, warehouses };
}

export function emptyStore(): ErpStore {
  return { stock: emptyTable(), nonStock: emptyTable(), warehouses: [] };
}

function emptyTable(): ItemTable {
  return { rows: [], byKey: new Map(), byUpperKey: new Map(), byId: new Map() };
}

function index(table: ItemTable, item: ErpItem): void {
  table.byKey.set(item.inventoryId, item);
  table.byId.set(item.id, item);
  const upper = item.inventoryId.toUpperCase();
  if (!table.byUpperKey.has(upper)) table.byUpperKey.set(upper, item);
}

/** Sorts by key with each upper-cased key computed once (100,000 items sort in tens of ms). */
function sortTable(table: ItemTable): void {
  const decorated = table.rows.map((item) => ({ item, upper: item.inventoryId.toUpperCase() }));
  decorated.sort((a, b) =>
    a.upper !== b.upper ? (a.upper < b.upper ? -1 : 1) : compareKeys(a.item.inventoryId, b.item.inventoryId),
  );
  table.rows = decorated.map((entry) => entry.item);
}

function compareItems(a: ErpItem, b: ErpItem): number {
  return compareKeys(a.inventoryId, b.inventoryId);
}

function compareKeys(a: string, b: string): number {
  const upperA = a.toUpperCase();
  const upperB = b.toUpperCase();
  if (upperA !== upperB) return upperA < upperB ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Exact key first; otherwise a case-insensitive match, as SQL Server's default collation would do. */
export function findByKey(table: ItemTable, key: string): ErpItem | undefined {
  return table.byKey.get(key) ?? table.byUpperKey.get(key.toUpperCase());
}

/** Keeps `rows` sorted without a full re-sort (binary search insert). */
export function insertItem(table: ItemTable, item: ErpItem): void {
  let low = 0;
  let high = table.rows.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareItems(table.rows[middle]!, item) < 0) low = middle + 1;
    else high = middle;
  }
  table.rows.splice(low, 0, item);
  index(table, item);
}

export function findWarehouse(store: ErpStore, warehouseId: string): ErpWarehouse | undefined {
  const upper = warehouseId.toUpperCase();
  return store.warehouses.find((warehouse) => warehouse.warehouseId.toUpperCase() === upper);
}
