import { detail, type EntityDef, field, sortByName } from "./schema.ts";
import type { ErpItem, ErpWarehouse, WarehouseQuantity } from "./store.ts";

/**
 * The entity contracts we serve, per endpoint version (acumatica.md §3.2-3.3):
 * - StockItem: `LastModified` everywhere, `LastModifiedDateTime` only from 24.200.001;
 *   eCommerce-tab fields and CurySpecific* from 22; details only with `$expand=WarehouseDetails`,
 *   whose rows carry QtyOnHand and nothing else about quantity.
 * - NonStockItem: `LastModifiedDateTime` everywhere, `MSRP` only from 22, BaseUnit/SalesUnit naming.
 * Values for fields the demo catalog does not model are fixed, plausible defaults.
 */

const ECOMMERCE = { since: 22 };

function defaultWarehouse(item: ErpItem): string | null {
  return item.warehouses[0]?.warehouseId ?? null;
}

/** Average cost, which the catalog does not model: a fixed share of the price. */
export function unitCost(item: ErpItem): number {
  return Math.round(item.defaultPrice * 55) / 100;
}

// Detail rows are paired with their item: IsDefault depends on the item's default warehouse.
interface OwnedQuantity {
  owner: ErpItem;
  row: WarehouseQuantity;
}

const WAREHOUSE_DETAIL_FIELDS = [
  field<OwnedQuantity>("DefaultIssueLocationID", "string", { get: () => "R1S1" }),
  field<OwnedQuantity>("DefaultReceiptLocationID", "string", { get: () => "RECEIVING" }),
  field<OwnedQuantity>("IsDefault", "boolean", {
    get: ({ owner, row }) => row.warehouseId === defaultWarehouse(owner),
  }),
  field<OwnedQuantity>("OverrideStdCost", "boolean", { get: () => false }),
  field<OwnedQuantity>("PreferredVendor", "string", { get: () => null }),
  field<OwnedQuantity>("PriceOverride", "boolean", { get: () => false }),
  field<OwnedQuantity>("QtyOnHand", "decimal", { get: ({ row }) => row.onHand }),
  field<OwnedQuantity>("ReplenishmentSource", "string", { get: () => "Purchase" }),
  field<OwnedQuantity>("ReplenishmentWarehouse", "string", { get: () => null }),
  field<OwnedQuantity>("Status", "string", { get: () => "Active" }),
  field<OwnedQuantity>("WarehouseID", "string", { get: ({ row }) => row.warehouseId }),
];

export const STOCK_ITEM: EntityDef<ErpItem> = {
  name: "StockItem",
  keyField: "InventoryID",
  graph: "PX.Objects.IN.InventoryItemMaint",
  primaryView: "Item",
  id: (item) => item.id,
  fields: sortByName([
    field<ErpItem>("ABCCode", "string", { get: () => null }),
    field<ErpItem>("AverageCost", "decimal", { get: unitCost }),
    field<ErpItem>("BaseUOM", "string", { get: () => "EA" }),
    field<ErpItem>("DefaultPrice", "decimal", { get: (item) => item.defaultPrice }),
    field<ErpItem>("DefaultWarehouseID", "string", { get: defaultWarehouse }),
    field<ErpItem>("Description", "string", { get: (item) => item.description }),
    field<ErpItem>("ImageUrl", "string", { get: () => null }),
    field<ErpItem>("InventoryID", "string", { get: (item) => item.inventoryId }),
    field<ErpItem>("IsAKit", "boolean", { get: () => false }),
    field<ErpItem>("ItemClass", "string", { get: (item) => item.itemClass }),
    field<ErpItem>("ItemStatus", "string", { get: (item) => item.itemStatus }),
    field<ErpItem>("ItemType", "string", { get: () => "Finished Good" }),
    field<ErpItem>("LastModified", "datetime", { get: (item) => item.lastModified }),
    field<ErpItem>("LotSerialClass", "string", { get: () => "NOTTRACKED" }),
    field<ErpItem>("MSRP", "decimal", { get: (item) => item.msrp }),
    field<ErpItem>("PurchaseUOM", "string", { get: () => "EA" }),
    field<ErpItem>("SalesUOM", "string", { get: () => "EA" }),
    field<ErpItem>("TaxCategory", "string", { get: () => "TAXABLE" }),
    field<ErpItem>("ValuationMethod", "string", { get: () => "Average" }),
    field<ErpItem>("Availability", "string", { get: () => "Set as Available (Track Qty.)", ...ECOMMERCE }),
    field<ErpItem>("CurySpecificMSRP", "decimal", { get: () => null, ...ECOMMERCE }),
    field<ErpItem>("CurySpecificPrice", "decimal", { get: () => null, ...ECOMMERCE }),
    field<ErpItem>("ExportToExternal", "boolean", { get: () => true, ...ECOMMERCE }),
    field<ErpItem>("NoteID", "guid", { get: (item) => item.id, ...ECOMMERCE }),
    field<ErpItem>("NotAvailable", "string", { get: () => "Do Nothing", ...ECOMMERCE }),
    field<ErpItem>("Visibility", "string", { get: () => "Visible", ...ECOMMERCE }),
    field<ErpItem>("LastModifiedDateTime", "datetime", { get: (item) => item.lastModified, since: 24 }),
  ]),
  details: [
    detail<ErpItem, OwnedQuantity>("WarehouseDetails", {
      rows: (item) => item.warehouses.map((row) => ({ owner: item, row })),
      fields: WAREHOUSE_DETAIL_FIELDS,
    }),
  ],
};

export const NON_STOCK_ITEM: EntityDef<ErpItem> = {
  name: "NonStockItem",
  keyField: "InventoryID",
  graph: "PX.Objects.IN.NonStockItemMaint",
  primaryView: "Item",
  id: (item) => item.id,
  fields: sortByName([
    field<ErpItem>("BaseUnit", "string", { get: () => "HOUR" }),
    field<ErpItem>("DefaultPrice", "decimal", { get: (item) => item.defaultPrice }),
    field<ErpItem>("Description", "string", { get: (item) => item.description }),
    field<ErpItem>("InventoryID", "string", { get: (item) => item.inventoryId }),
    field<ErpItem>("ItemClass", "string", { get: (item) => item.itemClass }),
    field<ErpItem>("ItemStatus", "string", { get: (item) => item.itemStatus }),
    field<ErpItem>("ItemType", "string", { get: () => "Service" }),
    field<ErpItem>("LastModifiedDateTime", "datetime", { get: (item) => item.lastModified }),
    field<ErpItem>("PurchaseUnit", "string", { get: () => "HOUR" }),
    field<ErpItem>("RequireReceipt", "boolean", { get: () => false }),
    field<ErpItem>("RequireShipment", "boolean", { get: () => false }),
    field<ErpItem>("SalesUnit", "string", { get: () => "HOUR" }),
    field<ErpItem>("TaxCategory", "string", { get: () => "EXEMPT" }),
    field<ErpItem>("Availability", "string", {
      get: () => "Set as Available (Don't Track Qty.)",
      ...ECOMMERCE,
    }),
    field<ErpItem>("CurySpecificMSRP", "decimal", { get: () => null, ...ECOMMERCE }),
    field<ErpItem>("CurySpecificPrice", "decimal", { get: () => null, ...ECOMMERCE }),
    field<ErpItem>("ExportToExternal", "boolean", { get: () => true, ...ECOMMERCE }),
    field<ErpItem>("MSRP", "decimal", { get: (item) => item.msrp, ...ECOMMERCE }),
    field<ErpItem>("NoteID", "guid", { get: (item) => item.id, ...ECOMMERCE }),
    field<ErpItem>("Visibility", "string", { get: () => "Visible", ...ECOMMERCE }),
    field<ErpItem>("IsKit", "boolean", { get: () => false, since: 24 }),
  ]),
  details: [],
};

interface WarehouseLocation {
  locationId: string;
  description: string;
}

const LOCATIONS: WarehouseLocation[] = [
  { locationId: "R1S1", description: "Row 1 Shelf 1" },
  { locationId: "RECEIVING", description: "Receiving area" },
];

export const WAREHOUSE: EntityDef<ErpWarehouse> = {
  name: "Warehouse",
  keyField: "WarehouseID",
  graph: "PX.Objects.IN.INSiteMaint",
  primaryView: "site",
  id: (warehouse) => warehouse.id,
  fields: sortByName([
    field<ErpWarehouse>("Active", "boolean", { get: () => true }),
    field<ErpWarehouse>("Description", "string", { get: (warehouse) => warehouse.description }),
    field<ErpWarehouse>("InventoryAccount", "string", { get: () => "12100" }),
    field<ErpWarehouse>("LastModifiedDateTime", "datetime", { get: (warehouse) => warehouse.lastModified }),
    field<ErpWarehouse>("ReceivingLocationID", "string", { get: () => "RECEIVING" }),
    field<ErpWarehouse>("SalesAccount", "string", { get: () => "40000" }),
    field<ErpWarehouse>("ShippingLocationID", "string", { get: () => "R1S1" }),
    field<ErpWarehouse>("WarehouseID", "string", { get: (warehouse) => warehouse.warehouseId }),
  ]),
  details: [
    detail<ErpWarehouse, WarehouseLocation>("Locations", {
      rows: () => LOCATIONS,
      fields: [
        field<WarehouseLocation>("Active", "boolean", { get: () => true }),
        field<WarehouseLocation>("Description", "string", { get: (location) => location.description }),
        field<WarehouseLocation>("LocationID", "string", { get: (location) => location.locationId }),
      ],
    }),
  ],
};

/** The company (screen CS101500) whose base currency item prices are kept in. */
export interface ErpCompany {
  id: string;
  companyId: string;
  name: string;
  baseCurrency: string;
}

export const COMPANY: EntityDef<ErpCompany> = {
  name: "Company",
  keyField: "CompanyID",
  graph: "PX.Objects.CS.OrganizationMaint",
  primaryView: "OrganizationView",
  id: (company) => company.id,
  fields: sortByName([
    field<ErpCompany>("BaseCurrencyID", "string", { get: (company) => company.baseCurrency }),
    field<ErpCompany>("CompanyID", "string", { get: (company) => company.companyId }),
    field<ErpCompany>("CompanyName", "string", { get: (company) => company.name }),
  ]),
  details: [],
};
