import { SANDBOX_DEMO } from "@stockbridge/shared";
import { afterEach, describe, expect, it } from "vitest";
import { type SyncWorld, startSyncWorld } from "../../../testing/sync-harness.ts";
import type { ConnectorClock } from "../transport.ts";
import { createBulkSlots } from "./bulk-slots.ts";
import { createShopifyClient } from "./graphql-client.ts";
import { createShopifyStore } from "./store.ts";

let world: SyncWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function open(options: Parameters<typeof startSyncWorld>[0] = {}) {
  world = await startSyncWorld(options);
  return world;
}

const variantGid = (id: number) => `gid://shopify/ProductVariant/${id}`;

/** The first tracked, stocked variant (not a bundle) of each product that has one, with its first level. */
function stockedVariants(w: SyncWorld) {
  return w.catalog.shopify.products.flatMap((product) => {
    const variant = product.variants.find(
      (candidate) => candidate.tracked && !candidate.isBundle && candidate.levels.length > 0,
    );
    return variant ? [{ product, variant, level: variant.levels[0]! }] : [];
  });
}

/** A variant added to a product as a merchant would in the Shopify admin. */
async function addVariant(w: SyncWorld, productId: number): Promise<string> {
  const response = await fetch(`${w.origin}/__control/shopify/variants`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ productId, priceCents: 1_999, sku: "ADDED-1", title: "Added later" }),
  });
  if (!response.ok) throw new Error(`adding a variant: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

/**
 * Through the app's own writers: one variant's price, another's available quantity only, and a
 * variant added to a third product. Answers the ids of the price-changed and the added variant.
 */
async function changeThree(w: SyncWorld) {
  const [priced, counted, other] = stockedVariants(w);
  const store = await w.shopifyStore();
  const priceErrors = await store.writePrices(
    [
      {
        mappingId: "priced",
        productId: `gid://shopify/Product/${priced!.product.id}`,
        variantId: variantGid(priced!.variant.id),
        priceCents: priced!.variant.priceCents + 100,
      },
    ],
    { runId: "changes-test" },
  );
  expect([...priceErrors.values()]).toEqual([null]);
  const quantities = await store.setQuantities(
    [
      {
        mappingId: "counted",
        variantId: variantGid(counted!.variant.id),
        name: "available",
        inventoryItemId: `gid://shopify/InventoryItem/${counted!.variant.inventoryItemId}`,
        locationId: `gid://shopify/Location/${counted!.level.locationId}`,
        from: counted!.level.available,
        to: counted!.level.available + 5,
      },
    ],
    { runId: "changes-test" },
  );
  expect([...quantities.values()]).toEqual([{ kind: "written" }]);
  const added = await addVariant(w, other!.product.id);
  return { priced: variantGid(priced!.variant.id), added };
}

describe("ShopifyStore.changedVariants", () => {
  it("finds a price change and a variant added since, and not a quantity-only change", async () => {
    const w = await open();
    const since = w.clock.now();
    w.advance(2_000);
    const { priced, added } = await changeThree(w);

    const changed = await (await w.shopifyStore()).changedVariants({ since, limit: 100 });

    expect(changed).toEqual(new Set([priced, added]));
  });

  it("finds a change made later in the same second as since (Shopify keeps updated_at to the second)", async () => {
    const w = await open();
    w.advance(300);
    const since = w.clock.now();
    w.advance(400);
    const { priced, added } = await changeThree(w);

    const changed = await (await w.shopifyStore()).changedVariants({ since, limit: 100 });

    expect(changed).toEqual(new Set([priced, added]));
  });

  it("answers an empty set when nothing changed after since", async () => {
    const w = await open();
    await changeThree(w);
    w.advance(2_000);

    expect(await (await w.shopifyStore()).changedVariants({ since: w.clock.now(), limit: 100 })).toEqual(
      new Set(),
    );
  });

  it("answers null once its pages pass the limit", async () => {
    const w = await open();
    const since = w.clock.now();
    w.advance(2_000);
    await changeThree(w);

    // Two of the three changes move updated_at (the price and the added variant; not the stock).
    expect(await (await w.shopifyStore()).changedVariants({ since, limit: 1 })).toBeNull();
    expect(await (await w.shopifyStore()).changedVariants({ since, limit: 2 })).toHaveProperty("size", 2);
  });

  it("reads the changes on 2024-07 too, which has no productVariantsCount (nothing is counted first)", async () => {
    const w = await open({ releaseDate: new Date("2024-08-01T00:00:00Z") });
    const since = new Date("2026-01-01T00:00:00Z"); // every seeded variant was updated after this
    const clock: ConnectorClock = {
      now: () => w.clock.now().getTime(),
      sleep: async (milliseconds) => w.advance(milliseconds),
    };
    const client = createShopifyClient({
      ...SANDBOX_DEMO.shopify,
      apiVersion: "2024-07",
      fetch: (input, init) => fetch(input, init),
      originFor: (store) => `${w.origin}/shopify/${store}`,
      clock,
    });
    const store = createShopifyStore(client, {
      fetch: (input, init) => fetch(input, init),
      clock,
      bulkSlots: createBulkSlots(w.app.db, w.app.clock.now).forStore(SANDBOX_DEMO.shopify.storeName),
    });
    const every = w.catalog.shopify.products.flatMap((product) =>
      product.variants.map((variant) => variantGid(variant.id)),
    );

    expect(await store.changedVariants({ since, limit: 10_000 })).toEqual(new Set(every));
    expect(client.servedVersion).toBe("2024-07");
  });

  it.each([
    ["Shopify's documented costs", 1],
    ["a store whose queries cost 20 times more (pages learnt from MAX_COST_EXCEEDED)", 20],
  ])("reads a change set larger than one page in full, at %s", async (_label, costMultiplier) => {
    const w = await open({ size: 300 });
    await w.faults({ shopify: { costMultiplier } });
    const every = w.catalog.shopify.products.flatMap((product) =>
      product.variants.map((variant) => variantGid(variant.id)),
    );

    const changed = await (await w.shopifyStore()).changedVariants({
      since: new Date("2026-01-01T00:00:00Z"),
      limit: 1_000,
    });

    expect(every.length).toBeGreaterThan(250);
    expect(changed).toEqual(new Set(every));
    expect(w.state().shopify.rootFields.productVariants).toBeGreaterThan(1);
    expect((w.state().shopify.maxCostExceeded ?? 0) > 0).toBe(costMultiplier > 1);
  });
});
