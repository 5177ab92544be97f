import { describe, expect, it } from "vitest";
import { validateShopifyOperation } from "../../sandbox/src/shopify/index.ts";
import { bulkVariantsQuery, OPERATIONS, usesChangeFromQuantity } from "../src/sync/shopify-operations.ts";

/** The versions Shopify may serve a connection: the spec's four, and what it falls forward to. */
const BEFORE_2026 = ["2024-07", "2024-10", "2025-01", "2025-04"];
const FROM_2026 = ["2026-01", "2026-04"];
const FROM_2026_ONLY = new Set(["SET_QUANTITIES_CHANGE_FROM_MUTATION", "BULK_OPERATION_BY_ID_QUERY"]);

describe("Shopify operations of the sync engine", () => {
  for (const [name, document] of Object.entries(OPERATIONS)) {
    const versions = FROM_2026_ONLY.has(name) ? FROM_2026 : [...BEFORE_2026, ...FROM_2026];
    it.each(versions)(`${name} is valid against %s`, (version) => {
      expect(validateShopifyOperation(version, document)).toEqual([]);
    });
  }

  it("the bulk read is a valid query in every version", () => {
    for (const version of [...BEFORE_2026, ...FROM_2026])
      expect(validateShopifyOperation(version, bulkVariantsQuery("gid://shopify/Location/1"))).toEqual([]);
  });

  it("the changeFromQuantity write is refused before 2026-01, so the engine must pick by served version", () => {
    expect(validateShopifyOperation("2025-04", OPERATIONS.SET_QUANTITIES_CHANGE_FROM_MUTATION)).not.toEqual(
      [],
    );
    expect(usesChangeFromQuantity("2025-04")).toBe(false);
    expect(usesChangeFromQuantity("2026-01")).toBe(true);
    expect(usesChangeFromQuantity("unstable")).toBe(true);
  });
});
