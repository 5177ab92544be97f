import { afterEach, describe, expect, it } from "vitest";
import {
  erpTotals,
  type MappedPair,
  plainPairs,
  type SyncWorld,
  setErpQuantity,
  setErpWarehouseQuantities,
  setShopifyAvailable,
  startSyncWorld,
} from "../../testing/sync-harness.ts";
import { createHeldRepo } from "../history/held-repo.ts";
import { createHistoryRepo } from "../history/repo.ts";
import { createJobsRepo } from "../jobs/repo.ts";
import { createJobRunner, JobLostError } from "../jobs/runner.ts";
import type { RunSyncInput } from "./engine.ts";
import { createHeldApplier } from "./held-apply.ts";
import { SKIP } from "./plan.ts";
import { createSyncRepo } from "./repo.ts";
import { handleSyncJobs, startSyncJob } from "./sync-job.ts";

let world: SyncWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function open(options: Parameters<typeof startSyncWorld>[0] = {}) {
  world = await startSyncWorld(options);
  return world;
}

const ALL = { price: true, quantity: true };
const PRICE = { price: true, quantity: false };
const QUANTITY = { price: false, quantity: true };

/** A manual run over every mapping: the shape most tests need; `extra` adds or overrides fields. */
function syncAll(w: SyncWorld, syncOptions = ALL, extra: Partial<RunSyncInput> = {}) {
  return w.engine.runSync({ userId: w.userId, scope: "all", syncOptions, trigger: "manual", ...extra });
}

describe("runSync: plan then apply", () => {
  it("sets Shopify's price, compare-at and quantity to the ERP's, then finds nothing to change", async () => {
    const w = await open();
    await w.setSettings({ syncPrice: true, syncMsrp: true });
    const mapped = await w.map(plainPairs(w, 6));

    const first = await syncAll(w);

    expect(first.status).toBe("completed");
    expect(first.results.map((r) => r.outcome)).toEqual(mapped.map(() => "succeeded"));
    for (const pair of mapped) {
      expect(await w.shopifyVariant(pair.variant.id)).toMatchObject({
        priceCents: pair.item.defaultPriceCents,
        compareAtCents: pair.item.msrpCents,
        available: erpTotals(pair.item).available,
      });
    }
    const mutations = w.state().shopify.mutations;
    // Read in full: a run of what changed would read none of them (incremental.test.ts).
    const second = await syncAll(w, ALL, { reconcile: true });
    expect(second.results.map((r) => r.outcome)).toEqual(mapped.map(() => "unchanged"));
    expect(w.state().shopify.mutations).toBe(mutations);
  });

  it("answers a dry run with old -> new per field and writes nothing, not even history", async () => {
    const w = await open();
    await w.setSettings({ syncPrice: true });
    const [pair] = await w.map(plainPairs(w, 1));
    const before = await w.shopifyVariant(pair!.variant.id);

    const plan = await w.engine.runSync({
      userId: w.userId,
      scope: { mappingIds: [pair!.mappingId] },
      syncOptions: ALL,
      trigger: "manual",
      dryRun: true,
    });

    expect(plan).toMatchObject({ dryRun: true, historyId: null });
    expect(plan.results[0]).toMatchObject({
      outcome: "planned",
      shopifySku: pair!.variant.sku,
      acumaticaSku: pair!.item.inventoryId,
    });
    expect(plan.results[0]?.changes).toContainEqual({
      field: "price",
      from: before.priceCents / 100,
      to: pair!.item.defaultPriceCents / 100,
    });
    expect(plan.results[0]?.changes).toContainEqual({
      field: "quantity",
      from: before.available,
      to: erpTotals(pair!.item).available,
    });
    expect(w.state().shopify.mutations).toBe(0);
    expect(await w.shopifyVariant(pair!.variant.id)).toEqual(before);
    expect((await createHistoryRepo(w.app.db).page(w.userId, { offset: 0, limit: 10 })).total).toBe(0);
  });

  it("syncs only the mappings in scope", async () => {
    const w = await open();
    await w.setSettings({ syncPrice: true });
    const [chosen, other] = await w.map(plainPairs(w, 2));
    const untouched = await w.shopifyVariant(other!.variant.id);

    const run = await w.engine.runSync({
      userId: w.userId,
      scope: { mappingIds: [chosen!.mappingId] },
      syncOptions: { price: true, quantity: false },
      trigger: "manual",
    });

    expect(run.results.map((r) => r.mappingId)).toEqual([chosen!.mappingId]);
    expect(await w.shopifyVariant(other!.variant.id)).toEqual(untouched);
  });
});

describe("ERP quantities", () => {
  // Small syncs ask InventorySummaryInquiry per item, whose answer ends with a total row (no warehouse).
  for (const count of [1, 5]) {
    it(`pushes exactly the sum of two warehouses for a ${count}-item sync, not the inquiry's total row on top`, async () => {
      const w = await open();
      const mapped = await w.map(plainPairs(w, count));
      for (const [index, pair] of mapped.entries())
        await setErpWarehouseQuantities(w, pair.item, [7 + index, 5]);

      const run = await syncAll(w, QUANTITY);

      expect(run.results.map((r) => r.outcome)).toEqual(mapped.map(() => "succeeded"));
      for (const [index, pair] of mapped.entries())
        expect((await w.shopifyVariant(pair.variant.id)).available).toBe(12 + index);
    });
  }
});

describe("Shopify reads", () => {
  it("reads a store whose queries cost more than the documented rules: sized from the answers, split on MAX_COST_EXCEEDED", async () => {
    const w = await open({ size: 340 });
    await w.setSettings({ syncPrice: true });
    const mapped = await w.map(plainPairs(w, 240));
    await w.faults({ shopify: { costMultiplier: 1.6 } });

    const run = await syncAll(w);

    expect(mapped).toHaveLength(240);
    expect(run.status).toBe("completed");
    // A variant the read missed would be skipped as gone from Shopify.
    expect(run.results.filter((r) => r.outcome !== "succeeded" && r.outcome !== "unchanged")).toEqual([]);
    for (const pair of [mapped[0]!, mapped[200]!, mapped[239]!]) {
      expect(await w.shopifyVariant(pair.variant.id)).toMatchObject({
        priceCents: pair.item.defaultPriceCents,
        available: erpTotals(pair.item).available,
      });
    }
    // One refusal taught the size; the batches after it fit.
    expect(w.state().shopify.maxCostExceeded).toBe(1);
  });
});

describe("reads and writes chosen by cost", () => {
  /** Shopify's executed calls by root field, as the sandbox recorded them. */
  const calls = (w: SyncWorld) => w.state().shopify.rootFields;

  /** Read back from Shopify one by one, a second of refill before each so the checks are never throttled. */
  async function expectInLine(w: SyncWorld, mapped: ReturnType<typeof plainPairs>) {
    for (const pair of mapped) {
      w.advance(1_000);
      expect(await w.shopifyVariant(pair.variant.id)).toMatchObject({
        priceCents: pair.item.defaultPriceCents,
        compareAtCents: pair.item.msrpCents,
        available: erpTotals(pair.item).available,
      });
    }
  }

  it("reads 100 mappings by nodes batches and writes their prices product by product while the bucket holds them", async () => {
    const w = await open({ size: 700 });
    await w.setSettings({ syncPrice: true, syncMsrp: true });
    const mapped = await w.map(plainPairs(w, 100));

    const run = await syncAll(w);

    expect(run.counts.failure).toBe(0);
    expect(calls(w).nodes).toBeGreaterThan(0);
    expect(calls(w).bulkOperationRunQuery).toBeUndefined();
    expect(calls(w).productVariantsBulkUpdate).toBeGreaterThan(0);
    expect(calls(w).bulkOperationRunMutation).toBeUndefined();
    await expectInLine(w, mapped);
  });

  it("reads 300 mappings by nodes batches, then writes their prices by one bulk mutation as the reads spent the bucket", async () => {
    const w = await open({ size: 700 });
    await w.setSettings({ syncPrice: true, syncMsrp: true });
    const mapped = await w.map(plainPairs(w, 300));

    const run = await syncAll(w);

    expect(run.counts.failure).toBe(0);
    expect(calls(w).nodes).toBeGreaterThan(0);
    expect(calls(w).bulkOperationRunQuery).toBeUndefined();
    expect(calls(w).productVariantsBulkUpdate).toBeUndefined();
    expect(calls(w).bulkOperationRunMutation).toBe(1);
    await expectInLine(w, mapped);
  });

  it("reads 500 mappings with one bulk export and writes their prices by one bulk mutation, where batches and product calls would wait for the bucket", async () => {
    const w = await open({ size: 700 });
    await w.setSettings({ syncPrice: true, syncMsrp: true });
    const mapped = await w.map(plainPairs(w, 500));

    const run = await syncAll(w);

    expect(run.counts.failure).toBe(0);
    expect(calls(w).nodes).toBeUndefined();
    expect(calls(w).bulkOperationRunQuery).toBe(1);
    expect(calls(w).productVariantsBulkUpdate).toBeUndefined();
    expect(calls(w).bulkOperationRunMutation).toBe(1);
    await expectInLine(w, mapped);
  });

  it("switches to a bulk export once the first batch's requestedQueryCost shows the rest would outrun the bucket", async () => {
    const w = await open({ size: 700 });
    await w.setSettings({ syncPrice: true, syncMsrp: true });
    // 200 reads at the documented 5 points fit the bucket; this store asks 15 per read.
    await w.faults({ shopify: { costMultiplier: 3 } });
    const mapped = await w.map(plainPairs(w, 200));

    const run = await syncAll(w);

    expect(run.counts.failure).toBe(0);
    expect(calls(w).nodes).toBe(1);
    expect(calls(w).bulkOperationRunQuery).toBe(1);
    await expectInLine(w, mapped);
  });
});

describe("price writes", () => {
  it("sends one productVariantsBulkUpdate per product, whatever its number of variants", async () => {
    const w = await open();
    await w.setSettings({ syncPrice: true });
    const byProduct = new Map<number, typeof w.pairs>();
    for (const pair of plainPairs(w, 30))
      byProduct.set(pair.product.id, [...(byProduct.get(pair.product.id) ?? []), pair]);
    const products = [...byProduct.values()].filter((pairs) => pairs.length >= 2).slice(0, 3);
    await w.map(products.flat());

    const run = await syncAll(w, PRICE);

    expect(products).toHaveLength(3);
    expect(run.results.map((r) => r.outcome)).toEqual(products.flat().map(() => "succeeded"));
    expect(w.state().shopify.mutations).toBe(3);
  });

  it("runs a large plan as one bulk mutation from a staged file", async () => {
    const w = await open({ engine: { bulkPriceThreshold: 1 } });
    await w.setSettings({ syncPrice: true, syncMsrp: true });
    const mapped = await w.map(plainPairs(w, 12));

    const run = await syncAll(w, PRICE);

    expect(run.results.map((r) => r.outcome)).toEqual(mapped.map(() => "succeeded"));
    expect(w.state().shopify.bulkOperations).toBe(1);
    for (const pair of mapped) {
      expect(await w.shopifyVariant(pair.variant.id)).toMatchObject({
        priceCents: pair.item.defaultPriceCents,
        compareAtCents: pair.item.msrpCents,
      });
    }
  });

  it("reads a large scope with one bulk query instead of paced batches", async () => {
    const w = await open({ engine: { bulkReadThreshold: 1 } });
    await w.setSettings({ syncPrice: true });
    const mapped = await w.map(plainPairs(w, 5));

    const run = await syncAll(w);

    expect(run.results.map((r) => r.outcome)).toEqual(mapped.map(() => "succeeded"));
    expect(w.state().shopify.bulkOperations).toBe(1);
    for (const pair of mapped)
      expect((await w.shopifyVariant(pair.variant.id)).available).toBe(erpTotals(pair.item).available);
  });
});

describe("quantity writes: compare-and-set in the shape of the served version", () => {
  it.each([
    ["2025-04 (compareQuantity)", new Date("2025-06-01T00:00:00Z"), "2025-04"],
    ["2026-01 (changeFromQuantity, optional idempotency key)", undefined, "2026-01"],
    [
      "2026-04 (changeFromQuantity and idempotency key required)",
      new Date("2027-05-01T00:00:00Z"),
      "2026-07",
    ],
  ])("sets available quantities when Shopify serves %s", async (_label, releaseDate, served) => {
    const w = await open({ releaseDate });
    await w.setSettings({ syncPrice: true });
    const mapped = await w.map(plainPairs(w, 5));

    const run = await syncAll(w, QUANTITY);

    expect(run.results.map((r) => [r.outcome, r.reason])).toEqual(mapped.map(() => ["succeeded", null]));
    expect(Object.keys(w.state().shopify.servedVersions)).toEqual([served]);
    for (const pair of mapped)
      expect((await w.shopifyVariant(pair.variant.id)).available).toBe(erpTotals(pair.item).available);
  });

  it("writes in the form the served version takes when Shopify's answers do not name the version", async () => {
    // Asked for the spec's version, served 2026-07 (compareQuantity is gone) without X-Shopify-API-Version.
    const w = await open({ releaseDate: new Date("2027-05-01T00:00:00Z") });
    await w.faults({ shopify: { versionHeader: false } });
    const mapped = await w.map(plainPairs(w, 5));

    const run = await syncAll(w, QUANTITY);

    expect(run.results.map((r) => [r.outcome, r.reason])).toEqual(mapped.map(() => ["succeeded", null]));
    expect(Object.keys(w.state().shopify.servedVersions)).toEqual(["2026-07"]);
    for (const pair of mapped)
      expect((await w.shopifyVariant(pair.variant.id)).available).toBe(erpTotals(pair.item).available);
  });

  it.each([
    ["compareQuantity", new Date("2025-06-01T00:00:00Z")],
    ["changeFromQuantity", undefined],
  ])("re-reads and retries once when %s went stale between plan and write", async (_label, releaseDate) => {
    const w = await open({ releaseDate });
    const [pair] = await w.map(plainPairs(w, 1));
    const target = erpTotals(pair!.item).available;

    const run = await syncAll(w, QUANTITY, {
      // Someone sells a few units after the engine read Shopify, before it writes.
      onProgress: async ({ phase }) => {
        if (phase.startsWith("Writing")) await setShopifyAvailable(w, pair!, target + 7);
      },
    });

    expect(run.results[0]).toMatchObject({ outcome: "succeeded" });
    expect((await w.shopifyVariant(pair!.variant.id)).available).toBe(target);
  });

  it("counts a stale compare as done when Shopify already holds the ERP's quantity", async () => {
    const w = await open();
    const [pair] = await w.map(plainPairs(w, 1));
    const target = erpTotals(pair!.item).available;

    const run = await syncAll(w, QUANTITY, {
      onProgress: async ({ phase }) => {
        if (phase.startsWith("Writing")) await setShopifyAvailable(w, pair!, target);
      },
    });

    expect(run.results[0]).toMatchObject({ outcome: "succeeded" });
    expect((await w.shopifyVariant(pair!.variant.id)).available).toBe(target);
  });

  it("sets on_hand from the ERP's available-for-shipping when settings say so", async () => {
    const w = await open();
    await w.setSettings({
      syncPrice: true,
      acumaticaQuantity: "AvailableForShipping",
      shopifyQuantity: "OnHand",
    });
    const [pair] = await w.map(plainPairs(w, 1));

    await syncAll(w, QUANTITY);

    expect((await w.shopifyVariant(pair!.variant.id)).onHand).toBe(
      erpTotals(pair!.item).availableForShipping,
    );
  });
});

describe("isolation and skips", () => {
  it("fails only the item Shopify refuses and writes the rest of its batch", async () => {
    const w = await open();
    const mapped = await w.map(plainPairs(w, 4));
    const bad = mapped[1]!;
    await setErpQuantity(w, bad.item, 2_000_000_000);

    const run = await syncAll(w, QUANTITY);

    const failed = run.results.find((r) => r.mappingId === bad.mappingId);
    expect(failed).toMatchObject({
      outcome: "failed",
      reason: "The total quantity can't be higher than 1,000,000,000.",
    });
    expect(run.results.filter((r) => r.outcome === "succeeded")).toHaveLength(3);
    for (const pair of mapped.filter((p) => p !== bad))
      expect((await w.shopifyVariant(pair.variant.id)).available).toBe(erpTotals(pair.item).available);
    const history = await createHistoryRepo(w.app.db).get(w.userId, run.historyId!);
    expect(history).toMatchObject({ status: "partial", successCount: 3, failureCount: 1 });
    expect(history?.failedMappings).toEqual([
      {
        mappingId: bad.mappingId,
        shopifySku: bad.variant.sku,
        acumaticaSku: bad.item.inventoryId,
        error: "The total quantity can't be higher than 1,000,000,000.",
      },
    ]);
  });

  it("fails an item whose ERP quantity Shopify cannot take before any call, and writes the rest of its batch", async () => {
    const w = await open();
    const mapped = await w.map(plainPairs(w, 4));
    const bad = mapped[1]!;
    // Past Shopify's 32-bit Int: sent in the batch, it would fail GraphQL coercion for all four.
    await setErpQuantity(w, bad.item, 3_000_000_000);
    const before = await w.shopifyVariant(bad.variant.id);
    const refused = "Quantity 3000000000 is above 2,147,483,647, the largest number Shopify's API takes";

    const run = await syncAll(w, QUANTITY);

    const failed = run.results.find((r) => r.mappingId === bad.mappingId);
    expect(failed).toMatchObject({ outcome: "failed", reason: refused, changes: [] });
    expect(run.results.filter((r) => r.outcome === "succeeded")).toHaveLength(3);
    for (const pair of mapped.filter((p) => p !== bad))
      expect((await w.shopifyVariant(pair.variant.id)).available).toBe(erpTotals(pair.item).available);
    expect(await w.shopifyVariant(bad.variant.id)).toEqual(before);
    // One inventorySetQuantities for the three, no call spent on the refused one.
    expect(w.state().shopify.mutations).toBe(1);
    const history = await createHistoryRepo(w.app.db).get(w.userId, run.historyId!);
    expect(history).toMatchObject({ status: "partial", successCount: 3, failureCount: 1 });
    expect(history?.failedMappings).toEqual([
      {
        mappingId: bad.mappingId,
        shopifySku: bad.variant.sku,
        acumaticaSku: bad.item.inventoryId,
        error: refused,
      },
    ]);
  });

  it("skips untracked, bundle and unstocked variants and items missing on a side, each with its reason", async () => {
    const w = await open();
    const untracked = w.pairs.find((p) => !p.variant.tracked)!;
    const bundle = w.pairs.find((p) => p.variant.isBundle)!;
    const unstocked = w.pairs.find((p) => p.variant.levels.length === 0)!;
    const [normal, gone] = plainPairs(w, 2);
    const mapped = await w.map([untracked, bundle, unstocked, normal!]);
    const [missingVariant] = await w.map([{ ...gone!, variant: { ...gone!.variant, id: 99_999_999 } }]);
    const [missingItem] = await w.map([
      { ...plainPairs(w, 3)[2]!, item: { ...gone!.item, inventoryId: "NO-SUCH-ITEM" } },
    ]);

    const run = await syncAll(w, QUANTITY);

    const reasonOf = (id: string) => run.results.find((r) => r.mappingId === id);
    expect(reasonOf(mapped[0]!.mappingId)).toMatchObject({ outcome: "skipped", reason: SKIP.untracked });
    expect(reasonOf(mapped[1]!.mappingId)).toMatchObject({ outcome: "skipped", reason: SKIP.bundle });
    // Named by the location (the primary one under the default mapping).
    expect(reasonOf(mapped[2]!.mappingId)).toMatchObject({
      outcome: "skipped",
      reason: "Not stocked at Main Warehouse",
    });
    expect(reasonOf(mapped[3]!.mappingId)).toMatchObject({ outcome: "succeeded" });
    expect(reasonOf(missingVariant!.mappingId)).toMatchObject({
      outcome: "skipped",
      reason: SKIP.missingShopify,
    });
    expect(reasonOf(missingItem!.mappingId)).toMatchObject({
      outcome: "skipped",
      reason: SKIP.missingAcumatica,
    });
    const history = await createHistoryRepo(w.app.db).get(w.userId, run.historyId!);
    expect(history).toMatchObject({ successCount: 1, failureCount: 0, skippedCount: 5 });
  });

  it("skips quantities of non-stock ERP items but still syncs their price", async () => {
    const w = await open({ size: 80 });
    await w.setSettings({ syncPrice: true });
    const service = w.pairs.find((p) => !p.item.isStockItem)!;
    const [mapped] = await w.map([service]);

    const run = await syncAll(w);

    expect(run.results[0]).toMatchObject({
      mappingId: mapped!.mappingId,
      outcome: "succeeded",
      reason: SKIP.nonStock,
    });
    expect((await w.shopifyVariant(service.variant.id)).priceCents).toBe(service.item.defaultPriceCents);
  });

  it("leaves a non-stock item's quantities empty ('-' in the list) after a sync touched its row", async () => {
    const w = await open({ size: 80 });
    await w.setSettings({ syncPrice: true });
    const service = w.pairs.find((p) => !p.item.isStockItem)!;
    await w.map([service]);

    await syncAll(w);

    const item = (
      await w.app.db.execute({
        sql: "SELECT default_price_cents, available, on_hand, available_for_shipping FROM acumatica_products WHERE user_id = ?",
        args: [w.userId],
      })
    ).rows[0];
    expect(Number(item?.default_price_cents)).toBe(service.item.defaultPriceCents);
    expect([item?.available, item?.on_hand, item?.available_for_shipping]).toEqual([null, null, null]);
  });

  it("refuses prices for the run when the store's currency is not the ERP's, naming both, and still syncs quantities", async () => {
    const w = await open();
    await w.setSettings({ syncPrice: true, syncMsrp: true });
    await w.faults({ shopify: { currencyCode: "EUR" } });
    const mapped = await w.map(plainPairs(w, 4));
    const before = await Promise.all(mapped.map((pair) => w.shopifyVariant(pair.variant.id)));
    const message = "Price sync skipped: the Shopify store sells in EUR but Acumatica prices are in USD.";

    const run = await syncAll(w);

    expect(run.results.map((r) => [r.outcome, r.reason])).toEqual(mapped.map(() => ["succeeded", message]));
    for (const [index, pair] of mapped.entries()) {
      expect(await w.shopifyVariant(pair.variant.id)).toMatchObject({
        priceCents: before[index]!.priceCents,
        compareAtCents: before[index]!.compareAtCents,
        available: erpTotals(pair.item).available,
      });
    }

    // A price-only run sends nothing and says why; once the ERP's base currency matches, prices go.
    const pricesOnly = await syncAll(w, PRICE);
    expect(pricesOnly.results.map((r) => [r.outcome, r.reason])).toEqual(
      mapped.map(() => ["skipped", message]),
    );
    await w.faults({ acumatica: { baseCurrency: "EUR" } });
    const matched = await syncAll(w, PRICE);
    expect(matched.results.map((r) => r.outcome)).toEqual(mapped.map(() => "succeeded"));
    for (const pair of mapped)
      expect((await w.shopifyVariant(pair.variant.id)).priceCents).toBe(pair.item.defaultPriceCents);
  });

  it("sends prices when the endpoint has no Company entity, so the ERP's currency cannot be known", async () => {
    const w = await open();
    await w.setSettings({ syncPrice: true });
    const mapped = await w.map(plainPairs(w, 2));
    // A store in EUR would refuse USD prices; with no Company to ask, nothing is refused or failed.
    await w.faults({ shopify: { currencyCode: "EUR" }, acumatica: { companyEntity: false } });

    const run = await syncAll(w, PRICE);

    expect(run.results.map((r) => [r.outcome, r.reason])).toEqual(mapped.map(() => ["succeeded", null]));
    for (const pair of mapped)
      expect((await w.shopifyVariant(pair.variant.id)).priceCents).toBe(pair.item.defaultPriceCents);
  });

  it("skips price-only syncs while both price fields are off in settings", async () => {
    const w = await open();
    await w.setSettings({ syncPrice: false, syncMsrp: false });
    await w.map(plainPairs(w, 1));

    const run = await syncAll(w, PRICE);
    expect(run.results[0]).toMatchObject({ outcome: "skipped", reason: SKIP.priceSettingsOff });
  });
});

describe("the outside systems misbehaving", () => {
  it("absorbs THROTTLED answers by waiting for the bucket, never surfacing them", async () => {
    const w = await open({ size: 600 });
    await w.setSettings({ syncPrice: true });
    const mapped = await w.map(plainPairs(w, 8));
    // Another app's heavy reads leave the shared bucket nearly empty.
    for (let i = 0; i < 2; i += 1) {
      await w.graphql(
        `query { productVariants(first: 190) { nodes { id product { id } inventoryItem { id inventoryLevel(locationId: "gid://shopify/Location/70001") { quantities(names: ["available", "on_hand"]) { name quantity } } } } } }`,
      );
    }
    expect(w.state().shopify.currentlyAvailable).toBeLessThan(200);

    const run = await syncAll(w);

    expect(run.status).toBe("completed");
    expect(run.results.map((r) => r.outcome)).toEqual(mapped.map(() => "succeeded"));
    expect(w.state().shopify.throttled).toBeGreaterThan(0);
  });

  it("retries transient failures of both systems until the run goes through", async () => {
    // Each system answers 5xx until it has failed two calls (a random rate could fail none).
    const w = await open({
      fetch: (input, init) => {
        const url = new URL(input instanceof Request ? input.url : input);
        const system = url.pathname.startsWith("/shopify/") ? "shopify" : "acumatica";
        const state = w.state();
        const failed = system === "shopify" ? state.shopify.errorsInjected : state.acumatica.injectedErrors;
        w.sandbox.systems[system].configure({ errorRate: (failed ?? 0) < 2 ? 1 : 0 });
        return fetch(input, init);
      },
    });
    await w.setSettings({ syncPrice: true, syncMsrp: true });
    const mapped = await w.map(plainPairs(w, 5));

    const run = await syncAll(w);

    expect(run.results.map((r) => [r.outcome, r.reason])).toEqual(mapped.map(() => ["succeeded", null]));
    const state = w.state();
    expect(state.shopify.errorsInjected).toBeGreaterThanOrEqual(2);
    expect(state.acumatica.injectedErrors).toBeGreaterThanOrEqual(2);
    expect(state.shopify.mutations).toBeGreaterThan(0);
  });

  it("records a run that cannot sign in to Acumatica as failed with the reason, and logs nothing in", async () => {
    const w = await open();
    await w.map(plainPairs(w, 2));
    w.acumaticaLogin.password = "wrong";

    const run = await syncAll(w);

    expect(run.status).toBe("failed");
    expect(run.error).toMatch(/^Acumatica: /);
    expect(run.results.map((r) => [r.outcome, r.reason])).toEqual([
      ["failed", run.error],
      ["failed", run.error],
    ]);
    const history = await createHistoryRepo(w.app.db).get(w.userId, run.historyId!);
    expect(history).toMatchObject({ status: "failed", error: run.error, successCount: 0, failureCount: 2 });
    expect(w.state().acumatica.loginsOpen).toBe(0);
  });

  it("logs the Acumatica session out after a successful run and after one that failed inside it", async () => {
    const w = await open();
    await w.map(plainPairs(w, 2));
    await syncAll(w);
    // An endpoint version this instance does not offer: login works, the first read fails.
    w.acumaticaLogin.apiVersion = "99.200.001";
    const failed = await syncAll(w);

    expect(failed.status).toBe("failed");
    const state = w.state().acumatica;
    expect(state.logins).toBe(2);
    expect(state.loginsOpen).toBe(0);
    expect(state.logouts).toBe(state.logins);
  });
});

describe("after a run", () => {
  it("updates the cached catalog rows and the mappings' last sync", async () => {
    const w = await open();
    await w.setSettings({ syncPrice: true });
    const [pair] = await w.map(plainPairs(w, 1));

    await syncAll(w);

    const product = (
      await w.app.db.execute({
        sql: "SELECT price_cents, available FROM shopify_products WHERE user_id = ?",
        args: [w.userId],
      })
    ).rows[0];
    expect(Number(product?.price_cents)).toBe(pair!.item.defaultPriceCents);
    expect(Number(product?.available)).toBe(erpTotals(pair!.item).available);
    const item = (
      await w.app.db.execute({
        sql: "SELECT default_price_cents, available FROM acumatica_products WHERE user_id = ?",
        args: [w.userId],
      })
    ).rows[0];
    expect(Number(item?.default_price_cents)).toBe(pair!.item.defaultPriceCents);
    const mapping = (
      await w.app.db.execute({
        sql: "SELECT last_synced_at, updated_at FROM mappings WHERE id = ?",
        args: [pair!.mappingId],
      })
    ).rows[0];
    expect(mapping).toMatchObject({
      last_synced_at: w.app.clock.now().toISOString(),
      updated_at: w.app.clock.now().toISOString(),
    });
  });

  it("writes an execution-history entry with start, end and counts for a scheduled run", async () => {
    const w = await open();
    await w.setSettings({ syncPrice: true });
    await w.map(plainPairs(w, 3));

    const run = await w.engine.runSync({
      userId: w.userId,
      scope: "all",
      syncOptions: ALL,
      trigger: "schedule",
      scheduleId: "sch-1",
      scheduleName: "Nightly",
    });

    expect(await createHistoryRepo(w.app.db).get(w.userId, run.historyId!)).toMatchObject({
      schedule: { _id: "sch-1", name: "Nightly" },
      trigger: "schedule",
      status: "completed",
      successCount: 3,
      failureCount: 0,
      skippedCount: 0,
      endDate: expect.any(String),
    });
  });
});

describe("startSyncJob", () => {
  it("runs a full sync as a job and ends with the run's counts and history id", async () => {
    const w = await open();
    await w.setSettings({ syncPrice: true });
    await w.map(plainPairs(w, 3));
    const jobs = createJobRunner({
      repo: createJobsRepo(w.app.db),
      now: w.app.clock.now,
      newId: () => crypto.randomUUID(),
      log: () => {},
    });

    handleSyncJobs({
      jobs,
      engine: w.engine,
      held: createHeldRepo(w.app.db),
      applier: createHeldApplier({
        held: createHeldRepo(w.app.db),
        history: createHistoryRepo(w.app.db),
        repo: createSyncRepo(w.app.db),
        connectors: w.syncConnectors,
        now: w.app.clock.now,
      }),
    });
    const job = await startSyncJob(
      { jobs },
      { userId: w.userId, scope: "all", syncOptions: ALL, trigger: "manual" },
    );
    await jobs.idle();

    const done = await jobs.get(w.userId, job._id);
    expect(done).toMatchObject({
      kind: "sync",
      status: "succeeded",
      message: "Synchronized successfully",
      result: { success: 3, failure: 0, skipped: 0, total: 3 },
    });
    expect(await createHistoryRepo(w.app.db).get(w.userId, String(done.result?.historyId))).toMatchObject({
      status: "completed",
      successCount: 3,
    });
  });
});

describe("a job's run resumed after its plan was stored, before its checkpoint said so", () => {
  it("stores the plan afresh in the same entry and finishes it, Shopify equal to the ERP", async () => {
    const w = await open();
    await w.setSettings({ syncPrice: true, syncMsrp: true });
    const mapped = await w.map(plainPairs(w, 6));
    // The first attempt stores its plan with the entry, then its job is lost before the checkpoint
    // that says the plan is stored: the entry stays open with the plan's rows.
    let entry = "";
    const lost = syncAll(w, ALL, {
      onCheckpoint: async (checkpoint) => {
        entry = checkpoint.historyId;
        if (checkpoint.planStored) throw new JobLostError("first-attempt");
      },
    });
    await expect(lost).rejects.toBeInstanceOf(JobLostError);
    expect(w.state().shopify.mutations).toBe(0);

    const resumed = await syncAll(w, ALL, { resumeEntry: entry, onCheckpoint: async () => {} });

    expect(resumed).toMatchObject({
      status: "completed",
      historyId: entry,
      counts: { success: 6, failure: 0 },
    });
    for (const pair of mapped)
      expect(await w.shopifyVariant(pair.variant.id)).toMatchObject({
        priceCents: pair.item.defaultPriceCents,
        compareAtCents: pair.item.msrpCents,
        available: erpTotals(pair.item).available,
      });
  });
});

describe("runs in chunks", () => {
  /** A variant id the store does not have. */
  const GONE = 99_999_999;

  /**
   * Seventeen mappings: prices and quantities to write, two quantities Shopify cannot take,
   * quantities skipped (untracked, bundle, not stocked) and two mappings skipped whole (gone on a side).
   */
  async function scenario(w: SyncWorld) {
    await w.setSettings({ syncPrice: true, syncMsrp: true });
    await w.api.call("saveSafetyLimits", { body: { maxPriceChangePercent: 0, maxZeroedPercent: 0 } });
    const plain = plainPairs(w, 14);
    const [gone, noItem] = plain.splice(12, 2);
    const skipping = [
      w.pairs.find((p) => !p.variant.tracked)!,
      w.pairs.find((p) => p.variant.isBundle)!,
      w.pairs.find((p) => p.variant.levels.length === 0)!,
      { ...gone!, variant: { ...gone!.variant, id: GONE } },
      { ...noItem!, item: { ...noItem!.item, inventoryId: "NO-SUCH-ITEM" } },
    ];
    // Refused by Shopify in its batch, and refused before any call.
    await setErpQuantity(w, plain[1]!.item, 2_000_000_000);
    await setErpQuantity(w, plain[4]!.item, 3_000_000_000);
    return w.map([...plain, ...skipping]);
  }

  /** What a person sees of a run, in SKU order (mapping ids differ between two worlds). */
  async function seen(w: SyncWorld, run: Awaited<ReturnType<typeof syncAll>>, mapped: MappedPair[]) {
    const bySku = <T extends { shopifySku: string }>(a: T, b: T) => a.shopifySku.localeCompare(b.shopifySku);
    const history = await createHistoryRepo(w.app.db).get(w.userId, run.historyId!);
    const shopify = [];
    const existing = mapped.filter((pair) => pair.variant.id !== GONE);
    for (const pair of existing.sort((a, b) => (a.variant.sku ?? "").localeCompare(b.variant.sku ?? "")))
      shopify.push({ sku: pair.variant.sku, ...(await w.shopifyVariant(pair.variant.id)) });
    return {
      answer: {
        status: run.status,
        counts: run.counts,
        results: run.results.map(({ mappingId: _id, ...result }) => result).sort(bySku),
      },
      history: {
        status: history?.status,
        counts: [history?.successCount, history?.failureCount, history?.skippedCount],
        failed: history?.failedMappings.map(({ mappingId: _id, ...failure }) => failure).sort(bySku),
        skipped: history?.skippedMappings.map(({ mappingId: _id, ...skip }) => skip).sort(bySku),
      },
      shopify,
    };
  }

  it("answers, records and writes a run of more mappings than a chunk exactly as one chunk does, read by bulk or by nodes", async () => {
    const whole = await startSyncWorld({ size: 120, engine: { bulkReadThreshold: 1_000 } });
    try {
      const w = await open({ size: 120, engine: { planChunk: 4, bulkReadThreshold: 1 } });
      const [mappedWhole, mappedChunked] = [await scenario(whole), await scenario(w)];

      const one = await syncAll(whole);
      const chunked = await syncAll(w);

      const expected = await seen(whole, one, mappedWhole);
      expect(expected.history).toMatchObject({ status: "partial", counts: [13, 2, 2] });
      expect(await seen(w, chunked, mappedChunked)).toEqual(expected);
      // The chunks wrote their quantities a call or two each (the whole run in one, and one more
      // for the rest of the batch Shopify refused an item of); one bulk read.
      const quantityCalls = (world: SyncWorld) =>
        world.state().shopify.rootFields.inventorySetQuantities ?? 0;
      expect(quantityCalls(whole)).toBe(2);
      expect(quantityCalls(w)).toBeGreaterThanOrEqual(4);
      expect(w.state().shopify.bulkOperations).toBeGreaterThanOrEqual(1);
      expect(whole.state().shopify.bulkOperations ?? 0).toBe(0);
    } finally {
      await whole.close();
    }
  });

  it("holds a run of more mappings than a chunk with its whole plan, stored chunk by chunk", async () => {
    const whole = await startSyncWorld({ size: 120 });
    try {
      const w = await open({ size: 120, engine: { planChunk: 3 } });
      const plans: Awaited<ReturnType<ReturnType<typeof createHeldRepo>["page"]>>[] = [];
      for (const world of [whole, w]) {
        await world.setSettings({ syncPrice: true, syncMsrp: true });
        await world.map(plainPairs(world, 10));
        await world.api.call("saveSafetyLimits", { body: { maxPriceChangePercent: 1, maxZeroedPercent: 0 } });
        const run = await syncAll(world);
        expect(run.status).toBe("held");
        const held = await createHeldRepo(world.app.db).page(run.historyId!, { offset: 0, limit: 100 });
        plans.push(held);
        const history = await createHistoryRepo(world.app.db).get(world.userId, run.historyId!);
        expect(history).toMatchObject({ status: "held", review: { changes: held.length } });
      }
      const rows = (held: (typeof plans)[number]) =>
        held
          .map(({ mappingId: _id, seq: _seq, ...change }) => change)
          .sort((a, b) => `${a.shopifySku}:${a.field}`.localeCompare(`${b.shopifySku}:${b.field}`));
      expect(plans[0]!.length).toBeGreaterThan(10);
      expect(rows(plans[1]!)).toEqual(rows(plans[0]!));
      // Numbered 0..n-1 across the chunks, as one chunk numbers them.
      expect(plans[1]!.map((change) => change.seq)).toEqual(plans[1]!.map((_, index) => index));
      expect(w.state().shopify.mutations).toBe(0);
    } finally {
      await whole.close();
    }
  });
});
