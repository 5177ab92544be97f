import {
  type CurrentPlan,
  mappingLimitMessage,
  NO_PLAN_LIMITS,
  type Plan,
  planAllowsSchedule,
  type ScheduleSpec,
  scheduleLimitMessage,
} from "@stockbridge/shared";
import { ForbiddenError } from "../errors.ts";
import type { BillingRepo } from "./repo.ts";

const PLAN_LIMIT_CODE = "PLAN_LIMIT";

/**
 * What the subscriber's plan allows, for the features that enforce it (schedules, mappings, the
 * cron tick). The limits are the ones stored with the subscription (billing keeps them in step
 * with Stripe's catalogue), so a check needs no Stripe call; only a refusal reads the catalogue,
 * to name the plan that allows it, and lets the request through when the plan's limits in Stripe
 * have since been raised.
 */
export function createPlanGate(deps: { repo: BillingRepo; plans: () => Promise<Plan[]> }) {
  async function current(userId: string): Promise<CurrentPlan | null> {
    const stored = await deps.repo.findSubscription(userId);
    if (!stored) return null;
    return { planId: stored.planId, planName: stored.planName, limits: stored.planLimits ?? NO_PLAN_LIMITS };
  }

  /** The offered plans, cheapest first; none when Stripe cannot be read (the message then names no upgrade). */
  async function offered(): Promise<Plan[]> {
    try {
      return await deps.plans();
    } catch {
      return [];
    }
  }

  /** The plan with its limits as Stripe's catalogue has them now (the stored ones when it cannot say). */
  function live(plan: CurrentPlan, plans: Plan[]): CurrentPlan {
    const listed = plans.find((candidate) => candidate.stripePriceId === plan.planId);
    return listed ? { ...plan, planName: plan.planName ?? listed.name, limits: listed.limits } : plan;
  }

  async function scheduleRefusal(userId: string, spec: ScheduleSpec): Promise<string | null> {
    const plan = await current(userId);
    if (!plan || planAllowsSchedule(plan.limits, spec)) return null;
    const plans = await offered();
    return scheduleLimitMessage(live(plan, plans), spec, plans);
  }

  return {
    current,
    /** Why the plan does not allow this schedule to run, or null when it does. */
    scheduleRefusal,

    /** The same question from the stored limits alone, for the cron tick (no Stripe call). */
    async storedScheduleRefusal(userId: string, spec: ScheduleSpec): Promise<string | null> {
      const plan = await current(userId);
      return plan ? scheduleLimitMessage(plan, spec, []) : null;
    },

    /** Throws the 403 naming the plan when it does not allow this schedule. */
    async assertSchedule(userId: string, spec: ScheduleSpec): Promise<void> {
      const refusal = await scheduleRefusal(userId, spec);
      if (refusal) throw new ForbiddenError(refusal, PLAN_LIMIT_CODE);
    },

    /** The most mappings the user may have, by the stored limits; null for no limit. */
    async maxMappings(userId: string): Promise<number | null> {
      return (await current(userId))?.limits.maxMappings ?? null;
    },

    /**
     * The 403 text for a user who has `mapped` mappings and asked for more, or null when the plan
     * in Stripe now allows more than the stored limit did (the caller may try again with `limit`).
     */
    async mappingRefusal(
      userId: string,
      mapped: number,
    ): Promise<{ message: string | null; limit: number | null }> {
      const plan = await current(userId);
      if (!plan) return { message: null, limit: null };
      const plans = await offered();
      const now = live(plan, plans);
      return { message: mappingLimitMessage(now, mapped, plans), limit: now.limits.maxMappings };
    },
  };
}

export type PlanGate = ReturnType<typeof createPlanGate>;

export function planLimitError(message: string): ForbiddenError {
  return new ForbiddenError(message, PLAN_LIMIT_CODE);
}
