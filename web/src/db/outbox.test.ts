import { IDBKeyRange, indexedDB } from "fake-indexeddb";
import { toast } from "sonner";
import { describe, expect, it } from "vitest";
import { createTestApp, grantSubscription, type TestApp } from "../../../edge/testing/helpers.ts";
import { insertItem, insertVariant } from "../../../edge/testing/mapping-fixtures.ts";
import { schedulesQuery } from "../features/schedules/queries.ts";
import { settingsQuery } from "../features/settings/mapping-settings-queries.ts";
import { createMemoryStorage } from "../lib/token-store.ts";
import { createServices, type Services } from "../services.ts";
import { createDatabase } from "./database.ts";
import { isPendingRow } from "./mirror-rows.ts";
import { QUERY_CACHE_KEY } from "./query-persister.ts";

/** The browser app's services against the real edge in-process; `network.online` cuts it off. */
async function signedInApp(edge: TestApp) {
  const network = { online: true };
  const calls: string[] = [];
  // A request held on its way to the edge ("PUT /api/..."): `arrived` when it gets there, sent on `release`.
  const gates = new Map<string, { arrived(): void; released: Promise<void> }>();
  const hold = (call: string) => {
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const arrived = new Promise<void>((resolve) => {
      gates.set(call, { arrived: resolve, released });
    });
    return { arrived, release };
  };
  const database = { name: `outbox-test-${crypto.randomUUID()}`, indexedDB, IDBKeyRange };
  const storage = createMemoryStorage();
  // The app as opened on this device: `reopen()` is the same app started again (a reload).
  const open = (): Services =>
    createServices({
      storage,
      appVersion: "test",
      apiBaseUrl: "http://app.test/api",
      database,
      isOnline: () => network.online,
      fetch,
    });
  // Requests ("POST /api/...") the edge runs but whose answer is lost: the network drops with it.
  const lost = new Set<string>();
  const loseAnswer = (call: string) => lost.add(call);
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    if (!network.online) throw new TypeError("Failed to fetch");
    const call = `${init?.method ?? "GET"} ${new URL(String(input)).pathname}`;
    calls.push(call);
    const gate = gates.get(call);
    if (gate) {
      gates.delete(call);
      gate.arrived();
      await gate.released;
    }
    const answer = await edge.app.request(String(input), init);
    if (lost.delete(call)) {
      network.online = false;
      throw new TypeError("Failed to fetch");
    }
    return answer;
  };
  const services = open();
  const { user, email, password } = await edge.registerUser();
  await grantSubscription(edge.db, user._id);
  await services.auth.login({ email, password });
  // The mirror as the app stored it, read beside the app (the same IndexedDB database).
  const mirror = createDatabase(database);
  return {
    services,
    userId: user._id,
    network,
    calls,
    hold,
    loseAnswer,
    mirror,
    reopen: open,
    server: edge.client(services.auth.getState().token ?? ""),
  };
}

const DAILY = {
  schedule: { type: "daily" as const, time: "02:00" },
  isFullSync: true,
  syncOptions: { price: true, quantity: false },
};

describe("the outbox", () => {
  it("replays offline edits in the order they were made once the network returns", async () => {
    const edge = await createTestApp();
    const { services, network, calls, server } = await signedInApp(edge);
    const first = await server.call("createSchedule", { body: { name: "First", ...DAILY } });
    const second = await server.call("createSchedule", { body: { name: "Second", ...DAILY } });
    await services.mirror.refresh("schedules");

    network.online = false;
    await services.api.call("setScheduleStatus", { params: { id: first._id }, body: { status: "inactive" } });
    await services.api.call("deleteSchedule", { params: { id: second._id } });
    const created = await services.api.call("createSchedule", { body: { name: "Third", ...DAILY } });
    // Applied to the mirror at once, the new one shown pending under a local id.
    const offline = await services.api.call("listSchedules");
    expect(offline.schedules.map((schedule) => [schedule.name, schedule.status])).toEqual([
      ["Third", "active"],
      ["First", "inactive"],
    ]);
    expect(created).toMatchObject({ _id: expect.stringMatching(/^local-/), pending: true });
    expect(await services.outbox.waiting()).toBe(3);

    network.online = true;
    calls.length = 0;
    await services.outbox.drain();
    expect(calls).toEqual([
      `PUT /api/mapping-schedule/${first._id}/status`,
      `DELETE /api/mapping-schedule/${second._id}`,
      "POST /api/mapping-schedule",
    ]);
    expect(await services.outbox.waiting()).toBe(0);
    const onServer = await server.call("listSchedules");
    expect(onServer.schedules.map((schedule) => [schedule.name, schedule.status])).toEqual([
      ["Third", "active"],
      ["First", "inactive"],
    ]);
  });

  it("restores a row the server refuses to change and drops nothing else", async () => {
    const edge = await createTestApp();
    const { services, network, mirror, server } = await signedInApp(edge);
    const doomed = await server.call("createSchedule", { body: { name: "Doomed", ...DAILY } });
    await services.mirror.refresh("schedules");

    network.online = false;
    await services.api.call("setScheduleStatus", {
      params: { id: doomed._id },
      body: { status: "inactive" },
    });
    // Meanwhile another device deletes it.
    await server.call("deleteSchedule", { params: { id: doomed._id } });
    network.online = true;
    await services.outbox.drain();
    const local = await mirror.schedules.get(doomed._id);
    expect(local).toMatchObject({ status: "active" });
    expect(local?.pending).toBeUndefined();
    expect(await services.outbox.waiting()).toBe(0);
  });

  it("shows the server's truth after a refusal even when the list was refreshed before the replay", async () => {
    const edge = await createTestApp();
    const { services, network, server } = await signedInApp(edge);
    const doomed = await server.call("createSchedule", { body: { name: "Doomed", ...DAILY } });
    const renamed = await server.call("createSchedule", { body: { name: "Renamed", ...DAILY } });
    await services.mirror.refresh("schedules");

    network.online = false;
    await services.api.call("deleteSchedule", { params: { id: doomed._id } });
    await services.api.call("setScheduleStatus", {
      params: { id: renamed._id },
      body: { status: "inactive" },
    });
    // Meanwhile another device deletes the first and renames the second.
    await server.call("deleteSchedule", { params: { id: doomed._id } });
    await server.call("updateSchedule", {
      params: { id: renamed._id },
      body: { name: "Renamed elsewhere", ...DAILY, status: "active" },
    });
    network.online = true;
    // A screen reads the list as the network returns, before the outbox has replayed.
    await services.api.call("listSchedules");
    await services.outbox.drain();

    const shown = await services.api.call("listSchedules");
    expect(
      shown.schedules.map((schedule) => [schedule.name, schedule.status, isPendingRow(schedule)]),
    ).toEqual([["Renamed elsewhere", "inactive", false]]);
    expect(await services.outbox.waiting()).toBe(0);
  });
});

describe("a replayed delete", () => {
  it("ends with the row gone when the server answers 404 because its first try had landed", async () => {
    const edge = await createTestApp();
    const { services, network, mirror, server } = await signedInApp(edge);
    const doomed = await server.call("createSchedule", { body: { name: "Doomed", ...DAILY } });
    await services.mirror.refresh("schedules");

    network.online = false;
    await services.api.call("deleteSchedule", { params: { id: doomed._id } });
    // The first try had reached the server before the network failed it.
    await server.call("deleteSchedule", { params: { id: doomed._id } });
    network.online = true;
    await services.outbox.drain();

    expect(await mirror.schedules.get(doomed._id)).toBeUndefined();
    expect(await services.outbox.waiting()).toBe(0);
    expect((await services.api.call("listSchedules")).total).toBe(0);
  });
});

describe("a refused replay beside a feed page", () => {
  it("leaves a row the server deleted gone when the list's feed is written while the replay is on its way", async () => {
    const edge = await createTestApp();
    const { services, network, hold, mirror, server } = await signedInApp(edge);
    const doomed = await server.call("createSchedule", { body: { name: "Doomed", ...DAILY } });
    await services.mirror.refresh("schedules");

    network.online = false;
    await services.api.call("setScheduleStatus", {
      params: { id: doomed._id },
      body: { status: "inactive" },
    });
    // Meanwhile another device deletes it: the replay will be refused.
    await server.call("deleteSchedule", { params: { id: doomed._id } });
    network.online = true;
    const replay = hold(`PUT /api/mapping-schedule/${doomed._id}/status`);
    const drained = services.outbox.drain();
    await replay.arrived;
    // The list's feed (a screen reading it on reconnect) says the row was removed while the
    // replay is on its way; the refusal lands after it.
    await services.mirror.refresh("schedules");
    replay.release();
    await drained;
    await services.mirror.refresh("schedules");

    expect(await mirror.schedules.get(doomed._id)).toBeUndefined();
    expect(await services.api.call("listSchedules")).toMatchObject({ total: 0, schedules: [] });
  });
});

describe("the lists an app opens with", () => {
  it("show no row the server deleted after a refused replay, even from the cache saved before it", async () => {
    const edge = await createTestApp();
    const { services, network, mirror, server, reopen } = await signedInApp(edge);
    const stopSaving = services.persistCache();
    const doomed = await server.call("createSchedule", { body: { name: "Doomed", ...DAILY } });
    await server.call("createSchedule", { body: { name: "Kept", ...DAILY } });
    await services.mirror.refresh("schedules");
    const list = schedulesQuery(services.api, { page: 1, limit: 10 });
    await services.queryClient.fetchQuery(list);

    network.online = false;
    await services.api.call("setScheduleStatus", {
      params: { id: doomed._id },
      body: { status: "inactive" },
    });
    await server.call("deleteSchedule", { params: { id: doomed._id } });
    network.online = true;
    await services.outbox.drain();
    await services.mirror.refresh("schedules");
    expect(await mirror.schedules.get(doomed._id)).toBeUndefined();
    // The query cache is saved (throttled) after the refusal; the app is closed once it is.
    await services.queryClient.fetchQuery(settingsQuery(services.api));
    await expect
      .poll(async () => (await mirror.kv.get(QUERY_CACHE_KEY))?.value.includes('"settings"'))
      .toBe(true);
    stopSaving();

    const again = reopen();
    await again.auth.restore();
    const first = again.queryClient.getQueryData(list.queryKey) ?? (await again.queryClient.fetchQuery(list));
    expect(first.schedules.map((schedule) => schedule.name)).toEqual(["Kept"]);
  });
});

/**
 * The toasts shown from now on. Sonner keeps every toast of the process, and a toast shown again
 * under its id (the outbox's 'edits sent') is replaced by a new object: new objects are new toasts.
 */
function toastsFromNow(): () => { type: string | undefined; title: string }[] {
  const before = new Set(toast.getHistory());
  return () =>
    toast
      .getHistory()
      .filter((shown) => !before.has(shown))
      .map((shown) =>
        "title" in shown
          ? { type: shown.type, title: String(shown.title) }
          : { type: "dismissed", title: "" },
      );
}

describe("a create whose answer the network lost", () => {
  it("leaves one schedule on the server when the outbox replays it, shown as the server's row", async () => {
    const edge = await createTestApp();
    const { services, network, loseAnswer, mirror, server } = await signedInApp(edge);
    await services.mirror.refresh("schedules");
    const shown = toastsFromNow();

    // The create reaches the server, which makes the schedule; the network drops with its answer.
    loseAnswer("POST /api/mapping-schedule");
    const created = await services.api.call("createSchedule", { body: { name: "Nightly", ...DAILY } });
    expect(created).toMatchObject({ _id: expect.stringMatching(/^local-/), pending: true });
    expect(await services.outbox.waiting()).toBe(1);
    network.online = true;
    await services.outbox.drain();

    const onServer = await server.call("listSchedules");
    expect(onServer.schedules.map((schedule) => schedule.name)).toEqual(["Nightly"]);
    const local = await mirror.schedules.toArray();
    expect(local.map((row) => [row._id, row.name, isPendingRow(row)])).toEqual([
      [onServer.schedules[0]?._id, "Nightly", false],
    ]);
    expect(await services.outbox.waiting()).toBe(0);
    expect(shown()).toEqual([{ type: "success", title: "1 offline edit sent" }]);
  });

  it("maps the pair once and shows no refusal when the outbox replays a manual mapping", async () => {
    const edge = await createTestApp();
    const { services, userId, network, loseAnswer, mirror, server } = await signedInApp(edge);
    const variant = await insertVariant(edge.db, userId, { sku: "LOST-1" });
    const item = await insertItem(edge.db, userId, { sku: "ERP-LOST-1" });
    for (const list of ["shopify", "acumatica", "mappings"] as const) await services.mirror.refresh(list);
    const shown = toastsFromNow();

    loseAnswer("POST /api/mapping/manual");
    await services.api.call("manualMap", {
      body: { shopifyVariantId: variant.variantId, acumaticaProductId: item.acumaticaId },
    });
    network.online = true;
    await services.outbox.drain();

    const onServer = await server.call("mappingHistory", { query: { page: "1", limit: "10" } });
    expect(onServer.total).toBe(1);
    const local = await mirror.mappings.toArray();
    expect(local.map((row) => [row._id, isPendingRow(row)])).toEqual([[onServer.mappings[0]?._id, false]]);
    // The device works the unmapped products out from the catalogs and mappings: none are left.
    network.online = false;
    const unmapped = await services.api.call("unmapped", { query: { limit: "10" } });
    expect([unmapped.shopifyTotal, unmapped.acumaticaTotal]).toEqual([0, 0]);
    expect(await services.outbox.waiting()).toBe(0);
    expect(shown()).toEqual([{ type: "success", title: "1 offline edit sent" }]);
  });
});
