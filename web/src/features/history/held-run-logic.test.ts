import { describe, expect, it } from "vitest";
import { heldFieldLabel, heldResultLabel, heldValue, statusLabel, statusTone } from "./history-logic.ts";
import { historyKeys } from "./queries.ts";

describe("held runs in execution history", () => {
  it("reads 'Held for review' and 'Discarded' on the chip, in error style as the spec gives anything but completed and running", () => {
    expect(statusLabel("held")).toBe("Held for review");
    expect(statusLabel("discarded")).toBe("Discarded");
    expect(statusTone("held")).toBe("error");
    expect(statusTone("discarded")).toBe("error");
  });

  it("shows plan values as money with two decimals, 'None' for no compare-at price, quantities as units", () => {
    expect(heldValue({ field: "price" }, 12.5)).toBe("12.50");
    expect(heldValue({ field: "compareAtPrice" }, null)).toBe("None");
    expect(heldValue({ field: "quantity" }, 0)).toBe("0");
    expect(heldFieldLabel("compareAtPrice")).toBe("Compare-at price");
  });

  it("says what approving did with each change, and '-' before a decision", () => {
    expect(heldResultLabel(null)).toBe("-");
    expect(heldResultLabel("changed")).toBe("Changed since: not written");
    expect(heldResultLabel("unchanged")).toBe("Already set");
  });

  it("keys a plan under the history area, so every history refresh reaches it", () => {
    const key = historyKeys.plan("run-1", { status: "held", page: 1, limit: 10 });
    expect(key.slice(0, historyKeys.all.length)).toEqual([...historyKeys.all]);
  });
});
