import { type MappingSyncResult, MESSAGES } from "@stockbridge/shared";
import { describe, expect, it } from "vitest";
import {
  describeChange,
  filterChoices,
  formatShortDate,
  mappingTypeLabel,
  productChoices,
  syncOutcomeToast,
  UNMAPPED_DEFAULT_SORT,
  unmappedRequest,
  unmappedRows,
  unmappedTotal,
} from "../mapping/mapping-logic.ts";
import { formatRunDate, scheduleDisplayName, statusTone } from "./history-logic.ts";

function result(outcome: MappingSyncResult["outcome"], reason: string | null = null): MappingSyncResult {
  return { mappingId: "m1", shopifySku: "A", acumaticaSku: "A", outcome, changes: [], reason };
}

const UNMAPPED = {
  shopify: [{ _id: "s1", variantId: "gid://shopify/ProductVariant/1", sku: "TEE-1" }],
  acumatica: [
    { _id: "a1", acumaticaId: "erp-1", sku: "MUG-1" },
    { _id: "a2", acumaticaId: "erp-2", sku: " " },
  ],
  shopifyTotal: 21,
  acumaticaTotal: 40,
  shopifyOffset: 20,
  acumaticaOffset: 0,
  limit: 10,
};

describe("unmappedRows", () => {
  it("lists each system's products with the other side blank, and names SKU-less products by id", () => {
    expect(unmappedRows(UNMAPPED, { limit: 10, sort: UNMAPPED_DEFAULT_SORT })).toEqual([
      { _id: "shopify:s1", shopifySku: "TEE-1", acumaticaSku: null },
      { _id: "acumatica:a1", shopifySku: null, acumaticaSku: "MUG-1" },
      { _id: "acumatica:a2", shopifySku: null, acumaticaSku: "(no SKU) erp-2" },
    ]);
  });

  it("puts the sorted column's system first and keeps to one page", () => {
    const rows = unmappedRows(UNMAPPED, { limit: 2, sort: { id: "acumaticaSku", direction: "asc" } });
    expect(rows.map((row) => row._id)).toEqual(["acumatica:a1", "acumatica:a2"]);
  });
});

describe("unmappedRequest", () => {
  const view = { page: 1, limit: 10, search: "", sort: UNMAPPED_DEFAULT_SORT };

  it("asks both lists from the start on page 1, Shopify SKU descending by default", () => {
    expect(unmappedRequest(view, 0)).toEqual({
      limit: 10,
      shopifyOffset: 0,
      acumaticaOffset: 0,
      search: "",
      sortDirection: "desc",
    });
  });

  it("starts the second list where the first ends, mid-page and past it", () => {
    expect(unmappedRequest({ ...view, page: 3 }, 25)).toMatchObject({
      shopifyOffset: 20,
      acumaticaOffset: 0,
    });
    expect(unmappedRequest({ ...view, page: 4 }, 25)).toMatchObject({
      shopifyOffset: 30,
      acumaticaOffset: 5,
    });
    expect(unmappedRequest({ ...view, page: 5, sort: { id: "acumaticaSku", direction: "asc" } }, 12)).toEqual(
      { limit: 10, shopifyOffset: 28, acumaticaOffset: 40, search: "", sortDirection: "asc" },
    );
  });

  it("counts both lists as the table's rows", () => {
    expect(unmappedTotal(UNMAPPED)).toBe(61);
    expect(unmappedTotal(undefined)).toBe(0);
  });
});

describe("productChoices", () => {
  it("puts the edited mapping's current product first, since it is not among the unmapped", () => {
    const choices = productChoices([{ id: "v2", sku: "B" }], { id: "v1", sku: "A" });
    expect(choices.map((choice) => choice.id)).toEqual(["v1", "v2"]);
  });

  it("does not repeat a current product that is already a choice", () => {
    expect(productChoices([{ id: "v1", sku: "A" }], { id: "v1", sku: "A" })).toHaveLength(1);
  });
});

describe("filterChoices", () => {
  it("matches SKUs case-insensitively and caps what it shows", () => {
    const choices = Array.from({ length: 150 }, (_, index) => ({ id: String(index), sku: `SKU-${index}` }));
    expect(filterChoices(choices, "", 100)).toHaveLength(100);
    expect(filterChoices(choices, "sku-14", 100).map((choice) => choice.sku)).toContain("SKU-149");
  });
});

describe("describeChange", () => {
  it("shows prices with two decimals, no compare-at price as '-', quantities as whole numbers", () => {
    expect(describeChange({ field: "price", from: 12, to: 15.5 })).toEqual({
      label: "Price",
      from: "12.00",
      to: "15.50",
    });
    expect(describeChange({ field: "compareAtPrice", from: null, to: 20 })).toEqual({
      label: "Compare-at price",
      from: "-",
      to: "20.00",
    });
    expect(describeChange({ field: "quantity", from: 48, to: 21 })).toEqual({
      label: "Quantity",
      from: "48",
      to: "21",
    });
  });

  it("names the location of a quantity change when the plan writes several", () => {
    expect(describeChange({ field: "quantity", from: 4, to: 9, location: "Downtown Store" })).toEqual({
      label: "Quantity (Downtown Store)",
      from: "4",
      to: "9",
    });
  });
});

describe("syncOutcomeToast", () => {
  it("says 'Synchronized successfully' when the mapping was written or already in line", () => {
    expect(syncOutcomeToast(result("succeeded"))).toEqual({
      tone: "success",
      text: MESSAGES.mapping.synchronized,
    });
    expect(syncOutcomeToast(result("unchanged"))).toEqual({
      tone: "success",
      text: MESSAGES.mapping.synchronized,
    });
  });

  it("shows the failure text of the result, else the catalogue default", () => {
    expect(syncOutcomeToast(result("failed", "Shopify refused the quantity"))).toEqual({
      tone: "error",
      text: "Shopify refused the quantity",
    });
    expect(syncOutcomeToast(result("failed"))).toEqual({ tone: "error", text: MESSAGES.mapping.syncFailed });
    expect(syncOutcomeToast(undefined)).toEqual({ tone: "error", text: MESSAGES.mapping.syncFailed });
  });

  it("warns with the reason when nothing could be synchronized", () => {
    expect(syncOutcomeToast(result("skipped", "bundle")).tone).toBe("warning");
    expect(syncOutcomeToast(result("skipped", "bundle")).text).toContain("bundle");
  });
});

describe("mapping labels and dates", () => {
  it("names mapping types and writes Last Updated as an en-US short date", () => {
    expect(mappingTypeLabel("exact-sku")).toBe("Exact SKU");
    expect(mappingTypeLabel("manual")).toBe("Manual");
    const iso = "2026-03-07T12:00:00.000Z";
    expect(formatShortDate(iso)).toBe(new Date(iso).toLocaleDateString("en-US"));
    expect(formatShortDate(null)).toBe("-");
  });
});

describe("execution history display", () => {
  it("names a run by its schedule, else 'Unknown Schedule' (runs started by hand have none)", () => {
    expect(scheduleDisplayName({ schedule: { _id: "s1", name: "Nightly" } })).toBe("Nightly");
    expect(scheduleDisplayName({ schedule: null })).toBe("Unknown Schedule");
    expect(scheduleDisplayName({ schedule: { _id: "s2", name: "" } })).toBe("Unknown Schedule");
  });

  it("styles completed as success, running as primary and anything else as error", () => {
    expect(statusTone("completed")).toBe("success");
    expect(statusTone("running")).toBe("primary");
    expect(statusTone("failed")).toBe("error");
    expect(statusTone("cancelled")).toBe("error");
  });

  it("shows '-' for a run that has not ended", () => {
    expect(formatRunDate(null)).toBe("-");
    // Local time (no zone), so the test reads the same in every time zone.
    expect(formatRunDate("2026-03-07T12:34:56")).toBe("Mar 7, 2026 12:34:56");
  });
});
