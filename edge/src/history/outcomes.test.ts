import { MESSAGES, type SyncJobResult } from "@stockbridge/shared";
import { afterEach, describe, expect, it } from "vitest";
import { failure } from "../../testing/helpers.ts";
import { registerSubscriber } from "../../testing/mapping-fixtures.ts";
import {
  erpTotals,
  type MappedPair,
  plainPairs,
  type SyncWorld,
  setErpQuantity,
  startSyncWorld,
} from "../../testing/sync-harness.ts";
import { SKIP } from "../sync/plan.ts";
import { SYNC_BUSY } from "../sync/sync-job.ts";

let world: SyncWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** The sandbox world with the subscriber's connections saved, so the app's sync routes reach it. */
async function open(options: { acumaticaPassword?: string } = {}) {
  world = await startSyncWorld({ size: 40 });
  await world.connect(options);
  await world.setSettings({ syncPrice: true });
  return world;
}

const QUANTITY = { price: false, quantity: true };
/** Shopify refuses a total quantity above 1,000,000,000: an ERP quantity above it fails that one item. */
const REFUSED = 2_000_000_000;
const REFUSAL = "The total quantity can't be higher than 1,000,000,000.";

/**
 * One `POST /mapping/sync` of these mappings (all when left out), followed to its history entry. The
 * clock moves a second first, so the run is the newest entry even beside earlier runs.
 */
async function syncRun(w: SyncWorld, options: { mappingIds?: string[]; syncOptions?: typeof QUANTITY } = {}) {
  w.app.clock.advance(1_000);
  const { job } = await w.api.call("syncMappings", {
    body: { mappingIds: options.mappingIds, syncOptions: options.syncOptions ?? QUANTITY },
  });
  const done = await w.finishedJob(job);
  const [latest] = (await w.api.call("executionHistory")).histories;
  return { job: done, entry: await w.api.call("executionHistoryEntry", { params: { id: latest!._id } }) };
}

function failedItem(pair: MappedPair, error: string) {
  return {
    mappingId: pair.mappingId,
    shopifySku: pair.variant.sku,
    acumaticaSku: pair.item.inventoryId,
    error,
  };
}

/** A run lists its mappings in their own order: created first, then by id (the harness creates them at once). */
function inRunOrder<T extends { mappingId: string | null }>(items: T[]): T[] {
  return [...items].sort((a, b) => String(a.mappingId).localeCompare(String(b.mappingId)));
}

describe("execution history status", () => {
  it("is completed when every item synced", async () => {
    const w = await open();
    const mapped = await w.map(plainPairs(w, 2));
    for (const pair of mapped) await setErpQuantity(w, pair.item, 17);

    const { entry } = await syncRun(w);

    expect(entry).toMatchObject({
      status: "completed",
      successCount: 2,
      failureCount: 0,
      failedMappings: [],
      skippedMappings: [],
      syncOptions: QUANTITY,
      retryOf: null,
    });
  });

  it("is partial when some items failed and some synced, listing only the failed ones", async () => {
    const w = await open();
    const mapped = await w.map(plainPairs(w, 3));
    await setErpQuantity(w, mapped[1]!.item, REFUSED);

    const { entry } = await syncRun(w);

    expect(entry).toMatchObject({ status: "partial", successCount: 2, failureCount: 1, error: null });
    expect(entry.failedMappings).toEqual([failedItem(mapped[1]!, REFUSAL)]);
    const [listed] = (await w.api.call("executionHistory")).histories;
    expect(listed?.status).toBe("partial");
  });

  it("is failed when no item synced", async () => {
    const w = await open();
    const mapped = await w.map(plainPairs(w, 2));
    for (const pair of mapped) await setErpQuantity(w, pair.item, REFUSED);

    const { entry } = await syncRun(w);

    expect(entry).toMatchObject({ status: "failed", successCount: 0, failureCount: 2, error: null });
    expect(entry.failedMappings).toEqual(inRunOrder(mapped.map((pair) => failedItem(pair, REFUSAL))));
  });

  it("lists every mapping of a full sync that failed as a whole, each with the run's error", async () => {
    const w = await open({ acumaticaPassword: "Wrong-Passw0rd" });
    const mapped = await w.map(plainPairs(w, 4));

    const { job, entry } = await syncRun(w);

    expect(job.status).toBe("failed");
    expect(entry.error).toMatch(/^Acumatica: /);
    expect(entry).toMatchObject({ status: "failed", successCount: 0, failureCount: 4, skippedCount: 0 });
    expect(entry.failedMappings).toEqual(inRunOrder(mapped.map((pair) => failedItem(pair, entry.error!))));
  });

  it("lists exactly the named mappings of a run that failed as a whole, and the one of a single-mapping sync", async () => {
    const w = await open({ acumaticaPassword: "Wrong-Passw0rd" });
    const mapped = await w.map(plainPairs(w, 4));
    const named = [mapped[3]!, mapped[1]!];

    const { entry } = await syncRun(w, { mappingIds: named.map((pair) => pair.mappingId) });
    expect(entry).toMatchObject({ status: "failed", failureCount: 2 });
    expect(entry.failedMappings).toEqual(inRunOrder(named.map((pair) => failedItem(pair, entry.error!))));

    w.app.clock.advance(1_000);
    const single = await w.app.request(`/api/mapping/${mapped[2]!.mappingId}/sync`, {
      token: w.token,
      body: { syncOptions: QUANTITY },
    });
    expect(single.status).toBe(502);
    const [latest] = (await w.api.call("executionHistory")).histories;
    expect(latest).toMatchObject({ status: "failed", failureCount: 1 });
    expect(latest!.failedMappings).toEqual([failedItem(mapped[2]!, latest!.error!)]);
  });

  it("counts skipped items and lists each with its reason apart from the failures", async () => {
    const w = await open();
    const untracked = w.pairs.find((pair) => !pair.variant.tracked)!;
    const bundle = w.pairs.find((pair) => pair.variant.isBundle)!;
    const [good, bad] = plainPairs(w, 2);
    const mapped = await w.map([untracked, good!, bundle, bad!]);
    await setErpQuantity(w, mapped[1]!.item, 23);
    await setErpQuantity(w, mapped[3]!.item, REFUSED);

    const { entry } = await syncRun(w);

    expect(entry).toMatchObject({ status: "partial", successCount: 1, failureCount: 1, skippedCount: 2 });
    expect(entry.failedMappings).toEqual([failedItem(mapped[3]!, REFUSAL)]);
    expect(entry.skippedMappings).toEqual(
      inRunOrder([
        {
          mappingId: mapped[0]!.mappingId,
          shopifySku: untracked.variant.sku,
          acumaticaSku: untracked.item.inventoryId,
          reason: SKIP.untracked,
        },
        {
          mappingId: mapped[2]!.mappingId,
          shopifySku: bundle.variant.sku,
          acumaticaSku: bundle.item.inventoryId,
          reason: SKIP.bundle,
        },
      ]),
    );
    // The list carries counts and failures; the skipped items are read with the entry.
    const [listed] = (await w.api.call("executionHistory")).histories;
    expect(listed).toMatchObject({ skippedCount: 2, failureCount: 1 });
    expect(listed).not.toHaveProperty("skippedMappings");
  });

  it("stays completed when items were only skipped (price sync off in Settings)", async () => {
    const w = await open();
    await w.setSettings({ syncPrice: false, syncMsrp: false });
    const [pair] = await w.map(plainPairs(w, 1));

    const { entry } = await syncRun(w, { syncOptions: { price: true, quantity: false } });

    expect(entry).toMatchObject({ status: "completed", successCount: 0, failureCount: 0, skippedCount: 1 });
    expect(entry.skippedMappings).toEqual([
      {
        mappingId: pair!.mappingId,
        shopifySku: pair!.variant.sku,
        acumaticaSku: pair!.item.inventoryId,
        reason: SKIP.priceSettingsOff,
      },
    ]);
  });
});

describe("POST /execution-history/:id/retry", () => {
  it("syncs exactly the run's failed mappings with its options, as a new run carrying retryOf", async () => {
    const w = await open();
    const mapped = await w.map(plainPairs(w, 3));
    for (const pair of mapped) await setErpQuantity(w, pair.item, 31);
    await setErpQuantity(w, mapped[1]!.item, REFUSED);
    const { entry: original } = await syncRun(w);
    expect(original.status).toBe("partial");
    // Since the run: the bad item is fixed, and the good ones' ERP values moved on again.
    await setErpQuantity(w, mapped[1]!.item, 9);
    for (const pair of [mapped[0]!, mapped[2]!]) await setErpQuantity(w, pair.item, 55);
    const pricesBefore = await w.shopifyVariant(mapped[1]!.variant.id);

    const { job } = await w.api.call("retryExecutionHistory", { params: { id: original._id } });
    const done = await w.finishedJob(job);

    expect(done).toMatchObject({ kind: "sync", status: "succeeded", message: MESSAGES.mapping.synchronized });
    const result = done.result as SyncJobResult;
    expect(result).toMatchObject({ total: 1, success: 1, failure: 0 });
    const retried = await w.api.call("executionHistoryEntry", { params: { id: result.historyId! } });
    expect(retried).toMatchObject({
      status: "completed",
      retryOf: original._id,
      syncOptions: QUANTITY,
      successCount: 1,
      failureCount: 0,
      trigger: "manual",
    });
    // The failed mapping got the ERP's quantity; the others were not touched; prices were not synced.
    const fixed = await w.shopifyVariant(mapped[1]!.variant.id);
    expect(fixed.available).toBe(9);
    expect(fixed.priceCents).toBe(pricesBefore.priceCents);
    for (const pair of [mapped[0]!, mapped[2]!])
      expect((await w.shopifyVariant(pair.variant.id)).available).toBe(31);
    // The original keeps its own outcome.
    expect(await w.api.call("executionHistoryEntry", { params: { id: original._id } })).toMatchObject({
      status: "partial",
      retryOf: null,
    });
  });

  it("retries every mapping of a run that failed as a whole once its cause is fixed", async () => {
    const w = await open({ acumaticaPassword: "Wrong-Passw0rd" });
    const mapped = await w.map(plainPairs(w, 3));
    const { entry: original } = await syncRun(w);
    expect(original.failureCount).toBe(3);
    await w.connect();

    const { job } = await w.api.call("retryExecutionHistory", { params: { id: original._id } });
    const result = (await w.finishedJob(job)).result as SyncJobResult;

    expect(result).toMatchObject({ total: 3, success: 3, failure: 0 });
    for (const pair of mapped)
      expect((await w.shopifyVariant(pair.variant.id)).available).toBe(erpTotals(pair.item).available);
    const retried = await w.api.call("executionHistoryEntry", { params: { id: result.historyId! } });
    expect(retried).toMatchObject({ status: "completed", retryOf: original._id, successCount: 3 });
  });

  it("answers 409 with the running job's id while a sync of the user runs, and starts nothing", async () => {
    const w = await open();
    const mapped = await w.map(plainPairs(w, 2));
    await setErpQuantity(w, mapped[0]!.item, REFUSED);
    const { entry: original } = await syncRun(w);
    // A slow Acumatica keeps the next sync inside its first read while the retry comes in.
    await w.faults({ acumatica: { latencyMs: 1_000 } });
    const { job: running } = await w.api.call("syncMappings", { body: { syncOptions: QUANTITY } });
    while (Number(w.state().acumatica.running) === 0) await new Promise((resolve) => setTimeout(resolve, 10));

    const busy = await w.app.request(`/api/execution-history/${original._id}/retry`, {
      method: "POST",
      token: w.token,
    });
    expect(busy.status).toBe(409);
    expect(await busy.json()).toEqual({ message: SYNC_BUSY, code: "CONFLICT", jobId: running._id });
    // The running run's own entry cannot be retried either: it names the same job.
    const { histories } = await w.api.call("executionHistory");
    const live = histories.find((entry) => entry.status === "running");
    expect(await failure(w.api.call("retryExecutionHistory", { params: { id: live!._id } }))).toMatchObject({
      status: 409,
      message: SYNC_BUSY,
      jobId: running._id,
    });

    await w.faults({ acumatica: { latencyMs: 0 } });
    await w.finishedJob(running);
    expect((await w.api.call("executionHistory")).total).toBe(2);
  });

  it("answers 400 when the run has no failed mappings, or none of them exists any more", async () => {
    const w = await open();
    const mapped = await w.map(plainPairs(w, 2));
    for (const pair of mapped) await setErpQuantity(w, pair.item, 12);
    const { entry: clean } = await syncRun(w);

    const response = await w.app.request(`/api/execution-history/${clean._id}/retry`, {
      method: "POST",
      token: w.token,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      message: MESSAGES.history.nothingToRetry,
      code: "VALIDATION_FAILED",
      errors: [{ path: "id", message: MESSAGES.history.nothingToRetry }],
    });

    await setErpQuantity(w, mapped[0]!.item, REFUSED);
    const { entry: partial } = await syncRun(w);
    await w.api.call("deleteMapping", { params: { id: mapped[0]!.mappingId } });
    expect(await failure(w.api.call("retryExecutionHistory", { params: { id: partial._id } }))).toMatchObject(
      {
        status: 400,
        message: MESSAGES.history.retryMappingsGone,
      },
    );
    expect((await w.api.call("executionHistory")).total).toBe(2);
  });

  it("answers 404 for another user's run and for an unknown id, and starts nothing", async () => {
    const w = await open();
    const mapped = await w.map(plainPairs(w, 1));
    await setErpQuantity(w, mapped[0]!.item, REFUSED);
    const { entry } = await syncRun(w);
    const stranger = await registerSubscriber(w.app);

    for (const [api, id] of [
      [stranger.api, entry._id],
      [w.api, "no-such-run"],
    ] as const) {
      expect(await failure(api.call("retryExecutionHistory", { params: { id } }))).toMatchObject({
        status: 404,
        message: "Execution history entry not found",
      });
    }
    const jobs = await w.app.db.execute("SELECT COUNT(*) AS n FROM jobs");
    expect(Number(jobs.rows[0]?.n)).toBe(1);
  });
});
