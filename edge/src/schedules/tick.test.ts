import type { ScheduleInput } from "@stockbridge/shared";
import { afterEach, describe, expect, it } from "vitest";
import { type ConnectedApp, createConnectedApp } from "../../testing/connectors-harness.ts";
import { createTestApp, grantSubscription, type TestApp } from "../../testing/helpers.ts";
import { insertItem, insertVariant, registerSubscriber } from "../../testing/mapping-fixtures.ts";
import { createHistoryRepo } from "../history/repo.ts";
import { RUN_STOPPED } from "../history/run-lease.ts";

let connected: ConnectedApp | undefined;
afterEach(async () => {
  await connected?.close();
  connected = undefined;
});

const FIFTEEN_MINUTES = 15 * 60_000;

/** Every 15 minutes, full sync of prices: due at 10:15 on the test clock (which starts at 10:00). */
function everyQuarter(overrides: Partial<ScheduleInput> = {}): ScheduleInput {
  return {
    name: "Quarter-hourly prices",
    schedule: { type: "minutely", minuteInterval: 15, time: null, day: null, interval: null },
    timezone: "UTC",
    mappingIds: [],
    isFullSync: true,
    syncOptions: { price: true, quantity: false },
    status: "active",
    ...overrides,
  };
}

/** Both demo catalogs pulled and auto-mapped against the sandbox: a schedule has real work to do. */
async function mappedApp() {
  connected = await createConnectedApp({ size: 20 });
  await connected.connectShopify();
  await connected.connectAcumatica();
  for (const name of ["syncShopifyProducts", "syncAcumaticaProducts", "autoMap"] as const) {
    const { job } = await connected.api.call(name);
    expect((await connected.waitForJob(job._id)).status).toBe("succeeded");
  }
  await connected.api.call("savePriceMapping", { body: { syncPrice: true, syncMsrp: false } });
  return connected;
}

async function historyOf(app: TestApp, token: string) {
  return app.client(token).call("executionHistory");
}

describe("runDueSchedules", () => {
  it("runs a due schedule once, records it under the schedule's name and moves it on", async () => {
    const app = await mappedApp();
    const schedule = await app.api.call("createSchedule", { body: everyQuarter() });

    expect(await app.app.tick()).toEqual({ ran: [], interrupted: [], skipped: [] });
    app.clock.advance(FIFTEEN_MINUTES);
    const report = await app.app.tick();
    const again = await app.app.tick();

    expect(report.ran).toEqual([schedule._id]);
    expect(again.ran).toEqual([]);
    const history = await historyOf(app, app.user.token);
    expect(history.total).toBe(1);
    expect(history.histories[0]).toMatchObject({
      trigger: "schedule",
      status: "completed",
      schedule: { _id: schedule._id, name: "Quarter-hourly prices" },
      startDate: "2026-11-21T10:15:00.000Z",
    });
    expect(history.histories[0]!.successCount).toBeGreaterThan(0);
    expect((await app.api.call("listSchedules")).schedules[0]).toMatchObject({
      lastRun: "2026-11-21T10:15:00.000Z",
      nextRun: "2026-11-21T10:30:00.000Z",
    });
  });

  it("runs a schedule once when two instances tick at the same time", async () => {
    const app = await mappedApp();
    const schedule = await app.api.call("createSchedule", { body: everyQuarter() });
    app.clock.advance(FIFTEEN_MINUTES);

    const reports = await Promise.all([app.app.tick(), app.app.tick(), app.app.runDueSchedules()]);

    expect(reports.flatMap((report) => report.ran)).toEqual([schedule._id]);
    expect((await historyOf(app, app.user.token)).total).toBe(1);
  });

  it("does not replay runs missed while the server was down", async () => {
    const app = await createTestApp();
    const { api, token } = await registerSubscriber(app);
    await api.call("createSchedule", { body: everyQuarter() });

    app.clock.advance(50 * 60_000);
    expect((await app.app.tick()).ran).toHaveLength(1);
    expect((await app.app.tick()).ran).toHaveLength(0);

    expect((await historyOf(app, token)).total).toBe(1);
    expect((await api.call("listSchedules")).schedules[0]?.nextRun).toBe("2026-11-21T11:00:00.000Z");
  });

  it("never runs an inactive schedule", async () => {
    const app = await createTestApp();
    const { api, token } = await registerSubscriber(app);
    const schedule = await api.call("createSchedule", { body: everyQuarter({ status: "inactive" }) });
    expect(schedule.nextRun).toBeNull();

    for (let quarter = 0; quarter < 3; quarter += 1) {
      app.clock.advance(FIFTEEN_MINUTES);
      expect((await app.app.tick()).ran).toEqual([]);
    }
    expect((await historyOf(app, token)).total).toBe(0);
  });
});

describe("a schedule of a user without a subscription", () => {
  it("does not run, and moves on to its next time", async () => {
    const app = await createTestApp();
    const { api, token, userId } = await registerSubscriber(app);
    const schedule = await api.call("createSchedule", { body: everyQuarter() });
    await grantSubscription(app.db, userId, "canceled");

    app.clock.advance(FIFTEEN_MINUTES);
    expect(await app.app.tick()).toEqual({ ran: [], interrupted: [], skipped: [schedule._id] });

    await grantSubscription(app.db, userId, "active");
    expect((await historyOf(app, token)).total).toBe(0);
    expect((await api.call("listSchedules")).schedules[0]).toMatchObject({
      lastRun: null,
      nextRun: "2026-11-21T10:30:00.000Z",
    });
  });
});

describe("a scheduled run whose process stopped", () => {
  /** What a process that died mid-run leaves: the claim with its lease, and the engine's open entry. */
  async function crashedRun(app: TestApp, userId: string, scheduleId: string, openEntry: boolean) {
    const startedAt = app.clock.now().toISOString();
    await app.db.execute({
      sql: `UPDATE schedules SET lease_owner = 'dead-instance', lease_until = ?, running_since = ? WHERE id = ?`,
      args: [new Date(app.clock.now().getTime() + 5 * 60_000).toISOString(), startedAt, scheduleId],
    });
    if (openEntry) {
      await createHistoryRepo(app.db).start({
        id: crypto.randomUUID(),
        userId,
        trigger: "schedule",
        scheduleId,
        scheduleName: "Quarter-hourly prices",
        startDate: startedAt,
        leaseUntil: new Date(app.clock.now().getTime() + 60_000).toISOString(),
        scope: "all",
        syncOptions: { price: true, quantity: false },
      });
    }
  }

  it("is marked failed once its lease expires, and the schedule moves on", async () => {
    const app = await createTestApp();
    const { api, token, userId } = await registerSubscriber(app);
    const schedule = await api.call("createSchedule", { body: everyQuarter() });
    app.clock.advance(FIFTEEN_MINUTES);
    await crashedRun(app, userId, schedule._id, true);

    // Still leased: nobody touches it.
    app.clock.advance(60_000);
    expect(await app.app.tick()).toEqual({ ran: [], interrupted: [], skipped: [] });

    app.clock.advance(5 * 60_000);
    expect(await app.app.tick()).toEqual({ ran: [], interrupted: [schedule._id], skipped: [] });
    expect(await app.app.tick()).toEqual({ ran: [], interrupted: [], skipped: [] });

    const history = await historyOf(app, token);
    expect(history.total).toBe(1);
    expect(history.histories[0]).toMatchObject({
      status: "failed",
      error: RUN_STOPPED,
      startDate: "2026-11-21T10:15:00.000Z",
      endDate: "2026-11-21T10:21:00.000Z",
      schedule: { _id: schedule._id, name: "Quarter-hourly prices" },
    });
    expect((await api.call("listSchedules")).schedules[0]).toMatchObject({
      lastRun: "2026-11-21T10:15:00.000Z",
      nextRun: "2026-11-21T10:30:00.000Z",
    });

    app.clock.advance(9 * 60_000);
    expect((await app.app.tick()).ran).toEqual([schedule._id]);
  });

  it("gets a failed history entry even when it stopped before the run opened one", async () => {
    const app = await createTestApp();
    const { api, token, userId } = await registerSubscriber(app);
    const schedule = await api.call("createSchedule", { body: everyQuarter() });
    app.clock.advance(FIFTEEN_MINUTES);
    await crashedRun(app, userId, schedule._id, false);
    await api.call("setScheduleStatus", { params: { id: schedule._id }, body: { status: "inactive" } });

    app.clock.advance(6 * 60_000);
    expect(await app.app.tick()).toEqual({ ran: [], interrupted: [schedule._id], skipped: [] });

    const history = await historyOf(app, token);
    expect(history.histories).toEqual([
      expect.objectContaining({ status: "failed", error: RUN_STOPPED, trigger: "schedule" }),
    ]);
    expect((await api.call("listSchedules")).schedules[0]).toMatchObject({
      status: "inactive",
      nextRun: null,
    });
  });

  it("lists each mapping the schedule covers when it stopped before the run opened an entry", async () => {
    const app = await createTestApp();
    const { api, token, userId } = await registerSubscriber(app);
    const mappings = [];
    for (let index = 0; index < 3; index += 1) {
      const variant = await insertVariant(app.db, userId);
      const item = await insertItem(app.db, userId);
      mappings.push(
        await api.call("manualMap", {
          body: { shopifyVariantId: variant.variantId, acumaticaProductId: item.acumaticaId },
        }),
      );
      app.clock.advance(1_000);
    }
    const covered = [mappings[2]!, mappings[0]!];
    const schedule = await api.call("createSchedule", {
      body: everyQuarter({ isFullSync: false, mappingIds: covered.map((mapping) => mapping._id) }),
    });
    app.clock.advance(FIFTEEN_MINUTES);
    await crashedRun(app, userId, schedule._id, false);

    app.clock.advance(6 * 60_000);
    expect(await app.app.tick()).toEqual({ ran: [], interrupted: [schedule._id], skipped: [] });

    const [entry] = (await historyOf(app, token)).histories;
    expect(entry).toMatchObject({ status: "failed", error: RUN_STOPPED, successCount: 0, failureCount: 2 });
    expect(entry!.failedMappings).toEqual(
      [mappings[0]!, mappings[2]!].map((mapping) => ({
        mappingId: mapping._id,
        shopifySku: mapping.shopifyDetails.sku,
        acumaticaSku: mapping.acumaticaDetails.sku,
        error: RUN_STOPPED,
      })),
    );
  });
});
