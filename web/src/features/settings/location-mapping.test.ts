import type { ShopifyLocation } from "@stockbridge/shared";
import { describe, expect, it } from "vitest";
import { feedsOf, mappingOf, toggleWarehouse } from "./location-mapping.ts";

const MAIN: ShopifyLocation = { id: "L1", name: "Main", isActive: true, isPrimary: true };
const STORE: ShopifyLocation = { id: "L2", name: "Store", isActive: true, isPrimary: false };
const WAREHOUSES = [
  { id: "RETAIL", description: "" },
  { id: "WHOLESALE", description: "" },
];

describe("the Location Mapping card's rules", () => {
  it("shows the default, the primary location fed by every warehouse, when nothing is known yet", () => {
    const feeds = feedsOf({ locations: [] }, { locations: [MAIN, STORE], warehouses: WAREHOUSES });
    expect(Object.fromEntries(feeds)).toEqual({ L1: ["RETAIL", "WHOLESALE"], L2: [] });
  });

  it("moves a warehouse ticked under another location, so it never feeds two", () => {
    const feeds = feedsOf(
      { locations: [{ shopifyLocationId: "L1", warehouseIds: ["RETAIL", "WHOLESALE"] }] },
      { locations: [MAIN, STORE], warehouses: WAREHOUSES },
    );
    const moved = toggleWarehouse(feeds, { locationId: "L2", warehouseId: "RETAIL", checked: true });
    expect(Object.fromEntries(moved)).toEqual({ L1: ["WHOLESALE"], L2: ["RETAIL"] });
    expect(mappingOf(moved, [MAIN, STORE])).toEqual({
      locations: [
        { shopifyLocationId: "L1", warehouseIds: ["WHOLESALE"] },
        { shopifyLocationId: "L2", warehouseIds: ["RETAIL"] },
      ],
    });
  });

  it("leaves a location fed by no warehouse out of what it saves", () => {
    const feeds = toggleWarehouse(
      new Map([
        ["L1", ["RETAIL"]],
        ["L2", []],
      ]),
      { locationId: "L1", warehouseId: "RETAIL", checked: false },
    );
    expect(mappingOf(feeds, [MAIN, STORE])).toEqual({ locations: [] });
  });
});
