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
 * Shopify Products: SKU, Price, Compare At Price, Available and On Hand (first location), Type.
 * Prices carry the symbol of `currencyCode` (the list's), when known.
 */
export function shopifyProductColumns(
  currencyCode: string | null,
): ReadonlyArray<DataTableColumn<ShopifyProduct>> {
  return [
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
