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
  field<OwnedQuantity>("DefaultIssueLocationID", "string", () => "R1S1"),
  field<OwnedQuantity>("DefaultReceiptLocationID", "string", () => "RECEIVING"),
  field<OwnedQuantity>(
    "IsDefault",
    "boolean",
    ({ owner, row }) => row.warehouseId === defaultWarehouse(owner),
  ),
  field<OwnedQuantity>("OverrideStdCost", "boolean", () => false),
  field<OwnedQuantity>("PreferredVendor", "string", () => null),
  field<OwnedQuantity>("PriceOverride", "boolean", () => false),
  field<OwnedQuantity>("QtyOnHand", "decimal", ({ row }) => row.onHand),
  field<OwnedQuantity>("ReplenishmentSource", "string", () => "Purchase"),
  field<OwnedQuantity>("ReplenishmentWarehouse", "string", () => null),
  field<OwnedQuantity>("Status", "string", () => "Active"),
  field<OwnedQuantity>("WarehouseID", "string", ({ row }) => row.warehouseId),
];

export const STOCK_ITEM: EntityDef<ErpItem> = {
  name: "StockItem",
  keyField: "InventoryID",
  graph: "PX.Objects.IN.InventoryItemMaint",
  primaryView: "Item",
  id: (item) => item.id,
  fields: sortByName([
    field<ErpItem>("ABCCode", "string", () => null),
    field<ErpItem>("AverageCost", "decimal", unitCost),
    field<ErpItem>("BaseUOM", "string", () => "EA"),
    field<ErpItem>("DefaultPrice", "decimal", (item) => item.defaultPrice),
    field<ErpItem>("DefaultWarehouseID", "string", defaultWarehouse),
    field<ErpItem>("Description", "string", (item) => item.description),
    field<ErpItem>("ImageUrl", "string", () => null),
    field<ErpItem>("InventoryID", "string", (item) => item.inventoryId),
    field<ErpItem>("IsAKit", "boolean", () => false),
    field<ErpItem>("ItemClass", "string", (item) => item.itemClass),
    field<ErpItem>("ItemStatus", "string", (item) => item.itemStatus),
    field<ErpItem>("ItemType", "string", () => "Finished Good"),
    field<ErpItem>("LastModified", "datetime", (item) => item.lastModified),
    field<ErpItem>("LotSerialClass", "string", () => "NOTTRACKED"),
    field<ErpItem>("MSRP", "decimal", (item) => item.msrp),
    field<ErpItem>("PurchaseUOM", "string", () => "EA"),
    field<ErpItem>("SalesUOM", "string", () => "EA"),
    field<ErpItem>("TaxCategory", "string", () => "TAXABLE"),
    field<ErpItem>("ValuationMethod", "string", () => "Average"),
    field<ErpItem>("Availability", "string", () => "Set as Available (Track Qty.)", ECOMMERCE),
    field<ErpItem>("CurySpecificMSRP", "decimal", () => null, ECOMMERCE),
    field<ErpItem>("CurySpecificPrice", "decimal", () => null, ECOMMERCE),
    field<ErpItem>("ExportToExternal", "boolean", () => true, ECOMMERCE),
    field<ErpItem>("NoteID", "guid", (item) => item.id, ECOMMERCE),
    field<ErpItem>("NotAvailable", "string", () => "Do Nothing", ECOMMERCE),
    field<ErpItem>("Visibility", "string", () => "Visible", ECOMMERCE),
    field<ErpItem>("LastModifiedDateTime", "datetime", (item) => item.lastModified, { since: 24 }),
  ]),
  details: [
    detail<ErpItem, OwnedQuantity>(
      "WarehouseDetails",
      (item) => item.warehouses.map((row) => ({ owner: item, row })),
      WAREHOUSE_DETAIL_FIELDS,
    ),
  ],
};

export const NON_STOCK_ITEM: EntityDef<ErpItem> = {
  name: "NonStockItem",
  keyField: "InventoryID",
  graph: "PX.Objects.IN.NonStockItemMaint",
  primaryView: "Item",
  id: (item) => item.id,
  fields: sortByName([
    field<ErpItem>("BaseUnit", "string", () => "HOUR"),
    field<ErpItem>("DefaultPrice", "decimal", (item) => item.defaultPrice),
    field<ErpItem>("Description", "string", (item) => item.description),
    field<ErpItem>("InventoryID", "string", (item) => item.inventoryId),
    field<ErpItem>("ItemClass", "string", (item) => item.itemClass),
    field<ErpItem>("ItemStatus", "string", (item) => item.itemStatus),
    field<ErpItem>("ItemType", "string", () => "Service"),
    field<ErpItem>("LastModifiedDateTime", "datetime", (item) => item.lastModified),
    field<ErpItem>("PurchaseUnit", "string", () => "HOUR"),
    field<ErpItem>("RequireReceipt", "boolean", () => false),
    field<ErpItem>("RequireShipment", "boolean", () => false),
    field<ErpItem>("SalesUnit", "string", () => "HOUR"),
    field<ErpItem>("TaxCategory", "string", () => "EXEMPT"),
    field<ErpItem>("Availability", "string", () => "Set as Available (Don't Track Qty.)", ECOMMERCE),
    field<ErpItem>("CurySpecificMSRP", "decimal", () => null, ECOMMERCE),
    field<ErpItem>("CurySpecificPrice", "decimal", () => null, ECOMMERCE),
    field<ErpItem>("ExportToExternal", "boolean", () => true, ECOMMERCE),
    field<ErpItem>("MSRP", "decimal", (item) => item.msrp, ECOMMERCE),
    field<ErpItem>("NoteID", "guid", (item) => item.id, ECOMMERCE),
    field<ErpItem>("Visibility", "string", () => "Visible", ECOMMERCE),
    field<ErpItem>("IsKit", "boolean", () => false, { since: 24 }),
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
    field<ErpWarehouse>("Active", "boolean", () => true),
    field<ErpWarehouse>("Description", "string", (warehouse) => warehouse.description),
    field<ErpWarehouse>("InventoryAccount", "string", () => "12100"),
    field<ErpWarehouse>("LastModifiedDateTime", "datetime", (warehouse) => warehouse.lastModified),
    field<ErpWarehouse>("ReceivingLocationID", "string", () => "RECEIVING"),
    field<ErpWarehouse>("SalesAccount", "string", () => "40000"),
    field<ErpWarehouse>("ShippingLocationID", "string", () => "R1S1"),
    field<ErpWarehouse>("WarehouseID", "string", (warehouse) => warehouse.warehouseId),
  ]),
  details: [
    detail<ErpWarehouse, WarehouseLocation>("Locations", () => LOCATIONS, [
      field<WarehouseLocation>("Active", "boolean", () => true),
      field<WarehouseLocation>("Description", "string", (location) => location.description),
      field<WarehouseLocation>("LocationID", "string", (location) => location.locationId),
    ]),
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
    field<ErpCompany>("BaseCurrencyID", "string", (company) => company.baseCurrency),
    field<ErpCompany>("CompanyID", "string", (company) => company.companyId),
    field<ErpCompany>("CompanyName", "string", (company) => company.name),
  ]),
  details: [],
};
