import { NO_PLAN_LIMITS, type Plan, type Subscription } from "@stockbridge/shared";
import { describe, expect, it } from "vitest";
import { planChoices } from "../schedules/schedule-form.ts";
import { describeDay, summarizeDays } from "./dashboard-logic.ts";

function plan(name: string, price: number, limits: Plan["limits"]): Plan {
  const id = `price_${name.toLowerCase()}`;
  return { id, name, price, interval: "month", features: [], stripePriceId: id, limits };
}
const PLANS = [
  plan("Starter", 29, { minScheduleMinutes: 1440, maxMappings: 500 }),
  plan("Growth", 79, { minScheduleMinutes: 15, maxMappings: 5000 }),
  plan("Scale", 199, { minScheduleMinutes: 15, maxMappings: null }),
];

function on(name: string, limits: Plan["limits"] | undefined): Subscription {
  const subscription = {
    planId: `price_${name.toLowerCase()}`,
    planName: name,
    status: "active",
    currentPeriodEnd: null,
    cancelAtPeriodEnd: false,
  };
  // A session stored before plans had limits carries none.
  return (limits ? { ...subscription, limits } : subscription) as Subscription;
}

describe("planChoices", () => {
  it("offers a Starter subscriber daily, weekly and monthly schedules and says why the others are off", () => {
    const choices = planChoices(on("Starter", PLANS[0]?.limits), PLANS);
    expect(
      ["minutely", "hourly", "daily", "weekly", "monthly"].map((type) => choices.typeAllowed(type as never)),
    ).toEqual([false, false, true, true, true]);
    expect(choices.note).toBe(
      "Your Starter plan includes daily schedules; upgrade to Growth for schedules every 15 minutes.",
    );
  });

  it("offers every interval on Growth, and only the slower ones on a plan of every 30 minutes", () => {
    expect(planChoices(on("Growth", PLANS[1]?.limits), PLANS).note).toBeNull();
    const half = planChoices(on("Half", { minScheduleMinutes: 30, maxMappings: null }), PLANS);
    expect([15, 30, 45].map((minutes) => half.minutesAllowed(minutes as 15))).toEqual([false, true, true]);
    expect(half.hoursAllowed(1)).toBe(true);
    expect(half.note).toBe(
      "Your Half plan includes schedules every 30 minutes; upgrade to Growth for schedules every 15 minutes.",
    );
  });

  it("refuses nothing for a session without limits or without a subscription (the server still checks)", () => {
    expect(planChoices(on("Starter", undefined), PLANS).typeAllowed("minutely")).toBe(true);
    expect(planChoices(null, PLANS).note).toBeNull();
    expect(planChoices(on("Starter", NO_PLAN_LIMITS), []).note).toBeNull();
  });
});

describe("the runs chart's words", () => {
  it("describes a day's bar and the 30 days", () => {
    const day = { date: "2026-11-21", runs: 2, successes: 12, failures: 1, skipped: 3 };
    expect(describeDay(day)).toBe("Nov 21: 12 synced, 1 failed, 3 skipped in 2 runs");
    expect(describeDay({ ...day, runs: 0 })).toBe("Nov 21: no runs");
    expect(
      summarizeDays([day, { ...day, date: "2026-11-20", runs: 0, successes: 0, failures: 0, skipped: 0 }]),
    ).toBe("2 runs in the last 2 days: 12 items synced, 1 failed, 3 skipped.");
  });
});
