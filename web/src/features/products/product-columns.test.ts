import { ACUMATICA_SORT_FIELDS, SHOPIFY_SORT_FIELDS, type ShopifyProduct } from "@stockbridge/shared";
import { describe, expect, it } from "vitest";
import { getByPath } from "../../ui/data-table/table-logic.ts";
import {
  acumaticaProductColumns,
  acumaticaProductType,
  shopifyProductColumns,
  shopifyProductType,
} from "./product-columns.ts";

const SHOPIFY_PRODUCT_COLUMNS = shopifyProductColumns("USD");
const ACUMATICA_PRODUCT_COLUMNS = acumaticaProductColumns("USD");

describe("product columns", () => {
  it("name the spec's columns in order", () => {
    expect(SHOPIFY_PRODUCT_COLUMNS.map((column) => column.header)).toEqual([
      "SKU",
      "Price",
      "Compare At Price",
      "Available",
      "On Hand",
      "Type",
    ]);
    expect(ACUMATICA_PRODUCT_COLUMNS.map((column) => column.header)).toEqual([
      "SKU",
      "Price",
      "MSRP",
      "Available",
      "On Hand",
      "Available for Shipping",
      "Type",
    ]);
  });

  it("sort only by fields the API accepts", () => {
    const shopifyFields: readonly string[] = SHOPIFY_SORT_FIELDS;
    const acumaticaFields: readonly string[] = ACUMATICA_SORT_FIELDS;
    for (const column of SHOPIFY_PRODUCT_COLUMNS.filter((c) => c.sortable)) {
      expect(shopifyFields).toContain(column.id);
    }
    for (const column of ACUMATICA_PRODUCT_COLUMNS.filter((c) => c.sortable)) {
      expect(acumaticaFields).toContain(column.id);
    }
  });

  it("read Available and On Hand from the first inventory location", () => {
    const row = {
      inventoryLocations: [
        { locationId: "1", available: 4, onHandInventory: 6 },
        { locationId: "2", available: 9, onHandInventory: 9 },
      ],
    };
    const available = SHOPIFY_PRODUCT_COLUMNS.find((column) => column.id === "available");
    const onHand = SHOPIFY_PRODUCT_COLUMNS.find((column) => column.id === "onHandInventory");
    expect(getByPath(row, String(available?.accessor))).toBe(4);
    expect(getByPath(row, String(onHand?.accessor))).toBe(6);
  });

  it("show prices with the list's currency symbol, and '-' for none", () => {
    const price = SHOPIFY_PRODUCT_COLUMNS.find((column) => column.id === "price");
    const compareAt = SHOPIFY_PRODUCT_COLUMNS.find((column) => column.id === "compareAtPrice");
    const row: ShopifyProduct = {
      _id: "p1",
      variantId: "v1",
      productId: "p1",
      inventoryItemId: null,
      title: "Widget",
      sku: "W-1",
      price: 39.86,
      compareAtPrice: null,
      isPhysicalProduct: true,
      tracked: true,
      inventoryLocations: [],
      lastSynced: "2026-01-01T00:00:00Z",
    };
    expect(price?.cell?.(row)).toBe("$39.86");
    expect(compareAt?.cell?.(row)).toBe("-");
  });

  it("read Available and On Hand from the location the merchant picked, '-' where not stocked, unsorted", () => {
    const row = {
      inventoryLocations: [
        { locationId: "1", name: "Main", available: 4, onHandInventory: 6 },
        { locationId: "2", name: "Store", available: 9, onHandInventory: 10 },
      ],
    } as unknown as ShopifyProduct;
    const at = (locationId: string, id: string) =>
      shopifyProductColumns("USD", locationId).find((column) => column.id === id)!;
    expect(at("2", "available").cell?.(row)).toBe("9");
    expect(at("2", "onHandInventory").cell?.(row)).toBe("10");
    expect(at("3", "available").cell?.(row)).toBe("-");
    expect(at("2", "available").sortable).toBe(false);
    expect(shopifyProductColumns("USD", null).find((column) => column.id === "available")?.sortable).toBe(
      true,
    );
  });

  it("label the product types in the spec's words", () => {
    expect(shopifyProductType({ isPhysicalProduct: true })).toBe("Physical");
    expect(shopifyProductType({ isPhysicalProduct: false })).toBe("Service");
    expect(acumaticaProductType({ isStockItem: true })).toBe("Stock Item");
    expect(acumaticaProductType({ isStockItem: false })).toBe("Non-Stock");
  });
});
