import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Client, createClient } from "@libsql/client";
import type { ScheduleInput } from "@stockbridge/shared";
import { afterEach, describe, expect, it } from "vitest";
import { type DenoWorld, pollUntil, startDenoWorld, waitFor } from "../../testing/deno-harness.ts";

let world: DenoWorld | undefined;
let db: Client | undefined;
afterEach(async () => {
  db?.close();
  db = undefined;
  await world?.close();
  world = undefined;
});

/** The database both edges share, read from outside as an operator would. */
function sharedDatabase(current: DenoWorld): Client {
  db = createClient({ url: `file:${join(current.dataDir, "stockbridge.db")}` });
  return db;
}

const LEASE_SECONDS = 5;

/** A daily full price sync: what every schedule of these tests is (they are made due by hand). */
function nightly(name: string): ScheduleInput {
  return {
    name,
    schedule: { type: "daily", time: "03:00", day: null, interval: null, minuteInterval: null },
    timezone: "UTC",
    mappingIds: [],
    isFullSync: true,
    syncOptions: { price: true, quantity: false },
    status: "active",
  };
}

describe("a sync job whose instance is killed", () => {
  it("is finished by the other instance from its stored plan: one entry, one outcome, Shopify equal to the ERP", async () => {
    world = await startDenoWorld({
      size: 10_000,
      env: { RUN_LEASE_SECONDS: String(LEASE_SECONDS), JOB_POLL_SECONDS: "1" },
    });
    const [a, b] = [await world.startEdge(), await world.startEdge()];
    const { token } = await world.readyUser(a, { plan: "Scale" });
    const database = sharedDatabase(world);
    const mapped = Number((await database.execute("SELECT COUNT(*) AS n FROM mappings")).rows[0]?.n ?? 0);
    expect(mapped).toBeGreaterThan(9_000);
    const before = await b.api(token).call("syncMappings", {
      body: { syncOptions: { price: true, quantity: true }, dryRun: true },
    });
    const plan = await waitFor(b.api(token), before.job);
    // Enough to write that the kill lands among the writes, not after them.
    expect(Number(plan.result?.planned)).toBeGreaterThan(1_000);

    // Shopify answers slowly, so the writes take seconds once the plan is stored.
    await world.faults({ shopify: { latencyMs: 150 } });
    const { job } = await a
      .api(token)
      .call("syncMappings", { body: { syncOptions: { price: true, quantity: true } } });
    await pollUntil(
      () => database.execute({ sql: "SELECT checkpoint_json FROM jobs WHERE id = ?", args: [job._id] }),
      (rows) => String(rows.rows[0]?.checkpoint_json ?? "").includes('"planStored":true'),
      "the plan to be stored (writes begin)",
    );
    await a.kill();
    const killedAt = Date.now();
    await world.faults({ shopify: { latencyMs: 0 } });

    // Nobody reads the job: B's own poll claims it once A's lease has run out.
    const done = await pollUntil(
      () =>
        database.execute({ sql: "SELECT status, owner, attempts FROM jobs WHERE id = ?", args: [job._id] }),
      (rows) => rows.rows[0]?.status === "succeeded" || rows.rows[0]?.status === "failed",
      "the other instance to finish the job",
    );
    const resumeSeconds = (Date.now() - killedAt) / 1000;
    console.log(
      `killed-instance job finished by the other ${resumeSeconds.toFixed(1)} s after the kill (lease ${LEASE_SECONDS} s)`,
    );
    expect(done.rows[0]).toMatchObject({ status: "succeeded", attempts: 2 });

    const api = b.api(token);
    const finished = await api.call("job", { params: { id: job._id } });
    const { histories } = await api.call("executionHistory", { query: { limit: "10" } });
    expect(histories).toHaveLength(1);
    const [entry] = histories;
    expect(entry).toMatchObject({ _id: finished.result?.historyId, status: "completed", failureCount: 0 });
    expect((entry?.successCount ?? 0) + (entry?.skippedCount ?? 0)).toBe(mapped);

    // An independent read of Shopify (a fresh catalog pull, not the engine): every price is the ERP's.
    const pulled = await waitFor(api, (await api.call("syncShopifyProducts")).job);
    expect(pulled.status).toBe("succeeded");
    const differing = await database.execute(`
      SELECT COUNT(*) AS n FROM mappings m
      JOIN shopify_products s ON s.user_id = m.user_id AND s.variant_id = m.shopify_variant_id
      JOIN acumatica_products e ON e.user_id = m.user_id AND e.acumatica_id = m.acumatica_id
      WHERE s.price_cents <> e.default_price_cents`);
    expect(Number(differing.rows[0]?.n)).toBe(0);
    // And the engine's own plan agrees for quantities too: nothing is left to write.
    const after = await waitFor(
      api,
      (
        await api.call("syncMappings", {
          body: { syncOptions: { price: true, quantity: true }, dryRun: true },
        })
      ).job,
    );
    expect(after.result).toMatchObject({ planned: 0 });
  }, 300_000);
});

describe("schedules due in the same minute on two instances", () => {
  it("run exactly once each, as jobs both instances take", async () => {
    world = await startDenoWorld({
      size: 12,
      // Two runs at a time per instance keeps 200 runs and two edges on one local database file
      // within a 2-core machine shared with the rest of the suite.
      env: { TICK_SECONDS: "5", JOB_POLL_SECONDS: "1", JOB_CONCURRENCY: "2" },
    });
    const [a, b] = [await world.startEdge(), await world.startEdge()];
    // Ten merchants, one simulated ERP: its licence is sized for ten (each would have their own).
    await world.faults({ acumatica: { seats: 40, maxConcurrent: 0, requestsPerMinute: 0 } });
    const users = 10;
    const perUser = 20;
    for (let index = 0; index < users; index += 1) {
      const { api } = await world.readyUser(index % 2 === 0 ? a : b);
      for (let n = 0; n < perUser; n += 1) {
        await api.call("createSchedule", { body: nightly(`Nightly ${n + 1}`) });
      }
    }
    const database = sharedDatabase(world);
    // Every schedule falls due at the same moment.
    const due = new Date(Date.now() - 60_000).toISOString();
    const moved = await database.execute({ sql: "UPDATE schedules SET next_run = ?", args: [due] });
    expect(moved.rowsAffected).toBe(users * perUser);

    const runs = await pollUntil(
      () =>
        database.execute(
          "SELECT schedule_id, COUNT(*) AS runs, SUM(status = 'completed') AS completed FROM execution_history WHERE trigger = 'schedule' GROUP BY schedule_id",
        ),
      (rows) => rows.rows.length === users * perUser && rows.rows.every((row) => Number(row.completed) === 1),
      "every schedule's run to complete",
      // 200 runs through one simulated ERP licence: minutes on a busy machine, not seconds.
      420_000,
    );
    expect(runs.rows.every((row) => Number(row.runs) === 1)).toBe(true);
    const owners = await database.execute(
      "SELECT owner, COUNT(*) AS jobs FROM jobs WHERE schedule_id IS NOT NULL GROUP BY owner",
    );
    const perInstance = owners.rows.map((row) => Number(row.jobs));
    console.log(`scheduled runs per instance: ${perInstance.join(" + ")}`);
    expect(perInstance).toHaveLength(2);
    expect(perInstance.reduce((sum, count) => sum + count, 0)).toBe(users * perUser);
    // Nothing is due again before tomorrow: no schedule runs twice.
    const next = await database.execute({
      sql: "SELECT COUNT(*) AS n FROM schedules WHERE next_run <= ?",
      args: [new Date().toISOString()],
    });
    expect(Number(next.rows[0]?.n)).toBe(0);
  }, 540_000);
});

describe("a schedule's run announced on the platform queue (JOB_QUEUE=deno-kv)", () => {
  it("is delivered and run at once, though neither the tick nor the poll would run it for minutes", async () => {
    const queueDir = mkdtempSync(join(tmpdir(), "stockbridge-queue-"));
    try {
      world = await startDenoWorld({
        env: {
          JOB_QUEUE: "deno-kv",
          DENO_KV_PATH: join(queueDir, "jobs.kv"),
          TICK_SECONDS: "1",
          // The poll stays out of the way: only the queue's delivery can run the job in time.
          JOB_POLL_SECONDS: "300",
        },
      });
      const edge = await world.startEdge();
      const { api } = await world.readyUser(edge);
      await api.call("createSchedule", { body: nightly("Nightly") });
      const database = sharedDatabase(world);
      await database.execute({
        sql: "UPDATE schedules SET next_run = ?",
        args: [new Date(Date.now() - 60_000).toISOString()],
      });

      // The job ends after its run's entry does: wait for the job, then read both.
      const jobs = await pollUntil(
        () => database.execute("SELECT status, attempts FROM jobs WHERE schedule_id IS NOT NULL"),
        (rows) => rows.rows[0]?.status === "succeeded",
        "the scheduled run's job to succeed",
      );
      expect(jobs.rows.map((row) => [row.status, Number(row.attempts)])).toEqual([["succeeded", 1]]);
      const runs = await database.execute("SELECT status FROM execution_history WHERE trigger = 'schedule'");
      expect(runs.rows.map((row) => row.status)).toEqual(["completed"]);
    } finally {
      rmSync(queueDir, { recursive: true, force: true });
    }
  }, 120_000);
});
