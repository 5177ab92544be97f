import { describe, expect, it } from "vitest";
import { driftNote } from "../history/history-logic.ts";
import { checkedText, driftValue, fixMessage, locationLabel } from "./drift-logic.ts";

describe("drift values", () => {
  it("shows prices in dollars with two decimals, quantities in units and '-' for none", () => {
    expect(driftValue({ field: "price" }, 12.5)).toBe("12.50");
    expect(driftValue({ field: "compareAtPrice" }, null)).toBe("-");
    expect(driftValue({ field: "quantity" }, 0)).toBe("0");
  });

  it("names a Shopify location by its number, and none for prices", () => {
    expect(locationLabel("gid://shopify/Location/70001")).toBe("Location 70001");
    expect(locationLabel(null)).toBe("-");
  });
});

describe("checkedText", () => {
  it("says when the check ran and how many of its mappings differ", () => {
    const at = new Date(2026, 10, 21, 10, 15).toISOString();
    expect(checkedText({ checkedAt: at, mappings: 240, drifted: 12 })).toBe(
      "Checked Nov 21, 2026 10:15 · 12 of 240 mappings differ",
    );
    expect(checkedText({ checkedAt: null, mappings: 0, drifted: 0 })).toBe("Not checked yet");
  });
});

describe("fixMessage", () => {
  it("names how many mappings the fix syncs and which values it writes", () => {
    expect(fixMessage({ drifted: 1, byField: { price: 0, compareAtPrice: 1, quantity: 0 } })).toBe(
      "Sync the 1 mapping that differs? The ERP's prices will be written to Shopify, and the run is recorded in Execution History.",
    );
    expect(fixMessage({ drifted: 3, byField: { price: 2, compareAtPrice: 0, quantity: 1 } })).toContain(
      "Sync the 3 mappings that differ? The ERP's prices and quantities",
    );
  });
});

describe("driftNote", () => {
  it("tells a check that wrote nothing from a sync, with what still differs", () => {
    expect(driftNote({ checkOnly: true, drifted: 2 })).toBe(
      "Check only: both sides were read and nothing was written to Shopify. 2 mappings differ from the ERP.",
    );
    expect(driftNote({ checkOnly: false, drifted: 1 })).toBe("1 mapping differs from the ERP.");
    expect(driftNote({ checkOnly: true, drifted: 0 })).toContain("Every mapping matched the ERP.");
  });
});
