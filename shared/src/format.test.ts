import { describe, expect, it } from "vitest";
import { formatMoney } from "./format.ts";

describe("formatMoney", () => {
  it("shows the currency's symbol before two decimals when the currency is known", () => {
    expect(formatMoney(39.86, "USD")).toBe("$39.86");
    expect(formatMoney(5, "EUR")).toBe("€5.00");
    expect(formatMoney(1234.5, "USD")).toBe("$1,234.50");
  });

  it("shows the bare amount when the currency is not known yet, and '-' for no value", () => {
    expect(formatMoney(39.86)).toBe("39.86");
    expect(formatMoney(39.86, null)).toBe("39.86");
    expect(formatMoney(null, "USD")).toBe("-");
  });
});
