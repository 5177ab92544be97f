import type { ExecutionHistorySummary, ScheduleInput } from "@stockbridge/shared";
import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../src/app.ts";
import { RUN_STOPPED } from "../src/history/run-lease.ts";
import { SERVER_STOPPED } from "../src/jobs/runner.ts";
import { type ConnectedApp, createConnectedApp } from "./connectors-harness.ts";
import { lookupAll, testPinnedFetch } from "./helpers.ts";

let connected: ConnectedApp | undefined;
afterEach(async () => {
  await connected?.close();
  connected = undefined;
});

/** Past the default lease of a job and of a history entry (60 s), short of a schedule's claim (5 min). */
const PAST_THE_LEASE = 61_000;

/**
 * Instance A, whose runs get stuck in a slow Acumatica (3 s a call, real time, until the test has
 * seen what it needs), and instance B on the same database and clock: B stands for every other
 * instance, A for one that stopped heartbeating.
 */
async function twoInstances() {
  connected = await createConnectedApp({ size: 20 });
  const a = connected;
  await a.connectShopify();
  await a.connectAcumatica();
  for (const name of ["syncShopifyProducts", "syncAcumaticaProducts", "autoMap"] as const) {
    const { job } = await a.api.call(name);
    expect((await a.waitForJob(job._id)).status).toBe("succeeded");
  }
  await a.api.call("savePriceMapping", { body: { syncPrice: true, syncMsrp: false } });
  const b = createApp({
    config: a.config,
    db: a.db,
    now: a.clock.now,
    log: () => {},
    resolveHost: lookupAll,
    fetch: testPinnedFetch,
  });
  const { mappings } = await a.api.call("mappingHistory");
  a.acumatica.configure({ latencyMs: 3_000 });
  return { a, b, mappings };
}

/** Reads until an entry is open and its run is inside the slow Acumatica call (the sandbox holds it). */
async function openEntry(app: ConnectedApp): Promise<ExecutionHistorySummary> {
  for (;;) {
    const { histories } = await app.api.call("executionHistory");
    const open = histories.find((entry) => entry.status === "running");
    if (open && Number(app.acumatica.state().running) > 0) return open;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function entry(app: ConnectedApp, id: string) {
  return (await app.api.call("executionHistory")).histories.find((candidate) => candidate._id === id);
}

/** Every mapping of the user as a failed item with `error`, in a run's order (oldest mapping first). */
async function everyMappingFailed(app: ConnectedApp, error: string) {
  const rows = await app.db.execute({
    sql: "SELECT id, shopify_sku, acumatica_sku FROM mappings WHERE user_id = ? ORDER BY created_at, id",
    args: [app.user.user._id],
  });
  expect(rows.rows.length).toBeGreaterThan(1);
  return rows.rows.map((row) => ({
    mappingId: String(row.id),
    shopifySku: String(row.shopify_sku),
    acumaticaSku: String(row.acumatica_sku),
    error,
  }));
}

describe("a run whose instance stopped renewing its lease", () => {
  it("ends with its job when another instance's tick fails the job after its lease", async () => {
    const { a, b } = await twoInstances();
    const { job } = await a.api.call("syncMappings", {
      body: { syncOptions: { price: true, quantity: false } },
    });
    const open = await openEntry(a);

    a.clock.advance(PAST_THE_LEASE);
    await b.tick();
    a.acumatica.configure({ latencyMs: 0 });

    expect(await a.api.call("job", { params: { id: job._id } })).toMatchObject({
      status: "failed",
      message: SERVER_STOPPED,
    });
    const failed = await everyMappingFailed(a, RUN_STOPPED);
    expect(await entry(a, open._id)).toMatchObject({
      status: "failed",
      error: RUN_STOPPED,
      endDate: a.clock.now().toISOString(),
      successCount: 0,
      failureCount: failed.length,
      failedMappings: failed,
    });
  });

  it("ends a single-mapping sync's entry (a run without a job) on another instance's tick", async () => {
    const { a, b, mappings } = await twoInstances();
    const answer = a.request(`/api/mapping/${mappings[0]!._id}/sync`, {
      token: a.user.token,
      body: { syncOptions: { price: true, quantity: false } },
    });
    const open = await openEntry(a);

    a.clock.advance(PAST_THE_LEASE);
    await b.tick();
    a.acumatica.configure({ latencyMs: 0 });

    expect(await entry(a, open._id)).toMatchObject({
      status: "failed",
      error: RUN_STOPPED,
      failureCount: 1,
      failedMappings: [
        {
          mappingId: mappings[0]!._id,
          shopifySku: mappings[0]!.shopifyDetails.sku,
          acumaticaSku: mappings[0]!.acumaticaDetails.sku,
          error: RUN_STOPPED,
        },
      ],
    });
    expect((await answer).status).toBe(200);
    // The run went on in its instance and ended after all: its own outcome replaces the sweep's.
    expect(await entry(a, open._id)).toMatchObject({
      status: "completed",
      failureCount: 0,
      failedMappings: [],
    });
  });

  it("ends a scheduled run's entry once its lease runs out, before the schedule's own claim does", async () => {
    const { a, b } = await twoInstances();
    const schedule: ScheduleInput = {
      name: "Quarter-hourly prices",
      schedule: { type: "minutely", minuteInterval: 15, time: null, day: null, interval: null },
      timezone: "UTC",
      mappingIds: [],
      isFullSync: true,
      syncOptions: { price: true, quantity: false },
      status: "active",
    };
    await a.api.call("createSchedule", { body: schedule });
    a.clock.advance(15 * 60_000);
    const ticking = a.app.tick();
    const open = await openEntry(a);

    a.clock.advance(PAST_THE_LEASE);
    expect(await b.tick()).toEqual({ ran: [], interrupted: [], skipped: [] });
    a.acumatica.configure({ latencyMs: 0 });

    expect(await entry(a, open._id)).toMatchObject({
      trigger: "schedule",
      status: "failed",
      error: RUN_STOPPED,
      schedule: { name: "Quarter-hourly prices" },
      failedMappings: await everyMappingFailed(a, RUN_STOPPED),
    });
    await ticking;
  });
});
