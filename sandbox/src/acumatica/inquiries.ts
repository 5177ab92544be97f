import { unitCost } from "./entities.ts";
import { defineInquiry, type Inquiry, type Params } from "./inquiry-engine.ts";
import { field, inVersion } from "./schema.ts";
import { type ErpItem, type ErpStore, findByKey, findWarehouse, type WarehouseQuantity } from "./store.ts";

/**
 * The quantity inquiries of acumatica.md §3.4. All are `PUT /{Inquiry}?$expand={detail}` with the
 * parameters in the body; results come back only when the detail is expanded, unpaged ($top/$skip
 * do not apply inside them).
 * - InventorySummaryInquiry: one item (required) per warehouse/location, rows with nothing in them
 *   left out; rows carry no InventoryID. Like the IN401000 graph, a non-empty answer ends with a
 *   total row: no warehouse, LocationID "Total:", no unit cost, the quantities summed.
 * - StorageDetailsInquiry: every stock item in one warehouse, or in all when WarehouseID is empty;
 *   field names switch at 23.200.001 (SiteOnHand... -> QtyOnHand...).
 * - InventoryQuantityAvailable (22+): available quantity summed over warehouses for every item,
 *   optionally only items whose quantities changed since LastModifiedDateTime.
 * - InventoryAllocationInquiry: one item's totals as top-level fields.
 */
interface QuantityRow {
  item: ErpItem;
  quantity: WarehouseQuantity;
}

const STOCKED_LOCATION = "R1S1";
const KNOWN_LOCATIONS = new Set([STOCKED_LOCATION, "RECEIVING"]);
const NOT_FOUND = (label: string) => `'${label}' cannot be found in the system.`;

function text(params: Params, name: string): string | null {
  const value = params.get(name);
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

function sameText(a: string, b: string): boolean {
  return a.toUpperCase() === b.toUpperCase();
}

function checkItem(params: Params, store: ErpStore, errors: Record<string, string>) {
  const inventoryId = text(params, "InventoryID");
  if (inventoryId && !findByKey(store.stock, inventoryId)) errors.InventoryID = NOT_FOUND("Inventory ID");
}

function checkWarehouse(
  params: Params,
  { store, errors, name = "WarehouseID" }: { store: ErpStore; errors: Record<string, string>; name?: string },
) {
  const warehouseId = text(params, name);
  if (warehouseId && !findWarehouse(store, warehouseId)) errors[name] = NOT_FOUND("Warehouse");
}

/** Rows of the items' warehouse quantities, optionally one item and/or one warehouse. */
function quantityRows(
  store: ErpStore,
  inventoryId: string | null,
  warehouseId: string | null,
): QuantityRow[] {
  const items = inventoryId
    ? [findByKey(store.stock, inventoryId)].filter((item) => item !== undefined)
    : store.stock.rows;
  const rows: QuantityRow[] = [];
  for (const item of items) {
    for (const quantity of item.warehouses) {
      if (!warehouseId || sameText(quantity.warehouseId, warehouseId)) rows.push({ item, quantity });
    }
  }
  return rows;
}

/** An InventorySummaryInquiry row: one warehouse's quantities, or the total row the graph appends. */
interface SummaryRow extends QuantityRow {
  isTotal: boolean;
}

const TOTAL_LOCATION = "Total:";

function isZero(quantity: WarehouseQuantity): boolean {
  return quantity.onHand === 0 && quantity.available === 0 && quantity.availableForShipment === 0;
}

/** The warehouse rows that hold something, then (when there are any) their sum as the total row. */
function summaryRows(rows: QuantityRow[]): SummaryRow[] {
  const kept: SummaryRow[] = rows
    .filter((row) => !isZero(row.quantity))
    .map((row) => ({ ...row, isTotal: false }));
  const first = kept[0];
  if (!first) return [];
  const total = { ...first.quantity, warehouseId: "", onHand: 0, available: 0, availableForShipment: 0 };
  for (const { quantity } of kept) {
    total.onHand += quantity.onHand;
    total.available += quantity.available;
    total.availableForShipment += quantity.availableForShipment;
  }
  return [...kept, { item: first.item, quantity: total, isTotal: true }];
}

const INVENTORY_SUMMARY = defineInquiry<SummaryRow>({
  name: "InventorySummaryInquiry",
  detail: "Results",
  params: [
    { name: "ExpandByLotSerialNbr", type: "boolean" },
    { name: "InventoryID", type: "string" },
    { name: "LocationID", type: "string" },
    { name: "Subitem", type: "string" },
    { name: "WarehouseID", type: "string" },
  ],
  rowFields: [
    field("BaseUOM", "string", { get: () => "EA" }),
    field("EstimatedTotalCost", "decimal", {
      get: ({ item, quantity }) => Math.round(unitCost(item) * quantity.onHand * 100) / 100,
    }),
    field("EstimatedUnitCost", "decimal", { get: ({ item, isTotal }) => (isTotal ? null : unitCost(item)) }),
    field("ExpirationDate", "datetime", { get: () => null }),
    field("LocationID", "string", { get: ({ isTotal }) => (isTotal ? TOTAL_LOCATION : STOCKED_LOCATION) }),
    field("LotSerialNbr", "string", { get: () => null }),
    field("QtyAvailable", "decimal", { get: ({ quantity }) => quantity.available }),
    field("QtyAvailableForShipment", "decimal", { get: ({ quantity }) => quantity.availableForShipment }),
    field("QtyNotAvailable", "decimal", {
      get: ({ quantity }) => Math.max(0, quantity.onHand - quantity.available),
    }),
    field("QtyOnHand", "decimal", { get: ({ quantity }) => quantity.onHand }),
    field("Subitem", "string", { get: () => null }),
    field("WarehouseID", "string", {
      get: ({ quantity, isTotal }) => (isTotal ? null : quantity.warehouseId),
    }),
  ],
  validate(params, store) {
    const errors: Record<string, string> = {};
    checkItem(params, store, errors);
    checkWarehouse(params, { store, errors });
    const location = text(params, "LocationID");
    if (location && !KNOWN_LOCATIONS.has(location.toUpperCase())) errors.LocationID = NOT_FOUND("Location");
    return errors;
  },
  rows(params, store) {
    // The screen shows nothing until an item is chosen: this inquiry is one call per item.
    const inventoryId = text(params, "InventoryID");
    const location = text(params, "LocationID");
    if (!inventoryId || (location && !sameText(location, STOCKED_LOCATION))) return [];
    return summaryRows(quantityRows(store, inventoryId, text(params, "WarehouseID")));
  },
});

const STORAGE_DETAILS = defineInquiry<QuantityRow>({
  name: "StorageDetailsInquiry",
  detail: "StorageDetails",
  params: [{ name: "WarehouseID", type: "string" }],
  rowFields: [
    field("InventoryID", "string", { get: ({ item }) => item.inventoryId }),
    field("SiteAvailable", "decimal", { get: ({ quantity }) => quantity.available, until: 22 }),
    field("SiteAvailableforIssue", "decimal", { get: ({ quantity }) => quantity.available, until: 22 }),
    field("SiteAvailableforShipping", "decimal", {
      get: ({ quantity }) => quantity.availableForShipment,
      until: 22,
    }),
    field("SiteID", "string", { get: ({ quantity }) => quantity.warehouseId, until: 22 }),
    field("SiteLastModifiedDate", "datetime", { get: ({ quantity }) => quantity.lastModified, until: 22 }),
    field("SiteOnHand", "decimal", { get: ({ quantity }) => quantity.onHand, until: 22 }),
    field("LastModifiedDateofWarehouseQty", "datetime", {
      get: ({ quantity }) => quantity.lastModified,
      since: 23,
    }),
    field("QtyAvailable", "decimal", { get: ({ quantity }) => quantity.available, since: 23 }),
    field("QtyAvailableforIssue", "decimal", { get: ({ quantity }) => quantity.available, since: 23 }),
    field("QtyHardAvailable", "decimal", { get: ({ quantity }) => quantity.availableForShipment, since: 23 }),
    field("QtyOnHand", "decimal", { get: ({ quantity }) => quantity.onHand, since: 23 }),
    field("WarehouseID", "string", { get: ({ quantity }) => quantity.warehouseId, since: 23 }),
  ],
  validate(params, store) {
    const errors: Record<string, string> = {};
    checkWarehouse(params, { store, errors });
    return errors;
  },
  rows: (params, store) => quantityRows(store, null, text(params, "WarehouseID")),
});

interface AvailableRow {
  item: ErpItem;
  available: number;
  lastModified: number;
}

const QUANTITY_AVAILABLE = defineInquiry<AvailableRow>({
  name: "InventoryQuantityAvailable",
  since: 22,
  detail: "Results",
  params: [
    { name: "InventoryID", type: "string" },
    { name: "LastModifiedDateTime", type: "datetime" },
  ],
  rowFields: [
    field("InventoryID", "string", { get: ({ item }) => item.inventoryId }),
    field("LastModifiedDateTime", "datetime", { get: ({ lastModified }) => lastModified }),
    field("QtyAvailable", "decimal", { get: ({ available }) => available }),
  ],
  validate: () => ({}),
  rows(params, store) {
    const inventoryId = text(params, "InventoryID");
    const since = params.get("LastModifiedDateTime");
    const rows: AvailableRow[] = [];
    for (const item of store.stock.rows) {
      if (item.warehouses.length === 0 || (inventoryId && !sameText(item.inventoryId, inventoryId))) continue;
      let available = 0;
      let lastModified = 0;
      for (const quantity of item.warehouses) {
        available += quantity.available;
        lastModified = Math.max(lastModified, quantity.lastModified);
      }
      if (typeof since === "number" && lastModified < since) continue;
      rows.push({ item, available, lastModified });
    }
    return rows;
  },
});

const ALLOCATION = defineInquiry<never>({
  name: "InventoryAllocationInquiry",
  detail: "Results",
  params: [
    { name: "InventoryID", type: "string" },
    { name: "Location", type: "string" },
    { name: "WarehouseID", type: "string" },
  ],
  rowFields: [],
  validate(params, store) {
    const errors: Record<string, string> = {};
    checkItem(params, store, errors);
    checkWarehouse(params, { store, errors });
    return errors;
  },
  rows: () => [],
  summary(params, store) {
    const inventoryId = text(params, "InventoryID");
    const rows = inventoryId ? quantityRows(store, inventoryId, text(params, "WarehouseID")) : [];
    const sum = (pick: (quantity: WarehouseQuantity) => number) =>
      inventoryId ? rows.reduce((total, row) => total + pick(row.quantity), 0) : null;
    const zero = inventoryId ? 0 : null;
    return [
      field("Available", "decimal", { get: () => sum((q) => q.available) }),
      field("AvailableForIssue", "decimal", { get: () => sum((q) => q.available) }),
      field("AvailableForShipping", "decimal", { get: () => sum((q) => q.availableForShipment) }),
      field("BaseUnit", "string", { get: () => (inventoryId ? "EA" : null) }),
      field("InTransit", "decimal", { get: () => zero }),
      field("InventoryIssues", "decimal", { get: () => zero }),
      field("InventoryReceipts", "decimal", { get: () => zero }),
      field("OnHand", "decimal", { get: () => sum((q) => q.onHand) }),
      field("PurchaseOrders", "decimal", { get: () => zero }),
      field("SOAllocated", "decimal", { get: () => zero }),
      field("SOBooked", "decimal", { get: () => sum((q) => Math.max(0, q.onHand - q.available)) }),
      field("SOShipped", "decimal", { get: () => zero }),
    ];
  },
});

export const INQUIRIES: Inquiry[] = [INVENTORY_SUMMARY, STORAGE_DETAILS, QUANTITY_AVAILABLE, ALLOCATION];

export function findInquiry(name: string, major: number): Inquiry | undefined {
  return INQUIRIES.find(
    (inquiry) => inquiry.name.toLowerCase() === name.toLowerCase() && inVersion(inquiry, major),
  );
}
