import { ApiError, MESSAGES, type Plan, type Subscription } from "@stockbridge/shared";
import { describe, expect, it } from "vitest";
import { subscriptionKeys } from "./queries.ts";
import {
  checkoutStartError,
  formatBillingDate,
  formatPlanPrice,
  formatStatus,
  planCardState,
  planNameOf,
  sameSubscription,
  secondsLeft,
  statusTone,
} from "./subscription-view.ts";

const starter: Plan = {
  id: "price_starter_monthly",
  name: "Starter",
  price: 29,
  interval: "month",
  features: ["Daily sync schedules"],
  stripePriceId: "price_starter_monthly",
  limits: { minScheduleMinutes: 1440, maxMappings: 500 },
};
const growth: Plan = {
  ...starter,
  id: "price_growth_monthly",
  name: "Growth",
  price: 79,
  stripePriceId: "price_growth_monthly",
};

function subscription(overrides: Partial<Subscription> = {}): Subscription {
  return {
    planId: starter.stripePriceId,
    planName: "Starter",
    status: "active",
    currentPeriodEnd: "2025-07-01T12:00:00.000Z",
    cancelAtPeriodEnd: false,
    limits: starter.limits,
    ...overrides,
  };
}

describe("planCardState", () => {
  it("offers Subscribe on every plan when the user has no subscription", () => {
    expect(planCardState(starter, null)).toEqual({
      current: false,
      action: "subscribe",
      cancelling: false,
      canResume: false,
    });
  });

  it("offers Subscribe again once the subscription has ended", () => {
    expect(planCardState(starter, subscription({ status: "canceled" })).action).toBe("subscribe");
    expect(planCardState(growth, subscription({ status: "incomplete_expired" })).action).toBe("subscribe");
  });

  it("offers Cancel on the current plan and Switch on the others", () => {
    expect(planCardState(starter, subscription())).toEqual({
      current: true,
      action: "cancel",
      cancelling: false,
      canResume: false,
    });
    expect(planCardState(growth, subscription())).toEqual({
      current: false,
      action: "switch",
      cancelling: false,
      canResume: false,
    });
  });

  it("offers Resume only while the subscription is set to cancel at period end", () => {
    const cancelling = subscription({ cancelAtPeriodEnd: true });
    expect(planCardState(starter, cancelling)).toMatchObject({ cancelling: true, canResume: true });
    expect(planCardState(growth, cancelling).canResume).toBe(false);
  });
});

describe("formatPlanPrice", () => {
  it("shows whole dollars without cents", () => {
    expect(formatPlanPrice(starter)).toBe("$29/month");
  });

  it("shows cents when the price has them", () => {
    expect(formatPlanPrice({ price: 29.5, interval: "month" })).toBe("$29.50/month");
  });

  it("groups thousands and keeps multi-period intervals", () => {
    expect(formatPlanPrice({ price: 1200, interval: "3 months" })).toBe("$1,200/3 months");
  });
});

describe("formatStatus and statusTone", () => {
  it("reads Stripe statuses as words", () => {
    expect(formatStatus("active")).toBe("Active");
    expect(formatStatus("past_due")).toBe("Past due");
  });

  it("marks the access-granting statuses as success and ended ones as error", () => {
    expect(statusTone("trialing")).toBe("success");
    expect(statusTone("past_due")).toBe("warning");
    expect(statusTone("canceled")).toBe("error");
  });
});

describe("formatBillingDate", () => {
  it("formats a period end as a long date", () => {
    expect(formatBillingDate("2025-07-01T12:00:00.000Z")).toBe("July 1, 2025");
  });

  it("shows '-' for a missing or unreadable date", () => {
    expect(formatBillingDate(null)).toBe("-");
    expect(formatBillingDate("not a date")).toBe("-");
  });
});

describe("planNameOf", () => {
  it("prefers the name stored with the subscription, then the catalogue's", () => {
    expect(planNameOf(subscription({ planName: "Starter (legacy)" }), [starter])).toBe("Starter (legacy)");
    expect(
      planNameOf(subscription({ planName: null, planId: growth.stripePriceId }), [starter, growth]),
    ).toBe("Growth");
    expect(planNameOf(subscription({ planName: null, planId: "price_gone" }), [starter])).toBe(
      "Unknown plan",
    );
  });
});

describe("checkoutStartError", () => {
  it("shows the server's message when it gave one", () => {
    const error = new ApiError("You already have an active subscription.", { status: 409, code: "CONFLICT" });
    expect(checkoutStartError(error)).toBe("You already have an active subscription.");
  });

  it("shows 'Failed to start subscription process' when the server said nothing", () => {
    const error = new ApiError(MESSAGES.subscription.checkoutFailed, { status: 0, code: "NETWORK" });
    expect(checkoutStartError(error)).toBe(MESSAGES.subscription.startFailed);
    expect(checkoutStartError("boom")).toBe(MESSAGES.subscription.startFailed);
  });
});

describe("sameSubscription", () => {
  it("compares every field a screen shows", () => {
    expect(sameSubscription(subscription(), subscription())).toBe(true);
    expect(sameSubscription(subscription(), subscription({ cancelAtPeriodEnd: true }))).toBe(false);
    expect(sameSubscription(null, undefined)).toBe(true);
    expect(sameSubscription(null, subscription())).toBe(false);
  });
});

describe("secondsLeft", () => {
  it("counts whole seconds down to zero and never below", () => {
    expect(secondsLeft(5_000, 0)).toBe(5);
    expect(secondsLeft(5_000, 4_100)).toBe(1);
    expect(secondsLeft(5_000, 6_000)).toBe(0);
  });
});

describe("subscriptionKeys", () => {
  it("nests the current status and every checkout verification under the status key", () => {
    const status = subscriptionKeys.status();
    expect(subscriptionKeys.current().slice(0, status.length)).toEqual(status);
    expect(subscriptionKeys.checkout("cs_1").slice(0, status.length)).toEqual(status);
    expect(subscriptionKeys.plans().slice(0, status.length)).not.toEqual(status);
  });
});
