import {
  changedSinceHeld,
  ERP_RETURNED_NOTHING,
  formatMoney,
  MESSAGES,
  notHeldForReview,
  type SyncJobResult,
  type SyncMappingsInputSchema,
} from "@stockbridge/shared";
import type * as v from "valibot";
import { afterEach, describe, expect, it } from "vitest";
import { failure } from "../../testing/helpers.ts";
import { registerSubscriber } from "../../testing/mapping-fixtures.ts";
import {
  erpTotals,
  plainPairs,
  type SyncWorld,
  setErpQuantity,
  setShopifyAvailable,
  setShopifyPrice,
  startSyncWorld,
} from "../../testing/sync-harness.ts";
import { MAPPING_GONE } from "./held-outcomes.ts";
import { SYNC_BUSY } from "./sync-job.ts";

let world: SyncWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const ALL = { price: true, quantity: true };
const PRICE = { price: true, quantity: false };
const QUANTITY = { price: false, quantity: true };
const LOCATION = "gid://shopify/Location/70001";

/** The sandbox world, connected through the app's own connection routes, prices synced. */
async function open() {
  world = await startSyncWorld();
  await world.connect();
  await world.setSettings({ syncPrice: true });
  return world;
}

async function syncJob(w: SyncWorld, body: v.InferInput<typeof SyncMappingsInputSchema>) {
  const { job } = await w.api.call("syncMappings", { body });
  const done = await w.finishedJob(job);
  expect(done.status).toBe("succeeded");
  return { job: done, result: done.result as SyncJobResult };
}

/**
 * Three mapped pairs, the first one's Shopify price set to half its ERP price: a sync would double
 * it (100 %, over the default 50 % limit). Answers the pairs and Shopify's values before any sync.
 */
async function priceJump(w: SyncWorld) {
  const candidates = plainPairs(w, 20);
  const jumping = candidates.find((pair) => pair.item.defaultPriceCents % 2 === 0)!;
  const others = candidates.filter((pair) => pair !== jumping).slice(0, 2);
  const mapped = await w.map([jumping, ...others]);
  await setShopifyPrice(w, mapped[0]!, mapped[0]!.item.defaultPriceCents / 2);
  const before = await Promise.all(mapped.map((pair) => w.shopifyVariant(pair.variant.id)));
  return { mapped, before };
}

async function entry(w: SyncWorld, id: string) {
  return w.api.call("executionHistoryEntry", { params: { id } });
}

async function wholePlan(w: SyncWorld, id: string) {
  return w.api.call("executionPlan", { params: { id }, query: { page: "1", limit: "100" } });
}

describe("safety limits hold a run before any write", () => {
  it("holds a full sync whose price would move past the limit, writes nothing and names the SKU and the change", async () => {
    const w = await open();
    const { mapped, before } = await priceJump(w);
    const mutations = w.state().shopify.mutations;

    const { job, result } = await syncJob(w, { syncOptions: ALL });

    const reason = `Price of ${mapped[0]!.variant.sku} would change by 100 % (limit 50 %)`;
    expect(result.holdReasons).toEqual([reason]);
    expect(job.message).toBe(
      `Held for review: ${reason}. Nothing was written; approve or discard it in Execution History.`,
    );
    // Nothing reached Shopify: no mutation at all, every value as it was.
    expect(w.state().shopify.mutations).toBe(mutations);
    expect(await Promise.all(mapped.map((pair) => w.shopifyVariant(pair.variant.id)))).toEqual(before);

    const held = await entry(w, result.historyId!);
    expect(held).toMatchObject({
      status: "held",
      trigger: "manual",
      endDate: expect.any(String),
      review: { reasons: [reason], heldAt: held.endDate, decision: null, decidedAt: null },
    });
    const plan = await wholePlan(w, held._id);
    expect(plan.total).toBe(held.review!.changes);
    expect(plan.changes).toContainEqual({
      mappingId: mapped[0]!.mappingId,
      shopifySku: mapped[0]!.variant.sku,
      acumaticaSku: mapped[0]!.item.inventoryId,
      field: "price",
      location: null,
      from: mapped[0]!.item.defaultPriceCents / 200,
      to: mapped[0]!.item.defaultPriceCents / 100,
      result: null,
      note: null,
    });
    // Quantities carry the location's name, as Shopify calls it.
    const quantities = plan.changes.filter((change) => change.field === "quantity");
    expect(quantities.length).toBeGreaterThan(0);
    for (const change of quantities) {
      const pair = mapped.find((candidate) => candidate.mappingId === change.mappingId)!;
      expect(change).toMatchObject({
        location: "Main Warehouse",
        from: before[mapped.indexOf(pair)]!.available,
        to: erpTotals(pair.item).available,
      });
    }
  });

  it("holds a sync of named mappings that would set more than the limit of quantities to 0", async () => {
    const w = await open();
    const pairs = plainPairs(w, 20)
      .filter((pair) => pair.variant.levels[0]!.available > 0)
      .slice(0, 4);
    const mapped = await w.map(pairs);
    await setErpQuantity(w, mapped[0]!.item, 0);
    const mutations = w.state().shopify.mutations;

    const { result } = await syncJob(w, {
      mappingIds: mapped.map((pair) => pair.mappingId),
      syncOptions: QUANTITY,
    });

    expect(result.holdReasons).toEqual(["25 % of quantities would be set to 0 (limit 20 %)"]);
    expect(w.state().shopify.mutations).toBe(mutations);
    expect((await w.shopifyVariant(mapped[0]!.variant.id)).available).toBe(
      pairs[0]!.variant.levels[0]!.available,
    );
    expect((await entry(w, result.historyId!)).status).toBe("held");
  });

  it("holds a run when Acumatica answers no item at all for its mappings", async () => {
    const w = await open();
    const mapped = await w.map(plainPairs(w, 3));
    // The mappings point at items the ERP does not have (a wrong company, a wiped catalog).
    await w.app.db.execute({
      sql: "UPDATE mappings SET acumatica_id = 'gone-' || id, acumatica_sku = 'GONE-' || substr(id, 1, 8) WHERE user_id = ?",
      args: [w.userId],
    });
    const mutations = w.state().shopify.mutations;

    const { result } = await syncJob(w, { syncOptions: ALL });

    expect(result.holdReasons).toEqual([ERP_RETURNED_NOTHING]);
    expect(ERP_RETURNED_NOTHING).toBe("Acumatica returned no items");
    expect(w.state().shopify.mutations).toBe(mutations);
    const held = await entry(w, result.historyId!);
    expect(held).toMatchObject({ status: "held", skippedCount: mapped.length, review: { changes: 0 } });

    // Approving an empty plan writes nothing and ends the run with its skips.
    const { job } = await w.api.call("approveExecution", { params: { id: held._id } });
    expect((await w.finishedJob(job)).status).toBe("succeeded");
    expect(w.state().shopify.mutations).toBe(mutations);
    expect(await entry(w, held._id)).toMatchObject({ status: "completed", skippedCount: mapped.length });
  });

  it("writes as before when both limits are 0 (off)", async () => {
    const w = await open();
    const { mapped } = await priceJump(w);
    await setErpQuantity(w, mapped[1]!.item, 0);
    await setShopifyAvailable(w, mapped[1]!, 9);
    await w.api.call("saveSafetyLimits", { body: { maxPriceChangePercent: 0, maxZeroedPercent: 0 } });

    const { result } = await syncJob(w, { syncOptions: ALL });

    expect(result.holdReasons).toEqual([]);
    expect((await entry(w, result.historyId!)).status).toBe("completed");
    expect(await w.shopifyVariant(mapped[0]!.variant.id)).toMatchObject({
      priceCents: mapped[0]!.item.defaultPriceCents,
    });
    expect((await w.shopifyVariant(mapped[1]!.variant.id)).available).toBe(0);
  });

  it("holds a scheduled run too", async () => {
    const w = await open();
    const { mapped, before } = await priceJump(w);
    const schedule = await w.api.call("createSchedule", {
      body: {
        name: "Nightly prices",
        schedule: { type: "minutely", minuteInterval: 15, time: null, day: null, interval: null },
        timezone: "UTC",
        mappingIds: [],
        isFullSync: true,
        syncOptions: PRICE,
        status: "active",
      },
    });

    w.app.clock.advance(15 * 60_000);
    expect((await w.app.app.runDueSchedules()).ran).toEqual([schedule._id]);

    const { histories } = await w.api.call("executionHistory");
    expect(histories[0]).toMatchObject({
      trigger: "schedule",
      status: "held",
      schedule: { name: "Nightly prices" },
      review: { reasons: [`Price of ${mapped[0]!.variant.sku} would change by 100 % (limit 50 %)`] },
    });
    expect(await w.shopifyVariant(mapped[0]!.variant.id)).toEqual(before[0]);
  });

  it("never holds a one-mapping sync from the Mapping screen: its user is watching the answer", async () => {
    const w = await open();
    const { mapped } = await priceJump(w);

    const run = await w.api.call("syncMapping", {
      params: { id: mapped[0]!.mappingId },
      body: { syncOptions: PRICE },
    });

    expect(run.results[0]).toMatchObject({ outcome: "succeeded" });
    expect((await entry(w, run.historyId!)).status).toBe("completed");
    expect((await w.shopifyVariant(mapped[0]!.variant.id)).priceCents).toBe(
      mapped[0]!.item.defaultPriceCents,
    );
  });

  it("says on a dry run what would be held, and holds and writes nothing", async () => {
    const w = await open();
    const { mapped } = await priceJump(w);
    const mutations = w.state().shopify.mutations;

    const { job, result } = await syncJob(w, { syncOptions: PRICE, dryRun: true });

    const reason = `Price of ${mapped[0]!.variant.sku} would change by 100 % (limit 50 %)`;
    expect(result).toMatchObject({ dryRun: true, historyId: null, holdReasons: [reason] });
    expect(job.message).toContain(`A real run would be held for review: ${reason}`);
    expect(w.state().shopify.mutations).toBe(mutations);
    expect((await w.api.call("executionHistory")).total).toBe(0);
  });
});

describe("approving a held run", () => {
  it("writes exactly the held plan, even if the ERP moved since, and ends the same entry with the run's counts", async () => {
    const w = await open();
    const { mapped } = await priceJump(w);
    const { result } = await syncJob(w, { syncOptions: ALL });
    const plan = await wholePlan(w, result.historyId!);
    // The ERP changes after the hold: approving applies what was reviewed, not a new plan.
    await setErpQuantity(w, mapped[1]!.item, 77);

    const { job } = await w.api.call("approveExecution", { params: { id: result.historyId! } });
    const done = await w.finishedJob(job);

    expect(done).toMatchObject({ status: "succeeded", message: MESSAGES.mapping.synchronized });
    // The plan has the price jump and the quantities: an empty one would make the checks below pass.
    expect(plan.changes.map((change) => change.field)).toEqual(expect.arrayContaining(["price", "quantity"]));
    for (const change of plan.changes) {
      const pair = mapped.find((candidate) => candidate.mappingId === change.mappingId)!;
      const now = await w.shopifyVariant(pair.variant.id);
      if (change.field === "price") expect(now.priceCents / 100).toBe(change.to);
      if (change.field === "quantity") expect(now.available).toBe(change.to);
    }
    expect((await w.shopifyVariant(mapped[1]!.variant.id)).available).not.toBe(77);
    const approved = await entry(w, result.historyId!);
    expect(approved).toMatchObject({
      status: "completed",
      successCount: 3,
      failureCount: 0,
      failedMappings: [],
      review: { decision: "approved", decidedAt: expect.any(String) },
    });
    expect((await wholePlan(w, approved._id)).changes.map((change) => change.result)).toEqual(
      plan.changes.map(() => "written"),
    );
    // One run, one entry.
    expect((await w.api.call("executionHistory")).total).toBe(1);
  });

  it("keeps the failures found when it held the run once the plan is approved", async () => {
    const w = await open();
    const { mapped } = await priceJump(w);
    // A quantity past Shopify's Int: failed when the run is planned, never part of the plan.
    await setErpQuantity(w, mapped[2]!.item, 3_000_000_000);
    const { result } = await syncJob(w, { syncOptions: ALL });
    const held = await entry(w, result.historyId!);
    expect(held).toMatchObject({ status: "held", failureCount: 1 });
    expect(held.failedMappings.map((failed) => failed.mappingId)).toEqual([mapped[2]!.mappingId]);

    const { job } = await w.api.call("approveExecution", { params: { id: result.historyId! } });
    await w.finishedJob(job);

    const approved = await entry(w, result.historyId!);
    expect(approved).toMatchObject({ status: "partial", failureCount: 1 });
    expect(approved.failedMappings).toEqual(held.failedMappings);
    // Held, then approved and partial: an alert for each end of the one run.
    const { notifications } = await w.api.call("listNotifications");
    expect(
      notifications
        .filter((alert) => alert.historyId === held._id)
        .map((alert) => alert.kind)
        .sort(),
    ).toEqual(["held", "partial"]);
  });

  it("does not overwrite what changed in Shopify since the hold: reports it per item and writes the rest", async () => {
    const w = await open();
    const { mapped, before } = await priceJump(w);
    const { result } = await syncJob(w, { syncOptions: ALL });
    const plan = await wholePlan(w, result.historyId!);
    const repriced = mapped[0]!;
    const recounted = mapped[1]!;
    const quantityChange = plan.changes.find(
      (change) => change.mappingId === recounted.mappingId && change.field === "quantity",
    );
    expect(quantityChange).toBeDefined();
    // Someone edits the store after the hold.
    await setShopifyPrice(w, repriced, 1234);
    await setShopifyAvailable(w, recounted, before[1]!.available! + 5);

    const { job } = await w.api.call("approveExecution", { params: { id: result.historyId! } });
    const done = await w.finishedJob(job);

    expect(await w.shopifyVariant(repriced.variant.id)).toMatchObject({ priceCents: 1234 });
    expect((await w.shopifyVariant(recounted.variant.id)).available).toBe(before[1]!.available! + 5);
    const priceNote = changedSinceHeld({
      field: "price",
      planned: formatMoney(repriced.item.defaultPriceCents / 200),
      now: "12.34",
    });
    const quantityNote = changedSinceHeld({
      field: "quantity",
      planned: String(quantityChange!.from),
      now: String(before[1]!.available! + 5),
    });
    const after = await wholePlan(w, result.historyId!);
    expect(after.changes).toContainEqual(
      expect.objectContaining({
        mappingId: repriced.mappingId,
        field: "price",
        result: "changed",
        note: priceNote,
      }),
    );
    expect(after.changes).toContainEqual(
      expect.objectContaining({
        mappingId: recounted.mappingId,
        field: "quantity",
        result: "changed",
        note: quantityNote,
      }),
    );
    // The third mapping's changes went through.
    const third = mapped[2]!;
    expect(
      after.changes.filter((change) => change.mappingId === third.mappingId).map((c) => c.result),
    ).not.toContain("changed");
    expect((await w.shopifyVariant(third.variant.id)).priceCents).toBe(third.item.defaultPriceCents);
    const approved = await entry(w, result.historyId!);
    expect(approved.status).not.toBe("held");
    expect(approved.failedMappings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          shopifySku: repriced.variant.sku,
          error: expect.stringContaining(priceNote),
        }),
        expect.objectContaining({
          shopifySku: recounted.variant.sku,
          error: expect.stringContaining(quantityNote),
        }),
      ]),
    );
    expect(approved).toMatchObject({ successCount: 1, failureCount: 2 });
    expect(done.message).toBe("2 of 3 mappings failed; see Execution History");
  });

  it("writes nothing for a mapping deleted since the hold, and says so on its changes", async () => {
    const w = await open();
    const { mapped, before } = await priceJump(w);
    const { result } = await syncJob(w, { syncOptions: PRICE });
    const gone = mapped[0]!;
    await w.api.call("deleteMapping", { params: { id: gone.mappingId } });

    const { job } = await w.api.call("approveExecution", { params: { id: result.historyId! } });
    await w.finishedJob(job);

    expect(await w.shopifyVariant(gone.variant.id)).toEqual(before[0]);
    const plan = await wholePlan(w, result.historyId!);
    expect(plan.changes.filter((change) => change.mappingId === gone.mappingId)).toEqual([
      expect.objectContaining({ field: "price", result: "failed", note: MAPPING_GONE }),
    ]);
    expect((await entry(w, result.historyId!)).failedMappings).toEqual([
      expect.objectContaining({ shopifySku: gone.variant.sku, error: MAPPING_GONE }),
    ]);
  });

  it("answers 409 to a second approval and to approving a run that was never held", async () => {
    const w = await open();
    await priceJump(w);
    const { result } = await syncJob(w, { syncOptions: PRICE });

    const { job } = await w.api.call("approveExecution", { params: { id: result.historyId! } });
    const again = await failure(w.api.call("approveExecution", { params: { id: result.historyId! } }));
    await w.finishedJob(job);
    const after = await failure(w.api.call("approveExecution", { params: { id: result.historyId! } }));
    const discard = await failure(w.api.call("discardExecution", { params: { id: result.historyId! } }));

    for (const error of [again, after]) {
      expect(error.status).toBe(409);
      expect(error.message).toBe(notHeldForReview("approve", "approved"));
    }
    expect(discard).toMatchObject({ status: 409, message: notHeldForReview("discard", "approved") });
    expect(notHeldForReview("approve", "approved")).toBe("Cannot approve: this run was already approved");

    await w.api.call("saveSafetyLimits", { body: { maxPriceChangePercent: 0, maxZeroedPercent: 0 } });
    const normal = await syncJob(w, { syncOptions: PRICE });
    const never = await failure(w.api.call("approveExecution", { params: { id: normal.result.historyId! } }));
    expect(never).toMatchObject({
      status: 409,
      message:
        "Cannot approve: only a run held for review can be approved or discarded; this one is completed",
    });
    const noPlan = await failure(w.api.call("executionPlan", { params: { id: normal.result.historyId! } }));
    expect(noPlan.status).toBe(404);
  });

  it("leaves the run held and answers 409 naming the job while a sync is running", async () => {
    const w = await open();
    await priceJump(w);
    const { result } = await syncJob(w, { syncOptions: PRICE });
    // A second sync now waits on a slow ERP: it is running when the approval comes in.
    await w.faults({ acumatica: { latencyMs: 500 } });
    const { job: busy } = await w.api.call("syncMappings", { body: { syncOptions: QUANTITY } });

    const refused = await failure(w.api.call("approveExecution", { params: { id: result.historyId! } }));

    expect(refused).toMatchObject({ status: 409, message: SYNC_BUSY });
    expect(refused.jobId).toBe(busy._id);
    expect(await entry(w, result.historyId!)).toMatchObject({ status: "held", review: { decision: null } });
    await w.finishedJob(busy);
    await w.faults({ acumatica: { latencyMs: 0 } });
    const { job } = await w.api.call("approveExecution", { params: { id: result.historyId! } });
    expect((await w.finishedJob(job)).status).toBe("succeeded");
  });

  it("keeps another user's held run out of reach: 404 for its plan, approve and discard", async () => {
    const w = await open();
    await priceJump(w);
    const { result } = await syncJob(w, { syncOptions: PRICE });
    const stranger = await registerSubscriber(w.app);

    for (const call of [
      stranger.api.call("executionPlan", { params: { id: result.historyId! } }),
      stranger.api.call("approveExecution", { params: { id: result.historyId! } }),
      stranger.api.call("discardExecution", { params: { id: result.historyId! } }),
    ]) {
      const error = await failure(call);
      expect(error).toMatchObject({ status: 404, message: "Execution history entry not found" });
    }
    expect((await entry(w, result.historyId!)).status).toBe("held");
  });
});

describe("discarding a held run", () => {
  it("writes nothing and keeps the entry as discarded, with its reasons and plan as the record", async () => {
    const w = await open();
    const { mapped, before } = await priceJump(w);
    const { result } = await syncJob(w, { syncOptions: ALL });
    const mutations = w.state().shopify.mutations;
    const plan = await wholePlan(w, result.historyId!);

    const discarded = await w.api.call("discardExecution", { params: { id: result.historyId! } });

    expect(discarded).toMatchObject({
      _id: result.historyId,
      status: "discarded",
      review: {
        decision: "discarded",
        decidedAt: expect.any(String),
        reasons: [expect.stringContaining("would change by 100 %")],
      },
    });
    expect(w.state().shopify.mutations).toBe(mutations);
    expect(await Promise.all(mapped.map((pair) => w.shopifyVariant(pair.variant.id)))).toEqual(before);
    expect(await wholePlan(w, result.historyId!)).toEqual(plan);
    const approve = await failure(w.api.call("approveExecution", { params: { id: result.historyId! } }));
    expect(approve).toMatchObject({ status: 409, message: "Cannot approve: this run was already discarded" });
    const again = await failure(w.api.call("discardExecution", { params: { id: result.historyId! } }));
    expect(again).toMatchObject({ status: 409, message: "Cannot discard: this run was already discarded" });
  });
});

describe("held plans", () => {
  it("stores a large plan as rows and answers it a page at a time, in plan order", async () => {
    const w = await open();
    const mapped = await w.map(plainPairs(w, 30));
    // Every price would move past a 1 % limit; quantities add their own rows.
    await w.api.call("saveSafetyLimits", { body: { maxPriceChangePercent: 1, maxZeroedPercent: 20 } });
    for (const pair of mapped) await setShopifyPrice(w, pair, pair.item.defaultPriceCents * 2);
    const { result } = await syncJob(w, { syncOptions: ALL });
    const held = await entry(w, result.historyId!);
    const stored = await w.app.db.execute({
      sql: "SELECT COUNT(*) AS n FROM held_changes WHERE history_id = ?",
      args: [held._id],
    });

    expect(Number(stored.rows[0]?.n)).toBe(held.review!.changes);
    expect(held.review!.reasons).toHaveLength(11);
    expect(held.review!.reasons[10]).toBe(`${mapped.length - 10} more prices would change by more than 1 %`);
    const pages = [];
    for (let page = 1; page <= Math.ceil(held.review!.changes / 7); page += 1)
      pages.push(
        await w.api.call("executionPlan", {
          params: { id: held._id },
          query: { page: String(page), limit: "7" },
        }),
      );
    expect(pages[0]).toMatchObject({ total: held.review!.changes, page: 1, totalPages: pages.length });
    const all = pages.flatMap((page) => page.changes);
    expect(all).toEqual((await wholePlan(w, held._id)).changes);
    // Plan order is the run's order: mappings oldest first (the harness maps them at one instant, so by id).
    expect(all.filter((change) => change.field === "price").map((change) => change.mappingId)).toEqual(
      mapped.map((pair) => pair.mappingId).sort(),
    );
  });
});

describe("quantity writes for an approved plan", () => {
  it("report a compare that went stale as changed and write nothing, instead of retrying from the new value", async () => {
    const w = await open();
    const [pair] = await w.map(plainPairs(w, 1));
    const level = pair!.variant.levels[0]!;
    await setShopifyAvailable(w, pair!, level.available + 3);
    const store = await w.shopifyStore();

    const outcomes = await store.setQuantities(
      [
        {
          mappingId: "one",
          variantId: `gid://shopify/ProductVariant/${pair!.variant.id}`,
          name: "available",
          inventoryItemId: `gid://shopify/InventoryItem/${pair!.variant.inventoryItemId}`,
          locationId: LOCATION,
          from: level.available,
          to: level.available + 10,
        },
      ],
      { runId: "held-run", retryStale: false },
    );

    expect(outcomes.get("one")).toEqual({ kind: "changed", current: level.available + 3 });
    expect((await w.shopifyVariant(pair!.variant.id)).available).toBe(level.available + 3);
  });
});
