import { describe, expect, it } from "vitest";
import type { ShopifyValues } from "./variant-read.ts";
import { VariantTable } from "./variant-table.ts";

const LOCATIONS = ["gid://shopify/Location/1", "gid://shopify/Location/2"];

function values(id: number, overrides: Partial<ShopifyValues> = {}): ShopifyValues {
  return {
    variantId: `gid://shopify/ProductVariant/${id}`,
    productId: `gid://shopify/Product/${Math.floor(id / 3)}`,
    priceCents: 1_299 + id,
    compareAtCents: 1_999,
    inventoryItemId: `gid://shopify/InventoryItem/${40_000_000_000 + id}`,
    tracked: true,
    isBundle: false,
    locationId: LOCATIONS[0]!,
    available: 4,
    onHand: 6,
    levels: [
      { locationId: LOCATIONS[0]!, available: 4, onHand: 6 },
      { locationId: LOCATIONS[1]!, available: -2, onHand: 0 },
    ],
    ...overrides,
  };
}

describe("VariantTable", () => {
  it("gives back exactly the values it was given, whatever they hold", async () => {
    const table = new VariantTable(LOCATIONS);
    const given: [string, ShopifyValues | null][] = [
      ["gid://shopify/ProductVariant/1", values(1)],
      ["gid://shopify/ProductVariant/2", values(2, { compareAtCents: null, tracked: false, isBundle: true })],
      // Stocked only at the second location: no first-location values.
      [
        "gid://shopify/ProductVariant/3",
        values(3, {
          locationId: null,
          available: null,
          onHand: null,
          levels: [{ locationId: LOCATIONS[1]!, available: 7, onHand: 7 }],
        }),
      ],
      [
        "gid://shopify/ProductVariant/4",
        values(4, { inventoryItemId: null, levels: [], locationId: null, available: null, onHand: null }),
      ],
      // An inventory item id that is not `gid://shopify/InventoryItem/<number>` comes back as written.
      ["gid://shopify/ProductVariant/5", values(5, { inventoryItemId: "gid://shopify/InventoryItem/0042" })],
      // Asked for by a bare number: kept under it, its GID as the variant id.
      ["6", values(6)],
      ["gid://shopify/ProductVariant/7", null],
    ];
    for (const [id, value] of given) table.set(id, value);

    for (const [id, value] of given) expect(table.get(id)).toEqual(value);
    expect(table.get("gid://shopify/ProductVariant/8")).toBeUndefined();
  });
});
