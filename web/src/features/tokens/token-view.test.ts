import { describe, expect, it } from "vitest";
import { DEFAULT_EXPIRY, describeExpiry, describeLastUse, EXPIRY_CHOICES, expiryDays } from "./token-view.ts";

describe("API token view", () => {
  it("sends whole days for each expiry choice and nothing for 'No expiry'", () => {
    expect(EXPIRY_CHOICES.map((choice) => expiryDays(choice.value))).toEqual([30, 90, 365, undefined]);
    expect(expiryDays(DEFAULT_EXPIRY)).toBe(90);
  });

  it("says 'Never' for a token not used yet or without an expiry", () => {
    expect(describeLastUse({ lastUsedAt: null })).toBe("Never");
    expect(describeExpiry({ expiresAt: null }, new Date())).toBe("Never");
  });

  it("marks a token expired once its expiry has passed", () => {
    const expiresAt = "2026-11-21T10:00:00.000Z";
    expect(describeExpiry({ expiresAt }, new Date("2026-11-21T09:59:59Z"))).not.toMatch(/^Expired/);
    expect(describeExpiry({ expiresAt }, new Date("2026-11-21T10:00:00Z"))).toMatch(
      /^Expired Nov 2[01], 2026/,
    );
  });
});
