import type { Hono } from "hono";
import type { DemoCatalog } from "./seed/catalog.ts";

/** What each simulated system offers the sandbox composition and its control API. */
export interface Simulator {
  /** Mounted by the sandbox app under the system's prefix. */
  routes: Hono;
  /** Replace every piece of state with a fresh copy of the catalog (and drop sessions, buckets...). */
  reset(catalog: DemoCatalog): void;
  /**
   * Apply fault / limit settings sent to `PUT /__control/faults` for this system. Throws
   * `ControlInputError` with a message naming the field on a bad value.
   */
  configure(settings: Record<string, unknown>): void;
  /** Counters for `GET /__control/state` (calls, points spent, throttled answers, open logins...). */
  state(): Record<string, unknown>;
}

/** A control call with bad input: answered 400 with its message. */
export class ControlInputError extends Error {}
