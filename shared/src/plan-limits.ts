import { MINUTE_INTERVALS } from "./constants.ts";
import { planMappingLimit, planScheduleLimit } from "./messages.ts";
import type { Plan, PlanLimits } from "./schemas/billing.ts";
import type { ScheduleSpec } from "./schemas/schedules.ts";

/** A plan whose Stripe product sets no limits (or whose limits are not known): nothing is refused. */
export const NO_PLAN_LIMITS: PlanLimits = { minScheduleMinutes: null, maxMappings: null };

const DAY_MINUTES = 1_440;
/** The most often any schedule can run (spec section 9: minutely intervals start at 15). */
const FASTEST_MINUTES = MINUTE_INTERVALS[0];

/**
 * The shortest time between two runs of a schedule, in minutes. A monthly schedule's shortest
 * month is 28 days (day 31 in January runs on February's last day).
 */
function scheduleGapMinutes(spec: ScheduleSpec): number {
  switch (spec.type) {
    case "minutely":
      return spec.minuteInterval ?? FASTEST_MINUTES;
    case "hourly":
      return (spec.interval ?? 1) * 60;
    case "daily":
      return DAY_MINUTES;
    case "weekly":
      return 7 * DAY_MINUTES;
    case "monthly":
      return 28 * DAY_MINUTES;
  }
}

export function planAllowsSchedule(limits: PlanLimits, spec: ScheduleSpec): boolean {
  return limits.minScheduleMinutes === null || scheduleGapMinutes(spec) >= limits.minScheduleMinutes;
}

/** Whether one more mapping fits when the user has `mapped` already. */
function planAllowsMappings(limits: PlanLimits, mapped: number): boolean {
  return limits.maxMappings === null || mapped < limits.maxMappings;
}

/**
 * How often a plan lets schedules run, in the words of the plan cards: "daily schedules",
 * "hourly schedules", "schedules every 15 minutes". No limit reads as the fastest schedule there is.
 */
export function scheduleFrequencyText(minScheduleMinutes: number | null): string {
  const minutes = Math.max(minScheduleMinutes ?? FASTEST_MINUTES, FASTEST_MINUTES);
  if (minutes < 60) return `schedules every ${minutes} minutes`;
  if (minutes === 60) return "hourly schedules";
  if (minutes < DAY_MINUTES && minutes % 60 === 0) return `schedules every ${minutes / 60} hours`;
  if (minutes === DAY_MINUTES) return "daily schedules";
  if (minutes === 7 * DAY_MINUTES) return "weekly schedules";
  if (minutes >= 28 * DAY_MINUTES) return "monthly schedules";
  if (minutes % DAY_MINUTES === 0) return `schedules every ${minutes / DAY_MINUTES} days`;
  return `schedules at least ${minutes} minutes apart`;
}

/** The plan a subscriber is on, as the limit messages need it. */
export interface CurrentPlan {
  planId: string;
  planName: string | null;
  limits: PlanLimits;
}

/**
 * The cheapest offered plan, priced at or above the current one, that allows what was asked.
 * `plans` come cheapest first (the plans endpoint's order); none when no plan allows it.
 */
function upgradeFor(
  plans: readonly Plan[],
  current: Pick<CurrentPlan, "planId">,
  allows: (limits: PlanLimits) => boolean,
): Plan | undefined {
  const own = plans.find((plan) => plan.stripePriceId === current.planId);
  return plans.find(
    (plan) =>
      plan.stripePriceId !== current.planId &&
      (own === undefined || plan.price >= own.price) &&
      allows(plan.limits),
  );
}

/**
 * Why the plan refuses this schedule, or null when it allows it: 'Your Starter plan includes daily
 * schedules; upgrade to Growth for schedules every 15 minutes.'
 */
export function scheduleLimitMessage(
  current: CurrentPlan,
  spec: ScheduleSpec,
  plans: readonly Plan[],
): string | null {
  if (planAllowsSchedule(current.limits, spec)) return null;
  const upgrade = upgradeFor(plans, current, (limits) => planAllowsSchedule(limits, spec));
  return planScheduleLimit({
    plan: current.planName,
    allows: scheduleFrequencyText(current.limits.minScheduleMinutes),
    upgrade: upgrade
      ? { plan: upgrade.name, allows: scheduleFrequencyText(upgrade.limits.minScheduleMinutes) }
      : undefined,
  });
}

/** Why the plan refuses another mapping when `mapped` exist, or null when one more fits. */
export function mappingLimitMessage(
  current: CurrentPlan,
  mapped: number,
  plans: readonly Plan[],
): string | null {
  const max = current.limits.maxMappings;
  if (max === null || mapped < max) return null;
  const upgrade = upgradeFor(plans, current, (limits) => planAllowsMappings(limits, mapped));
  return planMappingLimit({
    plan: current.planName,
    max,
    mapped,
    upgrade: upgrade ? { plan: upgrade.name, max: upgrade.limits.maxMappings } : undefined,
  });
}
