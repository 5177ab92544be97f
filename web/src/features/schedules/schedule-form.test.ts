import type { Schedule } from "@stockbridge/shared";
import { describe, expect, it } from "vitest";
import { formFromSchedule, newScheduleForm, scheduleInputOf } from "./schedule-form.ts";

const CHECK: Schedule = {
  _id: "s1",
  name: "Nightly check",
  schedule: { type: "daily", time: "02:00", day: null, interval: null, minuteInterval: null },
  timezone: "UTC",
  mappingIds: [],
  isFullSync: true,
  syncOptions: { price: true, quantity: true },
  status: "active",
  lastRun: null,
  nextRun: null,
  checkOnly: true,
  pausedByPlan: null,
};

describe("the schedule form's Check only", () => {
  it("starts off for a new schedule and is sent as chosen", () => {
    const form = newScheduleForm();
    expect(form.checkOnly).toBe(false);
    expect(scheduleInputOf({ ...form, name: "N", checkOnly: true }, "UTC").checkOnly).toBe(true);
  });

  it("keeps an edited check a check, and reads a schedule cached before the option as a sync", () => {
    expect(scheduleInputOf(formFromSchedule(CHECK), "UTC").checkOnly).toBe(true);
    const { checkOnly: _unknown, ...older } = CHECK;
    expect(formFromSchedule(older as Schedule).checkOnly).toBe(false);
  });
});
