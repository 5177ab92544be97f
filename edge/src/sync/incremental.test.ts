import type { Job, SyncJobResult } from "@stockbridge/shared";
import { afterEach, describe, expect, it } from "vitest";
import { failure } from "../../testing/helpers.ts";
import {
  erpTotals,
  plainPairs,
  type SyncWorld,
  setErpPrice,
  setErpQuantity,
  setShopifyAvailable,
  setShopifyPrice,
  startSyncWorld,
} from "../../testing/sync-harness.ts";
import { createHistoryRepo } from "../history/repo.ts";
import type { RunSyncInput } from "./engine.ts";

let world: SyncWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const ALL = { price: true, quantity: true };
const HOUR = 60 * 60_000;

/** Six mapped pairs, prices and compare-at prices synced, and a first run that reads everything. */
async function synced() {
  world = await startSyncWorld();
  const w = world;
  await w.setSettings({ syncPrice: true, syncMsrp: true });
  const mapped = await w.map(plainPairs(w, 6));
  const first = await syncAll(w);
  expect(first.changesSince).toBeUndefined();
  expect((await createHistoryRepo(w.app.db).get(w.userId, first.historyId!))?.changesSince).toBeUndefined();
  expect(first.results.map((result) => result.outcome)).toEqual(mapped.map(() => "succeeded"));
  return { w, mapped };
}

function syncAll(w: SyncWorld, extra: Partial<RunSyncInput> = {}) {
  return w.engine.runSync({
    userId: w.userId,
    scope: "all",
    syncOptions: ALL,
    trigger: "schedule",
    ...extra,
  });
}

/** Both clocks on: the sandbox's (the systems' change times) and the app's (the run's). */
function later(w: SyncWorld, milliseconds: number) {
  w.advance(milliseconds);
  w.app.clock.advance(milliseconds);
}

/** Calls a run made to each system: what it read. */
function callsDuring(w: SyncWorld) {
  const before = w.state();
  return () => {
    const after = w.state();
    return {
      shopify: Number(after.shopify.calls) - Number(before.shopify.calls),
      acumatica: Number(after.acumatica.calls) - Number(before.acumatica.calls),
      variantReads:
        (after.shopify.rootFields.nodes ?? 0) -
        (before.shopify.rootFields.nodes ?? 0) +
        (after.shopify.rootFields.bulkOperationRunQuery ?? 0) -
        (before.shopify.rootFields.bulkOperationRunQuery ?? 0),
    };
  };
}

describe("a sync of every mapping after one that succeeded", () => {
  it("reads only the mappings whose ERP item changed (price or stock) and sets them in Shopify", async () => {
    const { w, mapped } = await synced();
    later(w, HOUR);
    const repriced = mapped[1]!;
    const restocked = mapped[4]!;
    await setErpPrice(w, repriced.item, repriced.item.defaultPriceCents + 1_234);
    await setErpQuantity(w, restocked.item, 42);

    const run = await syncAll(w);

    expect(run.changesSince).toEqual({ since: expect.any(String), mappings: 6 });
    expect(new Map(run.results.map((result) => [result.mappingId, result.outcome]))).toEqual(
      new Map([
        [repriced.mappingId, "succeeded"],
        [restocked.mappingId, "succeeded"],
      ]),
    );
    expect(await w.shopifyVariant(repriced.variant.id)).toMatchObject({
      priceCents: repriced.item.defaultPriceCents + 1_234,
    });
    expect((await w.shopifyVariant(restocked.variant.id)).available).toBe(42);
    // Its history entry says so; the first run's (which read everything) does not.
    const history = createHistoryRepo(w.app.db);
    expect((await history.get(w.userId, run.historyId!))?.changesSince).toEqual(run.changesSince);
  });

  it("reads nothing but the changes when nothing changed, and writes nothing", async () => {
    const { w } = await synced();
    later(w, HOUR);
    const calls = callsDuring(w);
    const mutations = w.state().shopify.mutations;

    const run = await syncAll(w);

    expect(run.status).toBe("completed");
    expect(run.changesSince?.mappings).toBe(6);
    expect(run.results).toEqual([]);
    expect(calls().variantReads).toBe(0);
    expect(w.state().shopify.mutations).toBe(mutations);
    // Shopify: the count of changed variants. Acumatica: login, three change reads, logout.
    expect(calls().shopify).toBeLessThanOrEqual(2);
    expect(calls().acumatica).toBeLessThanOrEqual(6);
  });

  it("puts back a price changed in Shopify (its variant's updated_at moved)", async () => {
    const { w, mapped } = await synced();
    later(w, HOUR);
    const pair = mapped[2]!;
    await setShopifyPrice(w, pair, pair.item.defaultPriceCents + 999);

    const run = await syncAll(w);

    expect(run.results.map((result) => [result.mappingId, result.outcome])).toEqual([
      [pair.mappingId, "succeeded"],
    ]);
    expect((await w.shopifyVariant(pair.variant.id)).priceCents).toBe(pair.item.defaultPriceCents);
  });

  it("misses stock changed in Shopify itself, which the reconcile catches: on demand, and a day after the last", async () => {
    const { w, mapped } = await synced();
    later(w, HOUR);
    const pair = mapped[3]!;
    const erpAvailable = erpTotals(pair.item).available;
    // A recount in the Shopify admin: Shopify does not move the variant's updated_at for stock.
    await setShopifyAvailable(w, pair, erpAvailable + 7);

    const incremental = await syncAll(w);
    expect(incremental.results).toEqual([]);
    expect((await w.shopifyVariant(pair.variant.id)).available).toBe(erpAvailable + 7);

    const reconciled = await syncAll(w, { reconcile: true });
    expect(reconciled.changesSince).toBeUndefined();
    expect(reconciled.results).toHaveLength(6);
    expect(reconciled.results.find((result) => result.mappingId === pair.mappingId)?.outcome).toBe(
      "succeeded",
    );
    expect((await w.shopifyVariant(pair.variant.id)).available).toBe(erpAvailable);

    // Unasked: the next run reads changes only, until a day has passed since the last full read.
    await setShopifyAvailable(w, pair, erpAvailable + 3);
    later(w, 23 * HOUR);
    expect((await syncAll(w)).changesSince).toBeDefined();
    expect((await w.shopifyVariant(pair.variant.id)).available).toBe(erpAvailable + 3);
    later(w, HOUR);
    const daily = await syncAll(w);
    expect(daily.changesSince).toBeUndefined();
    expect(daily.results).toHaveLength(6);
    expect((await w.shopifyVariant(pair.variant.id)).available).toBe(erpAvailable);
  });

  it("reads mappings created since, and not those the last run synced", async () => {
    const { w } = await synced();
    later(w, HOUR);
    const [added] = await w.map(plainPairs(w, 7).slice(6));

    const run = await syncAll(w);

    expect(run.results.map((result) => [result.mappingId, result.outcome])).toEqual([
      [added!.mappingId, "succeeded"],
    ]);
    later(w, HOUR);
    expect((await syncAll(w)).results).toEqual([]);
  });

  it("reads again a mapping that failed last time, though nothing about it changed since", async () => {
    world = await startSyncWorld();
    const w = world;
    const mapped = await w.map(plainPairs(w, 3));
    const bad = mapped[1]!;
    // More than Shopify takes: its write fails, the others succeed.
    await setErpQuantity(w, bad.item, 2_000_000_000);
    const first = await syncAll(w);
    expect(first.results.find((result) => result.mappingId === bad.mappingId)?.outcome).toBe("failed");
    later(w, HOUR);

    const run = await syncAll(w);

    expect(run.changesSince).toBeDefined();
    expect(run.results.map((result) => [result.mappingId, result.outcome])).toEqual([
      [bad.mappingId, "failed"],
    ]);
  });

  it("reads everything when the settings its plans follow changed, or with other sync options", async () => {
    const { w } = await synced();
    later(w, HOUR);
    await w.setSettings({ syncPrice: true, syncMsrp: false });
    expect((await syncAll(w)).changesSince).toBeUndefined();
    expect((await syncAll(w)).changesSince).toBeDefined();
    expect(
      (await syncAll(w, { syncOptions: { price: false, quantity: true } })).changesSince,
    ).toBeUndefined();
  });

  it("reads everything for a dry run and a check, which report on every mapping", async () => {
    const { w } = await synced();
    later(w, HOUR);
    const dry = await syncAll(w, { dryRun: true });
    expect(dry.changesSince).toBeUndefined();
    expect(dry.results.map((result) => result.outcome)).toEqual(Array(6).fill("unchanged"));
  });

  it("counts the mappings it did not read toward the zeroed-stock limit, so one sell-out is not held", async () => {
    const { w, mapped } = await synced();
    later(w, HOUR);
    // 1 of 6 (17 %) goes to zero: under the default 20 % limit. Of the one mapping read, it is 100 %.
    await setErpQuantity(w, mapped[5]!.item, 0);

    const run = await syncAll(w);

    expect(run.status).toBe("completed");
    expect(run.results.map((result) => [result.mappingId, result.outcome])).toEqual([
      [mapped[5]!.mappingId, "succeeded"],
    ]);
    expect((await w.shopifyVariant(mapped[5]!.variant.id)).available).toBe(0);
  });
});

describe("POST /api/mapping/sync", () => {
  /** The finished job's result (it must have succeeded). */
  async function finished(w: SyncWorld, job: Job): Promise<SyncJobResult> {
    const done = await w.finishedJob(job);
    expect(done).toMatchObject({ status: "succeeded" });
    return done.result as SyncJobResult;
  }

  it("says in its result when it read only what changed, and reads everything with reconcile", async () => {
    world = await startSyncWorld();
    const w = world;
    await w.connect();
    await w.setSettings({ syncPrice: true });
    await w.map(plainPairs(w, 3));
    const sync = async (body: { reconcile?: boolean }) =>
      finished(w, (await w.api.call("syncMappings", { body: { syncOptions: ALL, ...body } })).job);

    expect((await sync({})).changesSince).toBeUndefined();
    expect(await sync({})).toMatchObject({ total: 0, changesSince: { mappings: 3 } });
    const reconciled = await sync({ reconcile: true });
    expect(reconciled.total).toBe(3);
    expect(reconciled.changesSince).toBeUndefined();
  });

  it("refuses a reconcile that is not true or false, naming the rule", async () => {
    world = await startSyncWorld();
    const w = world;
    const refused = await failure(
      w.api.call("syncMappings", {
        body: { syncOptions: ALL, reconcile: "yes" as unknown as boolean },
      }),
    );
    expect(refused).toMatchObject({ status: 400 });
    expect(refused.message).toContain("reconcile must be true or false");
  });
});
