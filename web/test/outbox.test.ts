import { IDBKeyRange, indexedDB } from "fake-indexeddb";
import { describe, expect, it } from "vitest";
import { createTestApp, grantSubscription, type TestApp } from "../../edge/test/helpers.ts";
import { createDatabase } from "../src/db/database.ts";
import { isPendingRow } from "../src/db/mirror-rows.ts";
import { createMemoryStorage } from "../src/lib/token-store.ts";
import { createServices, type Services } from "../src/services.ts";

/** The browser app's services against the real edge in-process; `network.online` cuts it off. */
async function signedInApp(edge: TestApp) {
  const network = { online: true };
  const calls: string[] = [];
  const database = { name: `outbox-test-${crypto.randomUUID()}`, indexedDB, IDBKeyRange };
  const services: Services = createServices({
    storage: createMemoryStorage(),
    appVersion: "test",
    apiBaseUrl: "http://app.test/api",
    database,
    isOnline: () => network.online,
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      if (!network.online) throw new TypeError("Failed to fetch");
      calls.push(`${init?.method ?? "GET"} ${new URL(String(input)).pathname}`);
      return edge.app.request(String(input), init);
    },
  });
  const { user, email, password } = await edge.registerUser();
  await grantSubscription(edge.db, user._id);
  await services.auth.login({ email, password });
  // The mirror as the app stored it, read beside the app (the same IndexedDB database).
  const mirror = createDatabase(database);
  return { services, network, calls, mirror, server: edge.client(services.auth.getState().token ?? "") };
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
