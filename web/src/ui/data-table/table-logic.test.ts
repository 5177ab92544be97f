import { describe, expect, it } from "vitest";
import {
  ariaSort,
  compareValues,
  emptyText,
  formatCellValue,
  getByPath,
  matchesSearch,
  nextSort,
  pageCount,
  pageRange,
  rowNumber,
} from "./table-logic.ts";

describe("getByPath", () => {
  it("reads dotted paths, array items included", () => {
    const row = { shopifyDetails: { sku: "A-1" }, inventoryLocations: [{ available: 4 }] };
    expect(getByPath(row, "shopifyDetails.sku")).toBe("A-1");
    expect(getByPath(row, "inventoryLocations.0.available")).toBe(4);
    expect(getByPath(row, "acumaticaDetails.sku")).toBeUndefined();
  });
});

describe("formatCellValue", () => {
  it("shows '-' for empty cells", () => {
    expect(formatCellValue(null)).toBe("-");
    expect(formatCellValue(undefined)).toBe("-");
    expect(formatCellValue("  ")).toBe("-");
  });

  it("keeps zero, which is a value", () => {
    expect(formatCellValue(0)).toBe("0");
  });
});

describe("compareValues", () => {
  it("orders numbers numerically and text naturally, empty values last", () => {
    expect([10, 9, null, 100].sort(compareValues)).toEqual([9, 10, 100, null]);
    expect(["SKU-10", "SKU-9", "sku-1"].sort(compareValues)).toEqual(["sku-1", "SKU-9", "SKU-10"]);
  });
});

describe("nextSort", () => {
  it("sorts a new column ascending and flips the sorted one", () => {
    const first = nextSort(null, "sku");
    expect(first).toEqual({ id: "sku", direction: "asc" });
    expect(nextSort(first, "sku")).toEqual({ id: "sku", direction: "desc" });
    expect(nextSort({ id: "sku", direction: "desc" }, "sku")).toEqual({ id: "sku", direction: "asc" });
    expect(nextSort({ id: "sku", direction: "desc" }, "price")).toEqual({ id: "price", direction: "asc" });
  });

  it("reports aria-sort for the sorted column only", () => {
    expect(ariaSort({ id: "sku", direction: "desc" }, "sku")).toBe("descending");
    expect(ariaSort({ id: "sku", direction: "desc" }, "price")).toBe("none");
  });
});

describe("rowNumber", () => {
  it("continues the index across pages", () => {
    expect(rowNumber(0, 10, 0)).toBe(1);
    expect(rowNumber(2, 25, 4)).toBe(55);
  });
});

describe("emptyText", () => {
  it("says 'No matching results' while a search is active", () => {
    expect(emptyText(false)).toBe("No data available");
    expect(emptyText(true)).toBe("No matching results");
  });
});

describe("pageRange", () => {
  it("describes the rows on the page", () => {
    expect(pageRange(1, 10, 57)).toEqual({ from: 11, to: 20 });
    expect(pageRange(5, 10, 57)).toEqual({ from: 51, to: 57 });
    expect(pageRange(0, 10, 0)).toEqual({ from: 0, to: 0 });
    expect(pageCount(10, 57)).toBe(6);
    expect(pageCount(10, 0)).toBe(1);
  });
});

describe("matchesSearch", () => {
  it("matches any value, case-insensitively", () => {
    expect(matchesSearch(["ABC-1", null, 12], "abc")).toBe(true);
    expect(matchesSearch(["ABC-1", null, 12], "12")).toBe(true);
    expect(matchesSearch(["ABC-1"], "xyz")).toBe(false);
    expect(matchesSearch(["ABC-1"], "  ")).toBe(true);
  });
});
