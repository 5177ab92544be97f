import type { ScheduleInput } from "@stockbridge/shared";
import { describe, expect, it } from "vitest";
import { createTestApp, failure, type TestApp } from "../../testing/helpers.ts";
import { insertItem, insertVariant, registerSubscriber } from "../../testing/mapping-fixtures.ts";

type Body = Omit<ScheduleInput, "timezone" | "mappingIds" | "status"> &
  Partial<Pick<ScheduleInput, "timezone" | "mappingIds" | "status">>;

function daily(overrides: Partial<Body> = {}): Body {
  return {
    name: "Nightly prices",
    schedule: { type: "daily", time: "00:00", day: null, interval: null, minuteInterval: null },
    timezone: "UTC",
    isFullSync: true,
    syncOptions: { price: true, quantity: false },
    ...overrides,
  };
}

async function mappingOf(app: TestApp, subscriber: Awaited<ReturnType<typeof registerSubscriber>>) {
  const mapping = await subscriber.api.call("manualMap", {
    body: {
      shopifyVariantId: (await insertVariant(app.db, subscriber.userId)).variantId,
      acumaticaProductId: (await insertItem(app.db, subscriber.userId)).acumaticaId,
    },
  });
  return mapping._id;
}

describe("mapping schedules CRUD", () => {
  it("creates a schedule with its next run and lists it newest first", async () => {
    const app = await createTestApp();
    const { api } = await registerSubscriber(app);

    const first = await api.call("createSchedule", { body: daily({ name: "First" }) });
    app.clock.advance(1_000);
    const second = await api.call("createSchedule", { body: daily({ name: "Second" }) });

    expect(first).toMatchObject({
      name: "First",
      status: "active",
      isFullSync: true,
      mappingIds: [],
      syncOptions: { price: true, quantity: false },
      lastRun: null,
      nextRun: "2026-11-22T00:00:00.000Z",
      timezone: "UTC",
    });
    const list = await api.call("listSchedules");
    expect(list).toMatchObject({ total: 2, page: 1, totalPages: 1 });
    expect(list.schedules.map((s) => s._id)).toEqual([second._id, first._id]);
  });

  it("pages and searches by name", async () => {
    const app = await createTestApp();
    const { api } = await registerSubscriber(app);
    for (const name of ["Alpha prices", "Beta stock", "Gamma prices"]) {
      await api.call("createSchedule", { body: daily({ name }) });
      app.clock.advance(1_000);
    }

    const found = await api.call("listSchedules", { query: { search: "prices" } });
    expect(found.schedules.map((s) => s.name)).toEqual(["Gamma prices", "Alpha prices"]);
    expect(found.total).toBe(2);
    const literal = await api.call("listSchedules", { query: { search: "%" } });
    expect(literal.total).toBe(0);
    const paged = await api.call("listSchedules", { query: { page: "2", limit: "2" } });
    expect(paged).toMatchObject({ total: 3, page: 2, totalPages: 2 });
    expect(paged.schedules.map((s) => s.name)).toEqual(["Alpha prices"]);
  });

  it("stores the next run per type in the schedule's time zone", async () => {
    const app = await createTestApp();
    const { api } = await registerSubscriber(app);
    // The test clock starts at Saturday 2026-11-21 10:00 UTC.
    const cases: [Body["schedule"], string, string][] = [
      [
        { type: "minutely", minuteInterval: 15, time: null, day: null, interval: null },
        "UTC",
        "2026-11-21T10:15:00.000Z",
      ],
      [
        { type: "hourly", interval: 4, time: null, day: null, minuteInterval: null },
        "UTC",
        "2026-11-21T12:00:00.000Z",
      ],
      [
        { type: "daily", time: "06:30", day: null, interval: null, minuteInterval: null },
        "America/New_York",
        "2026-11-21T11:30:00.000Z",
      ],
      [
        { type: "weekly", time: "09:00", day: 1, interval: null, minuteInterval: null },
        "Europe/Berlin",
        "2026-11-23T08:00:00.000Z",
      ],
      [
        { type: "monthly", time: "00:00", day: 31, interval: null, minuteInterval: null },
        "UTC",
        "2026-11-30T00:00:00.000Z",
      ],
    ];
    for (const [schedule, timezone, expected] of cases) {
      const created = await api.call("createSchedule", { body: daily({ schedule, timezone }) });
      expect({ type: schedule.type, nextRun: created.nextRun }).toEqual({
        type: schedule.type,
        nextRun: expected,
      });
    }
  });

  it("updates a schedule to selected mappings and a new time", async () => {
    const app = await createTestApp();
    const subscriber = await registerSubscriber(app);
    const [one, two] = [await mappingOf(app, subscriber), await mappingOf(app, subscriber)];
    const created = await subscriber.api.call("createSchedule", { body: daily() });

    const updated = await subscriber.api.call("updateSchedule", {
      params: { id: created._id },
      body: daily({
        name: "Weekly stock",
        schedule: { type: "weekly", time: "09:00", day: 1, interval: 4, minuteInterval: null },
        isFullSync: false,
        mappingIds: [one, two],
        syncOptions: { price: false, quantity: true },
      }),
    });

    expect(updated).toMatchObject({
      _id: created._id,
      name: "Weekly stock",
      // Fields the type does not use are not kept.
      schedule: { type: "weekly", time: "09:00", day: 1, interval: null, minuteInterval: null },
      isFullSync: false,
      mappingIds: [one, two],
      syncOptions: { price: false, quantity: true },
      nextRun: "2026-11-23T09:00:00.000Z",
    });
    expect((await subscriber.api.call("listSchedules")).schedules[0]).toEqual(updated);
  });

  it("deactivates (no next run) and reactivates (next run from now)", async () => {
    const app = await createTestApp();
    const { api } = await registerSubscriber(app);
    const created = await api.call("createSchedule", {
      body: daily({
        schedule: { type: "minutely", minuteInterval: 15, time: null, day: null, interval: null },
      }),
    });
    expect(created.nextRun).toBe("2026-11-21T10:15:00.000Z");

    const stopped = await api.call("setScheduleStatus", {
      params: { id: created._id },
      body: { status: "inactive" },
    });
    expect(stopped).toMatchObject({ status: "inactive", nextRun: null });

    app.clock.advance(40 * 60_000);
    const started = await api.call("setScheduleStatus", {
      params: { id: created._id },
      body: { status: "active" },
    });
    expect(started).toMatchObject({ status: "active", nextRun: "2026-11-21T10:45:00.000Z" });
  });

  it("deletes a schedule", async () => {
    const app = await createTestApp();
    const { api } = await registerSubscriber(app);
    const created = await api.call("createSchedule", { body: daily() });

    expect(await api.call("deleteSchedule", { params: { id: created._id } })).toEqual({ ok: true });
    expect((await api.call("listSchedules")).total).toBe(0);
    expect((await failure(api.call("deleteSchedule", { params: { id: created._id } }))).status).toBe(404);
  });
});

describe("mapping schedule validation", () => {
  it("answers 400 naming the problem for bad fields", async () => {
    const app = await createTestApp();
    const { api, token } = await registerSubscriber(app);
    const cases: [Body, string][] = [
      [daily({ name: "  " }), "Schedule name is required"],
      [daily({ syncOptions: { price: false, quantity: false } }), "Please select at least one sync option"],
      [
        daily({ schedule: { type: "daily", time: null, day: null, interval: null, minuteInterval: null } }),
        "Daily, weekly and monthly schedules need a time (HH:MM)",
      ],
      [
        daily({ schedule: { type: "weekly", time: "10:00", day: 8, interval: null, minuteInterval: null } }),
        "Weekly schedules need a day from 1 (Monday) to 7 (Sunday)",
      ],
      [
        daily({ schedule: { type: "monthly", time: "10:00", day: 0, interval: null, minuteInterval: null } }),
        "Monthly schedules need a day from 1 to 31",
      ],
      [
        daily({ schedule: { type: "hourly", time: null, day: null, interval: null, minuteInterval: null } }),
        "Hourly schedules need an interval of 1, 2, 4, 6, 8 or 12 hours",
      ],
      [
        daily({ timezone: "Mars/Olympus_Mons" }),
        'timezone "Mars/Olympus_Mons" is not a known IANA time zone',
      ],
      [daily({ isFullSync: false, mappingIds: [] }), "Select at least one mapping, or turn on Full Sync"],
    ];
    for (const [body, message] of cases) {
      const error = await failure(api.call("createSchedule", { body }));
      expect({ status: error.status, message: error.message }).toEqual({ status: 400, message });
    }
    const badMinutes = await app.request("/api/mapping-schedule", {
      token,
      body: daily({
        schedule: { type: "minutely", minuteInterval: 20 as 15, time: null, day: null, interval: null },
      }),
    });
    expect(badMinutes.status).toBe(400);
    expect((await badMinutes.json()).message).toBe("schedule.minuteInterval must be one of 15, 30, 45");
    expect((await api.call("listSchedules")).total).toBe(0);
  });

  it("rejects mappings that are not the caller's", async () => {
    const app = await createTestApp();
    const owner = await registerSubscriber(app);
    const stranger = await registerSubscriber(app);
    const foreign = await mappingOf(app, owner);

    const error = await failure(
      stranger.api.call("createSchedule", { body: daily({ isFullSync: false, mappingIds: [foreign] }) }),
    );

    expect(error.status).toBe(400);
    expect(error.message).toContain("mappingIds");
  });
});

describe("mapping schedule ownership", () => {
  it("answers 404 for another user's schedule and never lists it", async () => {
    const app = await createTestApp();
    const owner = await registerSubscriber(app);
    const stranger = await registerSubscriber(app);
    const schedule = await owner.api.call("createSchedule", { body: daily() });
    const params = { id: schedule._id };

    const attempts = [
      () => stranger.api.call("updateSchedule", { params, body: daily({ name: "Mine now" }) }),
      () => stranger.api.call("setScheduleStatus", { params, body: { status: "inactive" } }),
      () => stranger.api.call("deleteSchedule", { params }),
    ];
    for (const attempt of attempts) expect((await failure(attempt())).status).toBe(404);
    expect((await stranger.api.call("listSchedules")).total).toBe(0);
    expect((await owner.api.call("listSchedules")).schedules[0]).toEqual(schedule);
  });

  it("needs a subscription", async () => {
    const app = await createTestApp();
    const { token } = await app.registerUser();
    const response = await app.request("/api/mapping-schedule", { token });
    expect(response.status).toBe(403);
  });
});
