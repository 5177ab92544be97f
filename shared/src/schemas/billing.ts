import * as v from "valibot";

/**
 * The Stripe events the webhook applies; anything else is acknowledged and ignored. Here, not in
 * the edge, because the API document lists them too.
 */
export const STRIPE_WEBHOOK_EVENTS = [
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "customer.subscription.paused",
  "customer.subscription.resumed",
] as const;

/**
 * What a plan allows, from its Stripe product's metadata (`min_schedule_minutes`, `max_mappings`).
 * Null: the plan sets no limit of that kind.
 */
export const PlanLimitsSchema = v.object({
  /** The shortest time between two runs of a schedule, in minutes (1440: at most daily). */
  minScheduleMinutes: v.nullable(v.number()),
  /** How many mappings (mapped products) the plan keeps. */
  maxMappings: v.nullable(v.number()),
});
export type PlanLimits = v.InferOutput<typeof PlanLimitsSchema>;

export const SubscriptionSchema = v.object({
  /** The plan's Stripe price id. */
  planId: v.string(),
  planName: v.nullable(v.string()),
  status: v.string(),
  currentPeriodEnd: v.nullable(v.string()),
  cancelAtPeriodEnd: v.boolean(),
  /** The limits the edge enforces for this plan, as last read from Stripe (no limits when unknown). */
  limits: PlanLimitsSchema,
});
export type Subscription = v.InferOutput<typeof SubscriptionSchema>;

export const PlanSchema = v.object({
  id: v.string(),
  name: v.string(),
  /** Dollars, e.g. 29 or 29.5. */
  price: v.number(),
  interval: v.string(),
  features: v.array(v.string()),
  stripePriceId: v.string(),
  limits: PlanLimitsSchema,
});
export type Plan = v.InferOutput<typeof PlanSchema>;

const PriceIdSchema = v.pipe(
  v.string("priceId is required"),
  v.trim(),
  v.nonEmpty("priceId is required"),
  v.maxLength(200, "priceId is too long"),
);

export const PriceIdInputSchema = v.object({ priceId: PriceIdSchema });
export type PriceIdInput = v.InferOutput<typeof PriceIdInputSchema>;

export const CreateSubscriptionInputSchema = v.object({
  priceId: PriceIdSchema,
  paymentMethodId: v.pipe(
    v.string("paymentMethodId is required"),
    v.trim(),
    v.nonEmpty("paymentMethodId is required"),
    v.maxLength(200, "paymentMethodId is too long"),
  ),
});
export type CreateSubscriptionInput = v.InferOutput<typeof CreateSubscriptionInputSchema>;

export const CancelSubscriptionInputSchema = v.object({
  cancelAtPeriodEnd: v.optional(v.boolean("cancelAtPeriodEnd must be true or false"), true),
});
export type CancelSubscriptionInput = v.InferOutput<typeof CancelSubscriptionInputSchema>;

export const CheckoutSessionSchema = v.object({ url: v.string() });
export type CheckoutSession = v.InferOutput<typeof CheckoutSessionSchema>;

export const SubscriptionStatusQuerySchema = v.object({
  session_id: v.optional(v.pipe(v.string(), v.maxLength(200, "session_id is too long"))),
});

export const SubscriptionStatusSchema = v.object({
  subscription: v.nullable(SubscriptionSchema),
  hasAccess: v.boolean(),
});
