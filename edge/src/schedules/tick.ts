import { describeError } from "../errors.ts";
import type { TickReport } from "./ticker.ts";

export interface TickSteps {
  /** Health's record that the cron fired. */
  recordTick(): Promise<void>;
  /** Fails stale jobs, runs due schedules and what it can of the queue (schedules/ticker.ts). */
  runSchedules(): Promise<TickReport>;
  /** Writes the search entries a stopped pull left unwritten. */
  indexLeftoverSearches(): Promise<void>;
  /** Records the alerts of runs that ended without one. */
  sweepEndedRuns(): Promise<unknown>;
  /** Sends the due emails and webhooks. */
  deliverAlerts(): Promise<unknown>;
  /** Deletes expired idempotency keys (idempotency/service.ts). */
  pruneIdempotencyKeys(): Promise<unknown>;
  log: (line: string) => void;
}

/**
 * The cron tick (main.ts: Deno.cron every minute): records that it fired, runs due schedules, then
 * writes any search entries a stopped pull left unwritten, then records and sends alerts, then
 * deletes expired idempotency keys; safe to call from any number of instances. A failed catch-up or alert step is logged and does not fail
 * the tick.
 */
export function createTick(steps: TickSteps): () => Promise<TickReport> {
  return async function tick() {
    // First, so health tells a cron that fires from one whose ticks keep failing (logged below).
    await steps.recordTick();
    const report = await steps.runSchedules();
    try {
      await steps.indexLeftoverSearches();
    } catch (error) {
      steps.log(`search index catch-up failed: ${describeError(error)}`);
    }
    // After the runs, so their alerts go out in this tick: runs that ended without one first.
    try {
      await steps.sweepEndedRuns();
      await steps.deliverAlerts();
    } catch (error) {
      steps.log(`alert delivery failed: ${describeError(error)}`);
    }
    try {
      await steps.pruneIdempotencyKeys();
    } catch (error) {
      steps.log(`idempotency key pruning failed: ${describeError(error)}`);
    }
    return report;
  };
}
