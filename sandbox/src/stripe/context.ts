import type { StripeStore } from "./records.ts";
import type { StripeObject } from "./render.ts";

/** What the Stripe services share: the current store, the sandbox clock, and the event log. */
export interface StripeContext {
  store: StripeStore;
  /** Unix seconds on the sandbox clock (which the control API can move forward). */
  now(): number;
  /** Records an event (`GET /v1/events`) and queues its webhook delivery. */
  emit(type: string, object: StripeObject, previousAttributes?: Record<string, unknown>): void;
}
