import type { Settings } from "@stockbridge/shared";
import { SANDBOX_DEMO } from "@stockbridge/shared";
import { afterEach, describe, expect, it } from "vitest";
import { erpTotals, type SyncWorld, setErpQuantity, startSyncWorld } from "../../testing/sync-harness.ts";
import { createConnectors } from "../connectors/connectors.ts";
import { createBulkSlots } from "../connectors/shopify/bulk-slots.ts";
import type { QuantityItem } from "../connectors/shopify/quantities.ts";
import type { FetchLike } from "../connectors/transport.ts";
import { createHistoryRepo } from "../history/repo.ts";
import { createSyncConnectors } from "./connectors.ts";
import { type ErpValues, planMapping, type ShopifyValues } from "./plan.ts";

let world: SyncWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function open() {
  world = await startSyncWorld();
  return world;
}

/** Matched, tracked pairs stocked at the primary location (where the engine sets quantities). */
function stockedPairs(w: SyncWorld, count: number) {
  const primary = w.catalog.shopify.locations[0]!.id;
  return w.pairs
    .filter(
      ({ variant, item }) =>
        variant.tracked && !variant.isBundle && variant.levels[0]?.locationId === primary && item.isStockItem,
    )
    .slice(0, count);
}

/** Sets one ERP item's quantities to `quantity` in total (all of it in its first warehouse). */
describe("ERP values Shopify would refuse", () => {
  it("still writes the price of a mapping whose quantity is refused, and fails the mapping naming the quantity", async () => {
    const w = await open();
    await w.setSettings({ syncPrice: true });
    const [bad, good] = await w.map(stockedPairs(w, 2));
    await setErpQuantity(w, bad!.item, 3_000_000_000);
    const before = await w.shopifyVariant(bad!.variant.id);

    const run = await w.engine.runSync({
      userId: w.userId,
      scope: "all",
      syncOptions: { price: true, quantity: true },
      trigger: "manual",
    });

    expect(run.results.find((r) => r.mappingId === bad!.mappingId)).toMatchObject({
      outcome: "failed",
      reason: "Quantity 3000000000 is above 2,147,483,647, the largest number Shopify's API takes",
    });
    expect(run.results.find((r) => r.mappingId === good!.mappingId)).toMatchObject({ outcome: "succeeded" });
    expect(await w.shopifyVariant(bad!.variant.id)).toEqual({
      ...before,
      priceCents: bad!.item.defaultPriceCents,
    });
    expect((await w.shopifyVariant(good!.variant.id)).available).toBe(erpTotals(good!.item).available);
  });

  it("shows the refusal in a dry run, as the mapping that would fail", async () => {
    const w = await open();
    const [bad] = await w.map(stockedPairs(w, 1));
    await setErpQuantity(w, bad!.item, 2_147_483_648);

    const plan = await w.engine.runSync({
      userId: w.userId,
      scope: "all",
      syncOptions: { price: false, quantity: true },
      trigger: "manual",
      dryRun: true,
    });

    expect(plan.results[0]).toMatchObject({
      outcome: "failed",
      reason: "Quantity 2147483648 is above 2,147,483,647, the largest number Shopify's API takes",
    });
    expect(w.state().shopify.mutations).toBe(0);
    expect((await createHistoryRepo(w.app.db).page(w.userId, { offset: 0, limit: 10 })).total).toBe(0);
  });
});

describe("planMapping: values that cannot be sent to Shopify", () => {
  const target = {
    mappingId: "m-1",
    shopifyVariantId: "gid://shopify/ProductVariant/1",
    shopifySku: "SKU-1",
    acumaticaId: "a-1",
    acumaticaSku: "SKU-1",
  };
  const shopify: ShopifyValues = {
    variantId: "gid://shopify/ProductVariant/1",
    productId: "gid://shopify/Product/1",
    priceCents: 1_000,
    compareAtCents: null,
    inventoryItemId: "gid://shopify/InventoryItem/1",
    tracked: true,
    isBundle: false,
    locationId: "gid://shopify/Location/1",
    available: 5,
    onHand: 5,
    levels: [{ locationId: "gid://shopify/Location/1", available: 5, onHand: 5 }],
  };
  const erp = (values: Partial<ErpValues>): ErpValues => ({
    inventoryId: "SKU-1",
    defaultPriceCents: 1_000,
    msrpCents: null,
    isStockItem: true,
    available: 5,
    onHand: 5,
    availableForShipping: 5,
    warehouses: [],
    ...values,
  });
  const settings: Settings = {
    priceMapping: { syncPrice: true, syncMsrp: true },
    quantityMapping: { acumaticaQuantity: "Available", shopifyQuantity: "Available" },
    locationMapping: { locations: [] },
  };
  const all = { price: true, quantity: true };

  it.each([
    [
      { available: 2_147_483_648 },
      "Quantity 2147483648 is above 2,147,483,647, the largest number Shopify's API takes",
    ],
    [{ available: 2.5 }, "Quantity 2.5 is not a whole number; Shopify counts whole units"],
    [
      { defaultPriceCents: 2 ** 53 },
      "Price 90071992547409.92 is above 90,071,992,547,409.91, the largest price Stockbridge can send to Shopify exactly",
    ],
    [
      { msrpCents: 2 ** 53 },
      "Compare-at price (MSRP) 90071992547409.92 is above 90,071,992,547,409.91, the largest price Stockbridge can send to Shopify exactly",
    ],
  ])("fails %o before any call, with the reason", (values, reason) => {
    const plan = planMapping(target, { erp: erp(values), shopify, settings, options: all });

    expect(plan).toMatchObject({
      outcome: "failed",
      reason,
      refused: [reason],
      prices: null,
      quantities: [],
    });
  });

  it("keeps the fields that can be sent planned, and the other one out of the writes", () => {
    const plan = planMapping(target, {
      erp: erp({ defaultPriceCents: 1_250, available: 3_000_000_000 }),
      shopify,
      settings,
      options: all,
    });

    expect(plan).toMatchObject({
      outcome: "planned",
      prices: { priceCents: 1_250 },
      quantities: [],
      refused: ["Quantity 3000000000 is above 2,147,483,647, the largest number Shopify's API takes"],
    });
  });

  it("leaves values that can be sent but break Shopify's rules to Shopify, which refuses them per item", () => {
    const plan = planMapping(target, {
      erp: erp({ defaultPriceCents: -500, available: 2_147_483_647 }),
      shopify,
      settings,
      options: all,
    });

    expect(plan).toMatchObject({
      outcome: "planned",
      refused: [],
      prices: { priceCents: -500 },
      quantities: [{ to: 2_147_483_647 }],
    });
  });
});

describe("setQuantities: a batch Shopify refuses as a whole", () => {
  /** The engine's Shopify store on the sandbox, over `fetch` (the real one unless a test rewords Shopify). */
  async function storeFor(w: SyncWorld, fetchImpl: FetchLike = (input, init) => fetch(input, init)) {
    const connectors = createConnectors({
      fetch: fetchImpl,
      clock: {
        now: () => w.clock.now().getTime(),
        sleep: async (milliseconds) => w.clock.advance(Math.max(0, milliseconds)),
      },
      sandboxUrl: w.origin,
    });
    const sync = createSyncConnectors({
      credentials: {
        shopifyCredentials: async () => ({ ...SANDBOX_DEMO.shopify }),
        acumaticaCredentials: async () => {
          throw new Error("not used");
        },
      },
      connectors,
      bulkSlots: createBulkSlots(w.app.db, w.app.clock.now),
    });
    return sync.shopify("user");
  }

  /** Items that set each pair's available quantity to 11, 12, ...; `overrides` by index. */
  async function itemsFor(w: SyncWorld, count: number, overrides: Record<number, number>) {
    const location = w.catalog.shopify.locations[0]!.id;
    const pairs = stockedPairs(w, count);
    const items: QuantityItem[] = [];
    for (const [index, pair] of pairs.entries()) {
      const current = await w.shopifyVariant(pair.variant.id);
      items.push({
        mappingId: `m-${index}`,
        variantId: String(pair.variant.id),
        name: "available",
        inventoryItemId: String(pair.variant.inventoryItemId),
        locationId: String(location),
        from: current.available!,
        to: overrides[index] ?? 11 + index,
      });
    }
    return { pairs, items };
  }

  it("fails only the item a coercion error names and writes the rest with one more call", async () => {
    const w = await open();
    const store = await storeFor(w);
    const { pairs, items } = await itemsFor(w, 5, { 2: 3_000_000_000 });

    const outcome = await store.setQuantities(items, { runId: "run-1" });

    expect(outcome.get("m-2")).toEqual({
      kind: "failed",
      error: expect.stringMatching(/^Shopify refused quantity 3000000000: .*3000000000/),
    });
    for (const [index, pair] of pairs.entries()) {
      if (index === 2) continue;
      expect(outcome.get(`m-${index}`)).toEqual({ kind: "written" });
      expect((await w.shopifyVariant(pair.variant.id)).available).toBe(11 + index);
    }
    expect(store.stats.calls).toBe(2);
  });

  it("halves the batch until the bad items stand alone when the error names none", async () => {
    const w = await open();
    // Shopify's answer without the "for quantities.N.quantity (...)" part graphql-ruby usually adds.
    const store = await storeFor(w, async (input, init) => {
      const response = await fetch(input, init);
      const body = (await response.json()) as { errors?: { message: string }[] };
      for (const error of body.errors ?? []) error.message = error.message.replace(/ for .*$/s, "");
      const headers = new Headers(response.headers);
      headers.delete("content-length");
      return new Response(JSON.stringify(body), { status: response.status, headers });
    });
    const { pairs, items } = await itemsFor(w, 8, { 1: 2.5, 5: 3_000_000_000 });

    const outcome = await store.setQuantities(items, { runId: "run-1" });

    for (const index of [1, 5]) {
      expect(outcome.get(`m-${index}`)).toEqual({
        kind: "failed",
        error: expect.stringMatching(
          /^Variable \$input of type InventorySetQuantitiesInput! was provided invalid value/,
        ),
      });
    }
    for (const [index, pair] of pairs.entries()) {
      if (index === 1 || index === 5) continue;
      expect(outcome.get(`m-${index}`)).toEqual({ kind: "written" });
      expect((await w.shopifyVariant(pair.variant.id)).available).toBe(11 + index);
    }
    // 8 -> 4 + 4 -> 2 + 2 + 2 + 2 -> 1 + 1 twice: 1 + 2 + 4 + 4 calls.
    expect(store.stats.calls).toBe(11);
  });
});
