import { describe, expect, it } from "vitest";
import {
  itemGid,
  locationGid,
  type ShopifyHarness,
  seededVariants,
  shopifyPerTest,
  variantGid,
} from "../../testing/shopify-harness.ts";
import type { SeedVariant } from "../seed/catalog.ts";

const start = shopifyPerTest();

const SET = `mutation Set($input: InventorySetQuantitiesInput!) {
  inventorySetQuantities(input: $input) {
    inventoryAdjustmentGroup { id reason referenceDocumentUri changes { name delta quantityAfterChange } }
    userErrors { code field message }
  }
}`;

const SET_IDEMPOTENT = `mutation Set($input: InventorySetQuantitiesInput!, $key: String!) {
  inventorySetQuantities(input: $input) @idempotent(key: $key) {
    inventoryAdjustmentGroup { id changes { name delta quantityAfterChange } }
    userErrors { code field message }
  }
}`;

interface SetPayload {
  inventorySetQuantities: {
    inventoryAdjustmentGroup: {
      id: string;
      reason?: string;
      referenceDocumentUri?: string | null;
      changes: { name: string; delta: number; quantityAfterChange: number }[];
    } | null;
    userErrors: { code: string; field: string[] | null; message: string }[];
  } | null;
}

/** A tracked, stocked, non-bundle variant and its first level. */
function stocked(h: ShopifyHarness, index = 0) {
  const candidates = seededVariants(h.catalog)
    .map(({ variant }) => variant)
    .filter((variant) => variant.tracked && !variant.isBundle && variant.levels.length > 0);
  const variant = candidates[index]!;
  const level = variant.levels[0]!;
  return { variant, level, item: itemGid(variant.inventoryItemId), location: locationGid(level.locationId) };
}

function input(quantities: Record<string, unknown>[], extra: Record<string, unknown> = {}) {
  return { name: "available", reason: "correction", ...extra, quantities };
}

async function availableAt(h: ShopifyHarness, variant: SeedVariant, locationId: number, version = "2026-01") {
  const { data } = await h.client({ apiVersion: version }).request<{
    inventoryItem: { inventoryLevel: { quantities: { quantity: number }[] } };
  }>(
    `query($item: ID!, $location: ID!) { inventoryItem(id: $item) { inventoryLevel(locationId: $location) { quantities(names: ["available"]) { quantity } } } }`,
    { variables: { item: itemGid(variant.inventoryItemId), location: locationGid(locationId) } },
  );
  return data!.inventoryItem.inventoryLevel.quantities[0]!.quantity;
}

describe("inventorySetQuantities before 2026-01 (compareQuantity)", () => {
  const releaseDate = new Date("2025-03-01T00:00:00Z");

  it("sets available when compareQuantity matches and reports both changed quantities", async () => {
    const h = await start({ releaseDate });
    const { variant, level, item, location } = stocked(h);
    const { data } = await h.client({ apiVersion: "2025-01" }).request<SetPayload>(SET, {
      variables: {
        input: input(
          [
            {
              inventoryItemId: item,
              locationId: location,
              quantity: level.available + 7,
              compareQuantity: level.available,
            },
          ],
          {
            referenceDocumentUri: "gid://stockbridge/SyncRun/42",
          },
        ),
      },
    });
    const onHand = level.available + level.committed + level.unavailable;
    expect(data!.inventorySetQuantities).toEqual({
      inventoryAdjustmentGroup: {
        id: expect.stringMatching(/^gid:\/\/shopify\/InventoryAdjustmentGroup\/\d+$/),
        reason: "correction",
        referenceDocumentUri: "gid://stockbridge/SyncRun/42",
        changes: [
          { name: "available", delta: 7, quantityAfterChange: level.available + 7 },
          { name: "on_hand", delta: 7, quantityAfterChange: onHand + 7 },
        ],
      },
      userErrors: [],
    });
    expect(await availableAt(h, variant, level.locationId, "2025-01")).toBe(level.available + 7);
  });

  it("answers COMPARE_QUANTITY_REQUIRED without compareQuantity or ignoreCompareQuantity", async () => {
    const h = await start({ releaseDate });
    const { item, location } = stocked(h);
    const { data } = await h.client({ apiVersion: "2025-01" }).request<SetPayload>(SET, {
      variables: { input: input([{ inventoryItemId: item, locationId: location, quantity: 3 }]) },
    });
    expect(data!.inventorySetQuantities).toEqual({
      inventoryAdjustmentGroup: null,
      userErrors: [
        {
          code: "COMPARE_QUANTITY_REQUIRED",
          field: ["input", "quantities", "0", "compareQuantity"],
          message:
            "The compareQuantity argument must be given to each quantity or ignored using ignoreCompareQuantity.",
        },
      ],
    });
  });

  it("answers COMPARE_QUANTITY_STALE and applies nothing when one compareQuantity is stale", async () => {
    const h = await start({ releaseDate });
    const first = stocked(h, 0);
    const second = stocked(h, 1);
    const { data } = await h.client({ apiVersion: "2025-01" }).request<SetPayload>(SET, {
      variables: {
        input: input([
          {
            inventoryItemId: first.item,
            locationId: first.location,
            quantity: 1,
            compareQuantity: first.level.available,
          },
          {
            inventoryItemId: second.item,
            locationId: second.location,
            quantity: 1,
            compareQuantity: second.level.available + 1,
          },
        ]),
      },
    });
    expect(data!.inventorySetQuantities!.userErrors).toEqual([
      {
        code: "COMPARE_QUANTITY_STALE",
        field: ["input", "quantities", "1", "compareQuantity"],
        message: "The compareQuantity value does not match persisted value.",
      },
    ]);
    expect(await availableAt(h, first.variant, first.level.locationId, "2025-01")).toBe(
      first.level.available,
    );
  });

  it("sets on_hand and derives available by keeping committed and unavailable units", async () => {
    const h = await start({ releaseDate });
    const { variant, level, item, location } = stocked(h);
    const { data } = await h.client({ apiVersion: "2025-01" }).request<SetPayload>(SET, {
      variables: {
        input: input([{ inventoryItemId: item, locationId: location, quantity: 100 }], {
          name: "on_hand",
          ignoreCompareQuantity: true,
        }),
      },
    });
    const available = 100 - level.committed - level.unavailable;
    expect(data!.inventorySetQuantities!.inventoryAdjustmentGroup!.changes).toEqual([
      { name: "on_hand", delta: available - level.available, quantityAfterChange: 100 },
      { name: "available", delta: available - level.available, quantityAfterChange: available },
    ]);
    expect(await availableAt(h, variant, level.locationId, "2025-01")).toBe(available);
  });

  it("does not know changeFromQuantity yet", async () => {
    const h = await start({ releaseDate });
    const { item, location } = stocked(h);
    const { errors } = await h.client({ apiVersion: "2025-01" }).request(SET, {
      variables: {
        input: input([{ inventoryItemId: item, locationId: location, quantity: 1, changeFromQuantity: 0 }]),
      },
    });
    expect(errors?.graphQLErrors?.[0]?.message).toMatch(
      /^Variable \$input of type InventorySetQuantitiesInput! was provided invalid value for quantities\.0\.changeFromQuantity/,
    );
  });
});

describe("inventorySetQuantities from 2026-01 (changeFromQuantity, @idempotent)", () => {
  it("answers CHANGE_FROM_QUANTITY_STALE for a stale value and applies a matching one", async () => {
    const h = await start();
    const { variant, level, item, location } = stocked(h);
    const shopify = h.client({ apiVersion: "2026-01" });
    const stale = await shopify.request<SetPayload>(SET, {
      variables: {
        input: input([
          {
            inventoryItemId: item,
            locationId: location,
            quantity: 5,
            changeFromQuantity: level.available + 2,
          },
        ]),
      },
    });
    expect(stale.data!.inventorySetQuantities!.userErrors).toEqual([
      {
        code: "CHANGE_FROM_QUANTITY_STALE",
        field: ["input", "quantities", "0", "changeFromQuantity"],
        message: "The changeFromQuantity value does not match persisted value.",
      },
    ]);
    const matching = await shopify.request<SetPayload>(SET, {
      variables: {
        input: input([
          { inventoryItemId: item, locationId: location, quantity: 5, changeFromQuantity: level.available },
        ]),
      },
    });
    expect(matching.data!.inventorySetQuantities!.userErrors).toEqual([]);
    expect(await availableAt(h, variant, level.locationId)).toBe(5);
  });

  it("skips the check for an explicit null changeFromQuantity, overriding the old compare rules", async () => {
    const h = await start();
    const { variant, level, item, location } = stocked(h);
    const { data } = await h.client({ apiVersion: "2026-01" }).request<SetPayload>(SET, {
      variables: {
        input: input([
          { inventoryItemId: item, locationId: location, quantity: 9, changeFromQuantity: null },
        ]),
      },
    });
    expect(data!.inventorySetQuantities!.userErrors).toEqual([]);
    expect(await availableAt(h, variant, level.locationId)).toBe(9);
  });

  it("replays an idempotent retry without applying it twice", async () => {
    const h = await start();
    const { level, item, location } = stocked(h);
    const shopify = h.client({ apiVersion: "2026-01" });
    const variables = {
      key: "3f5b6ebf-143c-4da5-8d0f-fb8553bfd85d",
      input: input([
        {
          inventoryItemId: item,
          locationId: location,
          quantity: level.available + 1,
          changeFromQuantity: level.available,
        },
      ]),
    };
    const first = await shopify.request<SetPayload>(SET_IDEMPOTENT, { variables });
    const retry = await shopify.request<SetPayload>(SET_IDEMPOTENT, { variables });
    expect(retry.data).toEqual(first.data);
    expect(first.data!.inventorySetQuantities!.userErrors).toEqual([]);

    const reused = await shopify.request<SetPayload>(SET_IDEMPOTENT, {
      variables: {
        ...variables,
        input: input([
          { inventoryItemId: item, locationId: location, quantity: 0, changeFromQuantity: null },
        ]),
      },
    });
    expect(reused.data!.inventorySetQuantities!.userErrors[0]!.code).toBe(
      "IDEMPOTENCY_KEY_PARAMETER_MISMATCH",
    );
  });
});

describe("inventorySetQuantities from 2026-04", () => {
  it("no longer accepts compareQuantity", async () => {
    const h = await start();
    const { item, location } = stocked(h);
    const { errors } = await h.client({ apiVersion: "2026-04" }).request(SET_IDEMPOTENT, {
      variables: {
        key: "k1",
        input: input([{ inventoryItemId: item, locationId: location, quantity: 1, compareQuantity: 0 }]),
      },
    });
    expect(errors?.graphQLErrors?.[0]?.extensions?.code).toBe("INVALID_VARIABLE");
  });

  it("requires changeFromQuantity on every quantity and an idempotency key", async () => {
    const h = await start();
    const { item, location } = stocked(h);
    const shopify = h.client({ apiVersion: "2026-04" });
    const missing = await shopify.request<SetPayload>(SET_IDEMPOTENT, {
      variables: { key: "k2", input: input([{ inventoryItemId: item, locationId: location, quantity: 1 }]) },
    });
    expect(missing.data!.inventorySetQuantities!.userErrors[0]).toMatchObject({
      field: ["input", "quantities", "0", "changeFromQuantity"],
    });
    const withoutKey = await shopify.request<SetPayload>(SET, {
      variables: {
        input: input([
          { inventoryItemId: item, locationId: location, quantity: 1, changeFromQuantity: null },
        ]),
      },
    });
    expect(withoutKey.data?.inventorySetQuantities ?? null).toBeNull();
    expect(withoutKey.errors?.graphQLErrors?.[0]?.message).toMatch(/@idempotent/);
  });
});

describe("inventorySetQuantities input errors", () => {
  it("refuses items not stocked at the location, bundles, bad names, reasons and duplicates", async () => {
    const h = await start();
    const variants = seededVariants(h.catalog).map(({ variant }) => variant);
    const notStocked = variants.find((variant) => variant.requiresShipping && variant.levels.length === 0)!;
    const bundle = variants.find((variant) => variant.isBundle)!;
    const { item, location } = stocked(h);
    const quantities = [
      {
        inventoryItemId: itemGid(notStocked.inventoryItemId),
        locationId: location,
        quantity: 1,
        changeFromQuantity: null,
      },
      {
        inventoryItemId: itemGid(bundle.inventoryItemId),
        locationId: location,
        quantity: 1,
        changeFromQuantity: null,
      },
      { inventoryItemId: item, locationId: location, quantity: 1, changeFromQuantity: null },
      { inventoryItemId: item, locationId: location, quantity: 2, changeFromQuantity: null },
      { inventoryItemId: itemGid(1), locationId: location, quantity: 1, changeFromQuantity: null },
    ];
    const { data } = await h.client().request<SetPayload>(SET, {
      variables: { input: input(quantities, { name: "committed", reason: "because" }) },
    });
    expect(
      data!.inventorySetQuantities!.userErrors.map((error) => [error.code, error.field?.join(".")]),
    ).toEqual([
      ["INVALID_NAME", "input.name"],
      ["INVALID_REASON", "input.reason"],
      ["ITEM_NOT_STOCKED_AT_LOCATION", "input.quantities.0.locationId"],
      ["NON_MUTABLE_INVENTORY_ITEM", "input.quantities.1.inventoryItemId"],
      ["NO_DUPLICATE_INVENTORY_ITEM_ID_GROUP_ID_PAIR", "input.quantities.3"],
      ["INVALID_INVENTORY_ITEM", "input.quantities.4.inventoryItemId"],
    ]);
  });

  it("limits the quantities array to 250 items", async () => {
    const h = await start();
    const { item, location } = stocked(h);
    const quantities = Array.from({ length: 251 }, () => ({
      inventoryItemId: item,
      locationId: location,
      quantity: 1,
    }));
    const { errors } = await h.client().request(SET, { variables: { input: input(quantities) } });
    expect(errors?.graphQLErrors?.[0]).toMatchObject({
      message: "The input array size of 251 is greater than the maximum allowed of 250.",
      extensions: { code: "MAX_INPUT_SIZE_EXCEEDED" },
    });
  });

  it("stocks an item at a location with inventoryActivate so quantities can then be set", async () => {
    const h = await start();
    const notStocked = seededVariants(h.catalog)
      .map(({ variant }) => variant)
      .find((variant) => variant.requiresShipping && variant.levels.length === 0)!;
    const location = h.catalog.shopify.locations[0]!.id;
    const shopify = h.client();
    const activated = await shopify.request(
      `mutation($item: ID!, $location: ID!) { inventoryActivate(inventoryItemId: $item, locationId: $location, available: 0) { inventoryLevel { id } userErrors { message } } }`,
      { variables: { item: itemGid(notStocked.inventoryItemId), location: locationGid(location) } },
    );
    expect(activated.errors).toBeUndefined();
    const { data } = await shopify.request<SetPayload>(SET, {
      variables: {
        input: input([
          {
            inventoryItemId: itemGid(notStocked.inventoryItemId),
            locationId: locationGid(location),
            quantity: 4,
            changeFromQuantity: 0,
          },
        ]),
      },
    });
    expect(data!.inventorySetQuantities!.userErrors).toEqual([]);
    expect(await availableAt(h, notStocked, location)).toBe(4);
  });
});

describe("locations", () => {
  const LOCATIONS = `query($inactive: Boolean) {
    locations(first: 10, includeInactive: $inactive) { nodes { id name isActive isPrimary shipsInventory } }
    location { id }
  }`;
  interface LocationsAnswer {
    locations: { nodes: { id: string; name: string; isActive: boolean; isPrimary: boolean }[] };
    location: { id: string };
  }

  it("lists the active locations, and the deactivated one only with includeInactive", async () => {
    const h = await start();
    const shopify = h.client();
    const active = await shopify.request<LocationsAnswer>(LOCATIONS, { variables: { inactive: false } });
    const every = await shopify.request<LocationsAnswer>(LOCATIONS, { variables: { inactive: true } });
    const [primary, partial, closed] = h.catalog.shopify.locations;
    // Sorted by name, Shopify's default order.
    expect(active.data!.locations.nodes.map((location) => location.id)).toEqual([
      locationGid(partial!.id),
      locationGid(primary!.id),
    ]);
    expect(every.data!.locations.nodes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: locationGid(closed!.id), isActive: false, isPrimary: false }),
        expect.objectContaining({ id: locationGid(primary!.id), isActive: true, isPrimary: true }),
      ]),
    );
    expect(every.data!.location.id).toBe(locationGid(primary!.id));
  });

  it("stocks some items at the second location only, and nothing at the deactivated one", async () => {
    const h = await start();
    const [primary, partial, closed] = h.catalog.shopify.locations;
    const stockedItems = seededVariants(h.catalog)
      .map(({ variant }) => variant)
      .filter((variant) => variant.tracked && variant.levels.length > 0);
    const at = (id: number) =>
      stockedItems.filter((variant) => variant.levels.some((l) => l.locationId === id));
    expect(at(primary!.id).length).toBe(stockedItems.length);
    expect(at(partial!.id).length).toBeGreaterThan(0);
    expect(at(partial!.id).length).toBeLessThan(stockedItems.length);
    expect(at(closed!.id)).toEqual([]);
  });

  it("refuses a quantity at a location where the item is not stocked, naming that item", async () => {
    const h = await start();
    const [, partial] = h.catalog.shopify.locations;
    const variant = seededVariants(h.catalog)
      .map(({ variant }) => variant)
      .find((v) => v.tracked && !v.isBundle && v.levels.length === 1)!;
    const { data } = await h.client().request<SetPayload>(SET, {
      variables: {
        input: input([
          {
            inventoryItemId: itemGid(variant.inventoryItemId),
            locationId: locationGid(partial!.id),
            quantity: 3,
            changeFromQuantity: null,
          },
        ]),
      },
    });
    expect(data!.inventorySetQuantities!.inventoryAdjustmentGroup).toBeNull();
    expect(data!.inventorySetQuantities!.userErrors).toEqual([
      {
        code: "ITEM_NOT_STOCKED_AT_LOCATION",
        field: ["input", "quantities", "0", "locationId"],
        message: "The specified inventory item is not stocked at the location.",
      },
    ]);
  });
});

describe("a quantity change and the variant's updated_at", () => {
  it("moves the level's updatedAt but not the variant's, so an updated_at search or count leaves the variant out", async () => {
    const h = await start();
    const { variant, level, item, location } = stocked(h);
    const since = h.clock.now().toISOString();
    h.advanceSeconds(5);
    const shopify = h.client();

    const { data } = await shopify.request<SetPayload>(SET_IDEMPOTENT, {
      variables: {
        key: "quantity-only",
        input: input([
          {
            inventoryItemId: item,
            locationId: location,
            quantity: level.available + 3,
            changeFromQuantity: level.available,
          },
        ]),
      },
    });
    expect(data!.inventorySetQuantities!.userErrors).toEqual([]);

    const query = `updated_at:>'${since}'`;
    const read = await shopify.request<{
      productVariant: { updatedAt: string; inventoryItem: { inventoryLevel: { updatedAt: string } } };
      productVariants: { nodes: { id: string }[] };
    }>(
      `query($id: ID!, $location: ID!, $query: String!) {
        productVariant(id: $id) { updatedAt inventoryItem { inventoryLevel(locationId: $location) { updatedAt } } }
        productVariants(first: 50, query: $query) { nodes { id } }
      }`,
      { variables: { id: variantGid(variant.id), location, query } },
    );
    expect(Date.parse(read.data!.productVariant.inventoryItem.inventoryLevel.updatedAt)).toBeGreaterThan(
      Date.parse(since),
    );
    expect(Date.parse(read.data!.productVariant.updatedAt)).toBeLessThan(Date.parse(since));
    expect(read.data!.productVariants.nodes).toEqual([]);
  });
});
