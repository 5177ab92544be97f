import { type Job, type MappingSyncResult, MESSAGES, type SyncJobResult } from "@stockbridge/shared";
import { afterEach, describe, expect, it } from "vitest";
import { failure } from "../../testing/helpers.ts";
import { registerSubscriber } from "../../testing/mapping-fixtures.ts";
import {
  erpTotals,
  plainPairs,
  type SyncWorld,
  setErpQuantity,
  startSyncWorld,
} from "../../testing/sync-harness.ts";
import { type RunSyncResult, WAITING_FOR_SEAT } from "./engine.ts";
import { DRY_RUN_CHANGES_LIMIT, SYNC_BUSY, syncJobResult } from "./sync-job.ts";
import { RunTally } from "./tally.ts";

let world: SyncWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** The sandbox world with the subscriber's connections saved, so `POST /mapping/sync` reaches it. */
async function open(options: Parameters<typeof startSyncWorld>[0] = {}) {
  world = await startSyncWorld(options);
  await world.connect();
  await world.setSettings({ syncPrice: true });
  return world;
}

const ALL = { price: true, quantity: true };
const QUANTITY = { price: false, quantity: true };

async function jobCount(w: SyncWorld): Promise<number> {
  const result = await w.app.db.execute("SELECT COUNT(*) AS n FROM jobs");
  return Number(result.rows[0]?.n);
}

function resultOf(job: Job): SyncJobResult {
  return job.result as SyncJobResult;
}

describe("Shopify deprecation notices", () => {
  it("stores what Shopify says is deprecated on the connection and logs it once, not once per call", async () => {
    // Asked for 2025-04, served 2025-10: compareQuantity is still the write form there, and deprecated.
    world = await startSyncWorld({ releaseDate: new Date("2026-08-01T00:00:00Z") });
    const w = world;
    await w.connect();
    const mapped = await w.map(plainPairs(w, 3));

    for (let run = 0; run < 2; run += 1) {
      // Each run has quantities to write, so each sends the deprecated field again.
      for (const pair of mapped) await setErpQuantity(w, pair.item, 11 + run);
      const { job } = await w.api.call("syncMappings", { body: { syncOptions: QUANTITY } });
      expect(await w.finishedJob(job)).toMatchObject({ status: "succeeded" });
    }

    const { shopifyConnection } = await w.api.call("getConnections");
    expect(shopifyConnection).toMatchObject({
      servedApiVersion: "2025-10",
      deprecationNotice: "InventoryQuantityInput.compareQuantity",
    });
    const noticed = w.logs.filter((line) => line.includes("InventoryQuantityInput.compareQuantity"));
    expect(noticed).toHaveLength(1);
    expect(noticed[0]).toContain(`Shopify deprecation notice for ${shopifyConnection?.storeName}`);
  });
});

describe("POST /mapping/sync", () => {
  it("syncs only the named mappings as one job and one execution-history run", async () => {
    const w = await open();
    const [first, second, untouched] = await w.map(plainPairs(w, 3));
    const before = await w.shopifyVariant(untouched!.variant.id);

    const { job } = await w.api.call("syncMappings", {
      body: { mappingIds: [first!.mappingId, second!.mappingId], syncOptions: ALL },
    });
    expect(job).toMatchObject({ kind: "sync", status: "running" });
    const done = await w.finishedJob(job);

    expect(done).toMatchObject({ status: "succeeded", message: MESSAGES.mapping.synchronized });
    expect(resultOf(done)).toMatchObject({ dryRun: false, total: 2, success: 2, failure: 0, skipped: 0 });
    for (const pair of [first!, second!]) {
      expect(await w.shopifyVariant(pair.variant.id)).toMatchObject({
        priceCents: pair.item.defaultPriceCents,
        available: erpTotals(pair.item).available,
      });
    }
    expect(await w.shopifyVariant(untouched!.variant.id)).toEqual(before);
    const history = await w.api.call("executionHistory");
    expect(history.total).toBe(1);
    expect(history.histories[0]).toMatchObject({
      _id: resultOf(done).historyId,
      trigger: "manual",
      status: "completed",
      successCount: 2,
      failureCount: 0,
    });
  });

  it("syncs every mapping of the user when mappingIds is left out", async () => {
    const w = await open();
    const mapped = await w.map(plainPairs(w, 4));

    const { job } = await w.api.call("syncMappings", { body: { syncOptions: ALL } });
    const done = await w.finishedJob(job);

    expect(resultOf(done)).toMatchObject({ total: 4, success: 4, failure: 0 });
    for (const pair of mapped)
      expect((await w.shopifyVariant(pair.variant.id)).priceCents).toBe(pair.item.defaultPriceCents);
    expect((await w.api.call("executionHistory")).total).toBe(1);
  });

  it("ends a dry run with the counts and the planned changes, writing nothing to Shopify or history", async () => {
    const w = await open();
    const mapped = await w.map(plainPairs(w, 3));
    const before = await Promise.all(mapped.map((pair) => w.shopifyVariant(pair.variant.id)));

    const { job } = await w.api.call("syncMappings", { body: { syncOptions: ALL, dryRun: true } });
    const done = await w.finishedJob(job);

    expect(done.status).toBe("succeeded");
    expect(done.message).toBe("Plan ready: 3 of 3 mappings would change; nothing was written");
    const result = resultOf(done);
    expect(result).toMatchObject({ dryRun: true, historyId: null, total: 3, planned: 3, truncated: false });
    mapped.forEach((pair, index) => {
      const planned = result.changes.find((change) => change.mappingId === pair.mappingId);
      expect(planned).toMatchObject({ outcome: "planned", shopifySku: pair.variant.sku });
      expect(planned?.changes).toContainEqual({
        field: "quantity",
        from: before[index]!.available,
        to: erpTotals(pair.item).available,
      });
    });
    expect(w.state().shopify.mutations).toBe(0);
    expect(await Promise.all(mapped.map((pair) => w.shopifyVariant(pair.variant.id)))).toEqual(before);
    expect((await w.api.call("executionHistory")).total).toBe(0);
  });

  it("records one history entry for the job, listing each failed item with Shopify's error", async () => {
    const w = await open();
    const mapped = await w.map(plainPairs(w, 3));
    const bad = mapped[1]!;
    // Above Shopify's 1,000,000,000 limit, still a 32-bit integer: Shopify refuses this one item.
    await setErpQuantity(w, bad.item, 2_000_000_000);

    const { job } = await w.api.call("syncMappings", {
      body: { mappingIds: mapped.map((pair) => pair.mappingId), syncOptions: QUANTITY },
    });
    const done = await w.finishedJob(job);

    expect(done).toMatchObject({
      status: "succeeded",
      message: "1 of 3 mappings failed; see Execution History",
    });
    expect(resultOf(done)).toMatchObject({ total: 3, success: 2, failure: 1 });
    const history = await w.api.call("executionHistory");
    expect(history.total).toBe(1);
    const entry = await w.api.call("executionHistoryEntry", { params: { id: resultOf(done).historyId! } });
    expect(entry).toMatchObject({ status: "partial", successCount: 2, failureCount: 1 });
    expect(entry.failedMappings).toEqual([
      {
        mappingId: bad.mappingId,
        shopifySku: bad.variant.sku,
        acumaticaSku: bad.item.inventoryId,
        error: "The total quantity can't be higher than 1,000,000,000.",
      },
    ]);
  });

  it("fails the job naming Acumatica when the saved connection no longer signs in", async () => {
    const w = await open();
    await w.map(plainPairs(w, 2));
    await w.connect({ acumaticaPassword: "Wrong-Passw0rd" });

    const { job } = await w.api.call("syncMappings", { body: { syncOptions: QUANTITY } });
    const done = await w.finishedJob(job);

    expect(done).toMatchObject({ status: "failed", message: expect.stringMatching(/^Acumatica/) });
    const [entry] = (await w.api.call("executionHistory")).histories;
    expect(entry).toMatchObject({ status: "failed", error: expect.stringMatching(/^Acumatica: /) });
  });

  it("answers 404 for another user's mapping id, naming only the ids sent, and starts nothing", async () => {
    const w = await open();
    const [mine] = await w.map(plainPairs(w, 1));
    const stranger = await registerSubscriber(w.app);

    const foreign = await failure(
      stranger.api.call("syncMappings", { body: { mappingIds: [mine!.mappingId], syncOptions: ALL } }),
    );
    expect(foreign).toMatchObject({
      status: 404,
      message: `Cannot sync: Mapping not found: ${mine!.mappingId}`,
    });

    const mixed = await failure(
      w.api.call("syncMappings", {
        body: { mappingIds: [mine!.mappingId, "no-such-1", "no-such-2"], syncOptions: ALL },
      }),
    );
    expect(mixed).toMatchObject({
      status: 404,
      message: "Cannot sync: 2 mappings not found: no-such-1, no-such-2",
    });
    expect(await jobCount(w)).toBe(0);
    expect(w.state().shopify.mutations).toBe(0);
  });

  it("answers 400 naming the field and the rule for each bad body", async () => {
    const w = await open();
    const cases: { body: unknown; path: string; message: string }[] = [
      { body: {}, path: "syncOptions", message: "syncOptions is required" },
      {
        body: { syncOptions: "yes" },
        path: "syncOptions",
        message: "syncOptions must be an object with price and quantity",
      },
      {
        body: { syncOptions: { price: false, quantity: false } },
        path: "syncOptions",
        message: MESSAGES.mapping.selectSyncOption,
      },
      {
        body: { syncOptions: { price: "yes", quantity: true } },
        path: "syncOptions.price",
        message: "syncOptions.price must be true or false",
      },
      {
        body: { syncOptions: ALL, mappingIds: "abc" },
        path: "mappingIds",
        message: "mappingIds must be a list of ids",
      },
      {
        body: { syncOptions: ALL, mappingIds: [] },
        path: "mappingIds",
        message: "mappingIds must hold at least 1 id (leave it out to sync every mapping)",
      },
      {
        body: { syncOptions: ALL, mappingIds: ["a", ""] },
        path: "mappingIds.1",
        message: "mappingIds must not hold an empty id",
      },
      {
        body: { syncOptions: ALL, mappingIds: [7] },
        path: "mappingIds.0",
        message: "mappingIds must hold ids (strings)",
      },
      {
        body: {
          syncOptions: ALL,
          mappingIds: Array.from({ length: 10_001 }, (_, index) => `m-${index}`),
        },
        path: "mappingIds",
        message: "mappingIds may hold at most 10,000 ids",
      },
      { body: { syncOptions: ALL, dryRun: "no" }, path: "dryRun", message: "dryRun must be true or false" },
    ];
    for (const { body, path, message } of cases) {
      const response = await w.app.request("/api/mapping/sync", { token: w.token, body });
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      const answer = await response.json();
      expect(answer).toMatchObject({ message, code: "VALIDATION_FAILED" });
      expect(answer.errors).toContainEqual({ path, message });
    }
  });

  it("answers 409 with the running job's id while a sync runs, and so does a second catalog pull", async () => {
    const w = await open();
    await w.map(plainPairs(w, 2));
    // Slow Shopify answers keep the first job running while the second request comes in.
    await w.faults({ shopify: { latencyMs: 100 } });

    const { job } = await w.api.call("syncMappings", { body: { syncOptions: ALL } });
    const busy = await w.app.request("/api/mapping/sync", { token: w.token, body: { syncOptions: ALL } });
    expect(busy.status).toBe(409);
    expect(await busy.json()).toEqual({ message: SYNC_BUSY, code: "CONFLICT", jobId: job._id });
    expect((await w.finishedJob(job)).status).toBe("succeeded");

    const pull = await w.api.call("syncShopifyProducts");
    const again = await failure(w.api.call("syncShopifyProducts"));
    expect(again).toMatchObject({ status: 409, jobId: pull.job._id });
    await w.finishedJob(pull.job);
  });

  it("shows the job waiting for a free Acumatica session while another instance holds the connection's only one", async () => {
    const w = await open();
    const [pair] = await w.map(plainPairs(w, 1));
    await w.app.db.execute({
      sql: "UPDATE acumatica_connections SET max_sessions = 1 WHERE user_id = ?",
      args: [w.userId],
    });
    // Another instance's seat, as its heartbeat keeps it: held until that instance frees it.
    await w.app.db.execute({
      sql: `INSERT INTO work_slots (slot_key, holder, holding, lease_until, created_at)
            VALUES (?, 'other-instance', 1, '9999-12-31T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
      args: [`acumatica:${w.userId}`],
    });

    const { job } = await w.api.call("syncMappings", {
      body: { mappingIds: [pair!.mappingId], syncOptions: ALL },
    });
    for (;;) {
      const current = await w.api.call("job", { params: { id: job._id } });
      if (current.progress.phase === WAITING_FOR_SEAT) break;
      expect(current.status).toBe("running");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(w.state().acumatica.loginsOpenPeak).toBe(0);
    await w.app.db.execute("DELETE FROM work_slots WHERE holder = 'other-instance'");

    expect(resultOf(await w.finishedJob(job))).toMatchObject({ total: 1, success: 1, failure: 0 });
    expect(w.state().acumatica.loginsOpenPeak).toBe(1);
  });

  it.each([
    ["2025-04, one bulk query at a time", new Date("2025-06-01T00:00:00Z"), "2025-04"],
    ["2026-01, several followed by their ids", undefined, "2026-01"],
  ])(
    "runs a catalog pull and a full sync of a large store started together: both succeed (%s)",
    async (_label, releaseDate, served) => {
      const w = await open({
        size: 2_000,
        releaseDate,
        app: { syncTuning: { bulkReadThreshold: 100 }, catalogTuning: { shopifyBulkThreshold: 100 } },
      });
      const mapped = await w.map(plainPairs(w, 1_200));
      // A job waiting for the other's bulk slot sleeps on this harness's clock, which jumps instead of
      // waiting: simulated minutes pass while the ERP read is still in flight, past a 10-minute idle
      // timeout that real time would never reach (edge/test/bulk-overlap-deno.test.ts runs it in real time).
      await w.faults({ acumatica: { idleTimeoutSeconds: 3_600 } });
      const withSku = w.catalog.shopify.products.flatMap((product) => product.variants).filter((v) => v.sku);

      const [sync, pull] = await Promise.all([
        w.api.call("syncMappings", { body: { syncOptions: ALL } }),
        w.api.call("syncShopifyProducts"),
      ]);
      const [synced, pulled] = await Promise.all([w.finishedJob(sync.job), w.finishedJob(pull.job)]);

      expect(synced).toMatchObject({ status: "succeeded" });
      expect(resultOf(synced)).toMatchObject({ total: 1_200, failure: 0 });
      expect(pulled).toMatchObject({ status: "succeeded", result: { total: withSku.length } });
      expect(Object.keys(w.state().shopify.servedVersions)).toEqual([served]);
      // The jobs kept within the version's limit themselves: Shopify never had to refuse a launch.
      expect(w.state().shopify).toMatchObject({ bulkOperationsRefused: 0 });
      for (const pair of [mapped[0]!, mapped[1_199]!])
        expect((await w.shopifyVariant(pair.variant.id)).available).toBe(erpTotals(pair.item).available);
      // No bulk slot stays held once both jobs ended.
      const held = await w.app.db.execute("SELECT COUNT(*) AS n FROM shopify_bulk_slots");
      expect(Number(held.rows[0]?.n)).toBe(0);
    },
  );

  it("weighs a sync's read by the export time a catalog pull of the store measured, not by a guess", async () => {
    const w = await open({ size: 700, app: { catalogTuning: { shopifyBulkThreshold: 100 } } });
    // 440 reads at 5 points: 2,200 points, 2 s of refill past a full bucket. Shorter than the few
    // seconds guessed for an export never seen, longer than the sandbox's half-second export.
    const mapped = await w.map(plainPairs(w, 440));
    const calls = () => w.state().shopify.rootFields;

    const first = await w.api.call("syncMappings", { body: { syncOptions: QUANTITY } });
    expect(resultOf(await w.finishedJob(first.job))).toMatchObject({ total: 440, failure: 0 });
    const nodesBefore = calls().nodes ?? 0;
    expect(nodesBefore).toBeGreaterThan(0);
    expect(calls().bulkOperationRunQuery).toBeUndefined();

    const pull = await w.api.call("syncShopifyProducts");
    expect(await w.finishedJob(pull.job)).toMatchObject({ status: "succeeded", result: { mode: "bulk" } });
    expect(calls().bulkOperationRunQuery).toBe(1);

    w.advance(60_000);
    // Read in full (nothing changed): the read is a bulk query now that the export time is known.
    const second = await w.api.call("syncMappings", { body: { syncOptions: QUANTITY, reconcile: true } });
    expect(resultOf(await w.finishedJob(second.job))).toMatchObject({ total: 440, failure: 0 });
    expect(calls().bulkOperationRunQuery).toBe(2);
    expect(calls().nodes ?? 0).toBe(nodesBefore);
    expect((await w.shopifyVariant(mapped[439]!.variant.id)).available).toBe(
      erpTotals(mapped[439]!.item).available,
    );
  });

  it("answers 403 to a signed-in user without a subscription", async () => {
    const w = await open();
    const { token } = await w.app.registerUser();

    const response = await w.app.request("/api/mapping/sync", { token, body: { syncOptions: ALL } });

    expect(response.status).toBe(403);
    expect((await response.json()).message).toBe(MESSAGES.access.subscriptionRequired);
    expect(await jobCount(w)).toBe(0);
  });
});

describe("syncJobResult", () => {
  it(`keeps at most ${DRY_RUN_CHANGES_LIMIT} planned changes and says when it left some out`, () => {
    const planned = (index: number): MappingSyncResult => ({
      mappingId: `m-${index}`,
      shopifySku: `S-${index}`,
      acumaticaSku: `S-${index}`,
      outcome: "planned",
      changes: [{ field: "quantity", from: 1, to: 2 }],
      reason: null,
    });
    // Settled as a job's run settles them: the tally keeps the first planned results only.
    const tally = new RunTally(DRY_RUN_CHANGES_LIMIT);
    for (let index = 0; index < DRY_RUN_CHANGES_LIMIT + 5; index += 1) tally.add(planned(index));
    tally.add({ ...planned(-1), outcome: "unchanged", changes: [] });
    const run: RunSyncResult = {
      dryRun: true,
      historyId: null,
      results: [],
      status: "completed",
      error: null,
      counts: { ...tally.counts },
      summary: tally.summary(),
    };

    const result = syncJobResult(run);

    expect(result).toMatchObject({ total: DRY_RUN_CHANGES_LIMIT + 6, planned: DRY_RUN_CHANGES_LIMIT + 5 });
    expect(result.changes).toHaveLength(DRY_RUN_CHANGES_LIMIT);
    expect(result.changes[0]?.mappingId).toBe("m-0");
    expect(result.truncated).toBe(true);
  });
});
