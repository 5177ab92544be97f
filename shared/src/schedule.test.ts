import { describe, expect, it } from "vitest";
import { describeSchedule, nextRun, scheduleSpecErrors } from "./schedule.ts";
import type { ScheduleSpec } from "./schemas/schedules.ts";

function spec(partial: Partial<ScheduleSpec> & Pick<ScheduleSpec, "type">): ScheduleSpec {
  return { time: null, day: null, interval: null, minuteInterval: null, ...partial };
}

describe("describeSchedule", () => {
  it("uses the spec's texts", () => {
    expect(describeSchedule(spec({ type: "minutely", minuteInterval: 30 }))).toBe("Every 30 minutes");
    expect(describeSchedule(spec({ type: "hourly", interval: 4 }))).toBe("Every 4 hour(s)");
    expect(describeSchedule(spec({ type: "daily", time: "06:30" }))).toBe("Daily at 06:30");
    expect(describeSchedule(spec({ type: "weekly", day: 3, time: "09:00" }))).toBe(
      "Weekly on day 3 at 09:00",
    );
    expect(describeSchedule(spec({ type: "monthly", day: 31, time: "23:00" }))).toBe(
      "Monthly on day 31 at 23:00",
    );
  });

  it("names what each type is missing", () => {
    expect(scheduleSpecErrors(spec({ type: "weekly", time: "09:00", day: 8 }))).toEqual([
      "Weekly schedules need a day from 1 (Monday) to 7 (Sunday)",
    ]);
    expect(scheduleSpecErrors(spec({ type: "daily" }))).toEqual([
      "Daily, weekly and monthly schedules need a time (HH:MM)",
    ]);
    expect(scheduleSpecErrors(spec({ type: "monthly", time: "01:00", day: 31 }))).toEqual([]);
  });
});

describe("nextRun", () => {
  it("aligns minute intervals to the quarter hours", () => {
    const at = nextRun(
      spec({ type: "minutely", minuteInterval: 15 }),
      "UTC",
      new Date("2026-03-01T10:07:30Z"),
    );
    expect(at.toISOString()).toBe("2026-03-01T10:15:00.000Z");
  });

  it("runs hourly intervals on local hours divisible by the interval", () => {
    const at = nextRun(
      spec({ type: "hourly", interval: 6 }),
      "America/New_York",
      new Date("2026-03-01T12:00:00Z"),
    );
    expect(at.toISOString()).toBe("2026-03-01T17:00:00.000Z"); // 12:00 New York (EST, UTC-5)
  });

  it("keeps a daily time on the wall clock across the spring-forward change", () => {
    const daily = spec({ type: "daily", time: "09:00" });
    const before = nextRun(daily, "Europe/Berlin", new Date("2026-03-28T12:00:00Z"));
    expect(before.toISOString()).toBe("2026-03-29T07:00:00.000Z"); // CEST starts that night: 09:00 = 07:00Z
    const previous = nextRun(daily, "Europe/Berlin", new Date("2026-03-27T12:00:00Z"));
    expect(previous.toISOString()).toBe("2026-03-28T08:00:00.000Z"); // still CET
  });

  it("moves a time inside the spring-forward gap to just after it", () => {
    const at = nextRun(
      spec({ type: "daily", time: "02:30" }),
      "America/New_York",
      new Date("2026-03-08T05:00:00Z"),
    );
    expect(at.toISOString()).toBe("2026-03-08T07:30:00.000Z"); // 03:30 EDT, the gap is 02:00-03:00
  });

  it("runs a repeated fall-back time once, at its first occurrence", () => {
    const daily = spec({ type: "daily", time: "01:30" });
    const first = nextRun(daily, "America/New_York", new Date("2026-11-01T04:00:00Z"));
    expect(first.toISOString()).toBe("2026-11-01T05:30:00.000Z"); // 01:30 EDT
    const after = nextRun(daily, "America/New_York", first);
    expect(after.toISOString()).toBe("2026-11-02T06:30:00.000Z"); // next day, 01:30 EST
  });

  it("treats weekly day 1 as Monday", () => {
    const at = nextRun(
      spec({ type: "weekly", day: 1, time: "08:00" }),
      "UTC",
      new Date("2026-11-21T12:00:00Z"),
    ); // a Saturday
    expect(at.toISOString()).toBe("2026-11-23T08:00:00.000Z");
  });

  it("runs monthly day 31 on the last day of a shorter month", () => {
    const monthly = spec({ type: "monthly", day: 31, time: "22:00" });
    expect(nextRun(monthly, "UTC", new Date("2026-02-01T00:00:00Z")).toISOString()).toBe(
      "2026-02-28T22:00:00.000Z",
    );
    expect(nextRun(monthly, "UTC", new Date("2026-03-01T00:00:00Z")).toISOString()).toBe(
      "2026-03-31T22:00:00.000Z",
    );
  });

  it("is strictly after the given instant", () => {
    const daily = spec({ type: "daily", time: "00:00" });
    expect(nextRun(daily, "UTC", new Date("2026-05-05T00:00:00Z")).toISOString()).toBe(
      "2026-05-06T00:00:00.000Z",
    );
  });
});
