import { generateCatalog, type SeedErpItem, type SeedVariant } from "@stockbridge/sandbox";
import { type ApiClient, ApiError, SANDBOX_DEMO, type SyncJobResult } from "@stockbridge/shared";
import { afterEach, describe, expect, it } from "vitest";
import { type DenoWorld, startDenoWorld, waitFor } from "../../testing/deno-harness.ts";

let world: DenoWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const PRIMARY = "gid://shopify/Location/70001";
const DOWNTOWN = "gid://shopify/Location/70002";
const CLOSED = "gid://shopify/Location/70003";
const QUANTITY = { price: false, quantity: true };

/** The sandbox's seed (startDenoWorld's default size): what each side held before any sync. */
const SEED = generateCatalog({ seed: 42, size: 60 });
const VARIANTS = SEED.shopify.products.flatMap((product) => product.variants);

function variantOf(gid: string): SeedVariant {
  return VARIANTS.find((variant) => `gid://shopify/ProductVariant/${variant.id}` === gid)!;
}

function itemOf(sku: string): SeedErpItem {
  return SEED.acumatica.items.find((item) => item.inventoryId === sku)!;
}

function availableIn(item: SeedErpItem, warehouseIds: string[]): number {
  return item.warehouses
    .filter((warehouse) => warehouseIds.includes(warehouse.warehouseId))
    .reduce((sum, warehouse) => sum + warehouse.available, 0);
}

/** Each location's `available` for the variants, read from the sandbox's Shopify like any app would. */
async function levelsOf(w: DenoWorld, variantIds: string[]): Promise<Map<string, Map<string, number>>> {
  const levels = new Map<string, Map<string, number>>();
  // Batches under Shopify's single-query cost cap.
  for (let start = 0; start < variantIds.length; start += 20)
    for (const [id, at] of await levelBatch(w, variantIds.slice(start, start + 20))) levels.set(id, at);
  return levels;
}

async function levelBatch(w: DenoWorld, variantIds: string[]): Promise<Map<string, Map<string, number>>> {
  const response = await fetch(
    `${w.sandbox.origin}/shopify/${SANDBOX_DEMO.shopify.storeName}/admin/api/2026-01/graphql.json`,
    {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-Shopify-Access-Token": SANDBOX_DEMO.shopify.accessToken,
      },
      body: JSON.stringify({
        query: `query($ids: [ID!]!) { nodes(ids: $ids) { ... on ProductVariant { id inventoryItem {
          inventoryLevels(first: 3) { nodes { location { id } quantities(names: ["available"]) { quantity } } } } } } }`,
        variables: { ids: variantIds },
      }),
    },
  );
  const body = (await response.json()) as {
    data: {
      nodes: {
        id: string;
        inventoryItem: {
          inventoryLevels: { nodes: { location: { id: string }; quantities: { quantity: number }[] }[] };
        };
      }[];
    };
  };
  if (!body.data) throw new Error(`sandbox read failed: ${JSON.stringify(body)}`);
  return new Map(
    body.data.nodes.map((node) => [
      node.id,
      new Map(
        node.inventoryItem.inventoryLevels.nodes.map((level) => [
          level.location.id,
          level.quantities[0]!.quantity,
        ]),
      ),
    ]),
  );
}

async function shopifyMutations(w: DenoWorld): Promise<number> {
  const response = await fetch(`${w.sandbox.origin}/__control/state`);
  return ((await response.json()) as { shopify: { mutations: number } }).shopify.mutations;
}

async function sync(api: ApiClient, dryRun = false): Promise<SyncJobResult> {
  const { job } = await api.call("syncMappings", { body: { syncOptions: QUANTITY, dryRun } });
  const done = await waitFor(api, job);
  expect(done.status).toBe("succeeded");
  return done.result as SyncJobResult;
}

/** The mappings of tracked, stocked, non-bundle variants whose ERP item is a stock item. */
function stockMappings<T extends { shopifyDetails: { variantId: string; sku: string } }>(mappings: T[]): T[] {
  return mappings.filter((mapping) => {
    const variant = variantOf(mapping.shopifyDetails.variantId);
    const item = itemOf(mapping.shopifyDetails.sku);
    return variant.tracked && !variant.isBundle && variant.levels.length > 0 && item?.isStockItem;
  });
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

// Real processes: the edge under Deno, the sandbox's Shopify and Acumatica over HTTP.
describe("locations and warehouses", () => {
  it("lists the store's locations and the ERP's warehouses, and shows the default mapping: the primary location fed by every warehouse", async () => {
    world = await startDenoWorld();
    const edge = await world.startEdge();
    const { api } = await world.readyUser(edge);

    expect(await api.call("shopifyLocations")).toEqual([
      { id: PRIMARY, name: "Main Warehouse", isActive: true, isPrimary: true },
      { id: DOWNTOWN, name: "Downtown Store", isActive: true, isPrimary: false },
      { id: CLOSED, name: "Harbor Pop-up", isActive: false, isPrimary: false },
    ]);
    expect(await api.call("acumaticaWarehouses")).toEqual([
      { id: "RETAIL", description: "Retail warehouse" },
      { id: "RETURNS", description: "Returns (not for shipping)" },
      { id: "WHOLESALE", description: "Wholesale warehouse" },
    ]);
    expect((await api.call("settings")).locationMapping).toEqual({
      locations: [{ shopifyLocationId: PRIMARY, warehouseIds: ["RETAIL", "RETURNS", "WHOLESALE"] }],
    });
  });

  it("refuses a location mapping with a 400 naming the rule it breaks, and saves nothing", async () => {
    world = await startDenoWorld();
    const edge = await world.startEdge();
    const { api } = await world.readyUser(edge);
    const save = (locations: { shopifyLocationId: string; warehouseIds: string[] }[]) =>
      api.call("saveLocationMapping", { body: { locations } });

    const none = await rejection(save([]));
    expect(none).toMatchObject({ status: 400, message: "locations must map at least one Shopify location" });
    const twice = await rejection(
      save([
        { shopifyLocationId: PRIMARY, warehouseIds: ["WHOLESALE", "RETAIL"] },
        { shopifyLocationId: DOWNTOWN, warehouseIds: ["retail"] },
      ]),
    );
    expect(twice).toMatchObject({
      status: 400,
      message: "A warehouse may feed only one location: RETAIL feeds two (choose one location for it)",
    });
    const unknownLocation = await rejection(
      save([{ shopifyLocationId: "gid://shopify/Location/99", warehouseIds: ["WHOLESALE"] }]),
    );
    expect(unknownLocation.status).toBe(400);
    expect(unknownLocation.errors).toEqual([
      {
        path: "locations.0.shopifyLocationId",
        message:
          "shopifyLocationId must be an active location of the store: gid://shopify/Location/99 is not (pull the Shopify catalog if it is new)",
      },
    ]);
    // A deactivated location stocks nothing: it cannot be fed.
    const closed = await rejection(save([{ shopifyLocationId: CLOSED, warehouseIds: ["WHOLESALE"] }]));
    expect(closed.errors[0]?.path).toBe("locations.0.shopifyLocationId");
    const unknownWarehouse = await rejection(
      save([{ shopifyLocationId: PRIMARY, warehouseIds: ["WHOLESALE", "ATTIC"] }]),
    );
    expect(unknownWarehouse).toMatchObject({
      status: 400,
      message:
        "warehouseIds must name Acumatica warehouses: ATTIC is not one (see GET /api/acumatica/warehouses)",
    });
    expect(unknownWarehouse.errors[0]?.path).toBe("locations.0.warehouseIds.1");
    expect((await api.call("settings")).locationMapping.locations).toEqual([
      { shopifyLocationId: PRIMARY, warehouseIds: ["RETAIL", "RETURNS", "WHOLESALE"] },
    ]);

    // Warehouse ids are matched as Acumatica matches keys and kept as the ERP spells them.
    const saved = await save([
      { shopifyLocationId: PRIMARY, warehouseIds: ["wholesale"] },
      { shopifyLocationId: DOWNTOWN, warehouseIds: ["RETAIL"] },
    ]);
    const expected = {
      locations: [
        { shopifyLocationId: PRIMARY, warehouseIds: ["WHOLESALE"] },
        { shopifyLocationId: DOWNTOWN, warehouseIds: ["RETAIL"] },
      ],
    };
    expect(saved).toEqual({ locationMapping: expected });
    expect((await api.call("settings")).locationMapping).toEqual(expected);
  });
});

describe("a quantity sync over mapped locations", () => {
  it("writes every mapped location in one batched call, each the sum of its warehouses, and skips an item where it is not stocked", async () => {
    world = await startDenoWorld();
    const edge = await world.startEdge();
    const { api, mappings } = await world.readyUser(edge);
    await api.call("saveSafetyLimits", { body: { maxPriceChangePercent: 0, maxZeroedPercent: 0 } });
    await api.call("saveLocationMapping", {
      body: {
        locations: [
          { shopifyLocationId: PRIMARY, warehouseIds: ["WHOLESALE"] },
          { shopifyLocationId: DOWNTOWN, warehouseIds: ["RETAIL", "RETURNS"] },
        ],
      },
    });
    const stock = stockMappings(mappings);
    const both = stock.find((m) => variantOf(m.shopifyDetails.variantId).levels.length === 2)!;
    const primaryOnly = stock.find((m) => variantOf(m.shopifyDetails.variantId).levels.length === 1)!;
    const bothItem = itemOf(both.shopifyDetails.sku);
    const bothLevels = variantOf(both.shopifyDetails.variantId).levels;

    // The plan preview: old -> new per location, named; the location an item is not stocked at is named too.
    const plan = await sync(api, true);
    expect(plan.changes.find((change) => change.mappingId === both._id)?.changes).toEqual([
      {
        field: "quantity",
        location: "Main Warehouse",
        from: bothLevels[0]!.available,
        to: availableIn(bothItem, ["WHOLESALE"]),
      },
      {
        field: "quantity",
        location: "Downtown Store",
        from: bothLevels[1]!.available,
        to: availableIn(bothItem, ["RETAIL", "RETURNS"]),
      },
    ]);
    const primaryOnlyItem = itemOf(primaryOnly.shopifyDetails.sku);
    expect(plan.changes.find((change) => change.mappingId === primaryOnly._id)).toMatchObject({
      reason: "Not stocked at Downtown Store",
      changes: [
        {
          field: "quantity",
          location: "Main Warehouse",
          from: variantOf(primaryOnly.shopifyDetails.variantId).levels[0]!.available,
          to: availableIn(primaryOnlyItem, ["WHOLESALE"]),
        },
      ],
    });

    const mutationsBefore = await shopifyMutations(world);
    const run = await sync(api);
    // Every location's quantities of the run travel in the same compare-and-set call (under 250 items).
    expect((await shopifyMutations(world)) - mutationsBefore).toBe(1);
    expect(run.failure).toBe(0);

    const levels = await levelsOf(
      world,
      stock.map((m) => m.shopifyDetails.variantId),
    );
    for (const mapping of stock) {
      const item = itemOf(mapping.shopifyDetails.sku);
      const at = levels.get(mapping.shopifyDetails.variantId)!;
      expect(at.get(PRIMARY)).toBe(availableIn(item, ["WHOLESALE"]));
      if (variantOf(mapping.shopifyDetails.variantId).levels.length === 2)
        expect(at.get(DOWNTOWN)).toBe(availableIn(item, ["RETAIL", "RETURNS"]));
    }
    // Never activated where it is not stocked, and said so on every run.
    expect([...levels.get(primaryOnly.shopifyDetails.variantId)!.keys()]).toEqual([PRIMARY]);
    const rerun = await api.call("syncMapping", {
      params: { id: primaryOnly._id },
      body: { syncOptions: QUANTITY },
    });
    expect(rerun.results[0]).toMatchObject({ outcome: "unchanged", reason: "Not stocked at Downtown Store" });
  });

  it("under the default mapping sets the primary location to the sum over every warehouse and leaves the others alone", async () => {
    world = await startDenoWorld();
    const edge = await world.startEdge();
    const { api, mappings } = await world.readyUser(edge);
    await api.call("saveSafetyLimits", { body: { maxPriceChangePercent: 0, maxZeroedPercent: 0 } });
    const stock = stockMappings(mappings);

    const plan = await sync(api, true);
    // Today's preview: quantity changes name no location (only the primary one is written).
    for (const change of plan.changes.flatMap((result) => result.changes))
      expect(change).not.toHaveProperty("location");
    const run = await sync(api);
    expect(run.failure).toBe(0);

    const levels = await levelsOf(
      world,
      stock.map((m) => m.shopifyDetails.variantId),
    );
    for (const mapping of stock) {
      const item = itemOf(mapping.shopifyDetails.sku);
      const variant = variantOf(mapping.shopifyDetails.variantId);
      const at = levels.get(mapping.shopifyDetails.variantId)!;
      expect(at.get(PRIMARY)).toBe(availableIn(item, ["WHOLESALE", "RETAIL", "RETURNS"]));
      const downtown = variant.levels.find((level) => level.locationId === 70_002);
      if (downtown) expect(at.get(DOWNTOWN)).toBe(downtown.available);
    }
  });
});
