import { type AcumaticaProduct, formatMoney, type ShopifyProduct } from "@stockbridge/shared";
import type { DataTableColumn } from "../../ui/data-table/data-table.tsx";

/** Spec section 2: 'Physical' or 'Service' (Shopify), 'Stock Item' or 'Non-Stock' (Acumatica). */
export function shopifyProductType(product: Pick<ShopifyProduct, "isPhysicalProduct">): string {
  return product.isPhysicalProduct ? "Physical" : "Service";
}

export function acumaticaProductType(product: Pick<AcumaticaProduct, "isStockItem">): string {
  return product.isStockItem ? "Stock Item" : "Non-Stock";
}

// Column ids of sortable columns are the API's sort fields (SHOPIFY_SORT_FIELDS / ACUMATICA_SORT_FIELDS).
const NUMBER = { align: "right", className: "tabular-nums" } as const;

/**
 * Shopify Products: SKU, Price, Compare At Price, Available and On Hand (first location, or the
 * location the merchant picked), Type. Prices carry the symbol of `currencyCode` (the list's), when
 * known. The server sorts quantities by the first location only, so another location's columns do
 * not sort.
 */
export function shopifyProductColumns(
  currencyCode: string | null,
  locationId: string | null = null,
): ReadonlyArray<DataTableColumn<ShopifyProduct>> {
  const columns: DataTableColumn<ShopifyProduct>[] = [
    { id: "sku", header: "SKU", sortable: true, className: "font-medium whitespace-nowrap" },
    {
      id: "price",
      header: "Price",
      sortable: true,
      cell: (row) => formatMoney(row.price, currencyCode),
      ...NUMBER,
    },
    {
      id: "compareAtPrice",
      header: "Compare At Price",
      sortable: true,
      cell: (row) => formatMoney(row.compareAtPrice, currencyCode),
      ...NUMBER,
    },
    {
      id: "available",
      header: "Available",
      accessor: "inventoryLocations.0.available",
      sortable: true,
      ...NUMBER,
    },
    {
      id: "onHandInventory",
      header: "On Hand",
      accessor: "inventoryLocations.0.onHandInventory",
      sortable: true,
      ...NUMBER,
    },
    { id: "type", header: "Type", accessor: shopifyProductType, className: "whitespace-nowrap" },
  ];
  if (locationId === null) return columns;
  const at = (row: ShopifyProduct) => row.inventoryLocations.find((level) => level.locationId === locationId);
  return columns.map((column) =>
    column.id === "available"
      ? { ...column, accessor: undefined, sortable: false, cell: (row) => quantity(at(row)?.available) }
      : column.id === "onHandInventory"
        ? {
            ...column,
            accessor: undefined,
            sortable: false,
            cell: (row) => quantity(at(row)?.onHandInventory),
          }
        : column,
  );
}

/** A quantity cell: '-' where the variant is not stocked. */
function quantity(value: number | null | undefined): string {
  return value === null || value === undefined ? "-" : String(value);
}

/** Acumatica Products: SKU, Price, MSRP, Available, On Hand, Available for Shipping, Type. */
export function acumaticaProductColumns(
  currencyCode: string | null,
): ReadonlyArray<DataTableColumn<AcumaticaProduct>> {
  return [
    { id: "sku", header: "SKU", sortable: true, className: "font-medium whitespace-nowrap" },
    {
      id: "defaultPrice",
      header: "Price",
      sortable: true,
      cell: (row) => formatMoney(row.defaultPrice, currencyCode),
      ...NUMBER,
    },
    {
      id: "msrp",
      header: "MSRP",
      sortable: true,
      cell: (row) => formatMoney(row.msrp, currencyCode),
      ...NUMBER,
    },
    { id: "available", header: "Available", sortable: true, ...NUMBER },
    { id: "onHandInventory", header: "On Hand", sortable: true, ...NUMBER },
    { id: "availableForShipping", header: "Available for Shipping", sortable: true, ...NUMBER },
    { id: "type", header: "Type", accessor: acumaticaProductType, className: "whitespace-nowrap" },
  ];
}
