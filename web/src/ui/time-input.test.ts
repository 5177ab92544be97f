import { describe, expect, it } from "vitest";
import { normalizeTime } from "./time-input.tsx";

describe("normalizeTime", () => {
  it("reads what a hurried hand types as 24-hour HH:MM", () => {
    expect(normalizeTime("930")).toBe("09:30");
    expect(normalizeTime("0930")).toBe("09:30");
    expect(normalizeTime("9:30")).toBe("09:30");
    expect(normalizeTime("21.45")).toBe("21:45");
    expect(normalizeTime("23:59")).toBe("23:59");
  });

  it("leaves what is no time as typed, for the field to name as an error", () => {
    expect(normalizeTime("24:00")).toBe("24:00");
    expect(normalizeTime("9:75")).toBe("9:75");
    expect(normalizeTime("9 pm")).toBe("9 pm");
  });
});
