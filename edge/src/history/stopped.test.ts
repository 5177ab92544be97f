import type { ExecutionHistorySummary, ScheduleInput } from "@stockbridge/shared";
import { afterEach, describe, expect, it } from "vitest";
import { type ConnectedApp, createConnectedApp } from "../../testing/connectors-harness.ts";
import { pollUntil } from "../../testing/deno-harness.ts";
import { lookupAll, testPinnedFetch } from "../../testing/helpers.ts";
import { createApp } from "../app.ts";
import { RUN_STOPPED } from "./run-lease.ts";

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

async function mappingCount(app: ConnectedApp): Promise<number> {
  const rows = await app.db.execute({
    sql: "SELECT COUNT(*) AS mapped FROM mappings WHERE user_id = ?",
    args: [app.user.user._id],
  });
  return Number(rows.rows[0]?.mapped);
}

describe("a run whose instance stopped renewing its lease", () => {
  it("is resumed by another instance's tick after its lease and ends once, in the same entry", async () => {
    const { a, b } = await twoInstances();
    const mapped = await mappingCount(a);
    const { job } = await a.api.call("syncMappings", {
      body: { syncOptions: { price: true, quantity: false } },
    });
    const open = await openEntry(a);

    a.clock.advance(PAST_THE_LEASE);
    a.acumatica.configure({ latencyMs: 0 });
    // B's tick claims the job (A's lease ran out) and runs it to the end, continuing A's entry.
    await b.tick();

    expect(await a.api.call("job", { params: { id: job._id } })).toMatchObject({
      status: "succeeded",
      result: { historyId: open._id, success: mapped, failure: 0 },
    });
    expect(await entry(a, open._id)).toMatchObject({
      status: "completed",
      successCount: mapped,
      failureCount: 0,
      failedMappings: [],
    });
    // A, back from its stalled call, finds the job taken over and leaves it and its entry alone.
    const attempts = await a.db.execute({ sql: "SELECT attempts FROM jobs WHERE id = ?", args: [job._id] });
    expect(Number(attempts.rows[0]?.attempts)).toBe(2);
    await pollUntil(
      async () => Number(a.acumatica.state().running),
      (running) => running === 0,
      "A's call",
    );
    const { histories } = await a.api.call("executionHistory");
    expect(histories.filter((candidate) => candidate.status !== "completed")).toEqual([]);
    expect(histories).toHaveLength(1);
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

  it("resumes a scheduled run on another instance once its lease runs out; the schedule is not run twice", async () => {
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
    a.acumatica.configure({ latencyMs: 0 });
    // Nothing is due (the schedule moved on when its run was queued); the queued run is resumed.
    expect(await b.tick()).toEqual({ ran: [], interrupted: [], skipped: [] });

    expect(await entry(a, open._id)).toMatchObject({
      trigger: "schedule",
      status: "completed",
      schedule: { name: "Quarter-hourly prices" },
      successCount: await mappingCount(a),
      failedMappings: [],
    });
    await ticking;
    const { histories } = await a.api.call("executionHistory");
    expect(histories).toHaveLength(1);
  });
});
