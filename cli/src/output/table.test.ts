import { render } from "ink-testing-library";
import { createElement } from "react";
import { describe, expect, it } from "vitest";
import { type Column, formatTable } from "./table.ts";
import { Table } from "./table-view.tsx";

interface Row {
  sku: string;
  price: number | null;
  title: string;
}

const COLUMNS: ReadonlyArray<Column<Row>> = [
  { header: "SKU", value: (row) => row.sku },
  { header: "Price", value: (row) => (row.price === null ? null : row.price.toFixed(2)), align: "right" },
  { header: "Title", value: (row) => row.title },
];
const ROWS: Row[] = [
  { sku: "SKU-1", price: 5, title: "Cap" },
  { sku: "SKU-10000", price: 1234.5, title: "" },
  { sku: "SKU-2", price: null, title: "Tote  with\nbreaks" },
];

describe("formatTable", () => {
  it("pads columns to their widest cell, right-aligns numbers and shows '-' for empty cells", () => {
    expect(formatTable(COLUMNS, ROWS).split("\n")).toEqual([
      "SKU          Price  Title",
      "SKU-1         5.00  Cap",
      "SKU-10000  1234.50  -",
      "SKU-2            -  Tote with breaks",
    ]);
  });

  it("prints only the header for no rows", () => {
    expect(formatTable(COLUMNS, [])).toBe("SKU  Price  Title");
  });
});

describe("Table", () => {
  it("renders the same layout as the plain text in the terminal", () => {
    const { lastFrame } = render(createElement(Table<Row>, { columns: COLUMNS, rows: ROWS }));
    expect(lastFrame()).toBe(formatTable(COLUMNS, ROWS));
  });
});
