import { describeError } from "../errors.ts";
import type { HistoryRepo } from "./repo.ts";

/** How every history entry ends whose run stopped with its process (or whose job was declared dead). */
export const RUN_STOPPED = "The server stopped while this run was in progress";

/** A run's entry stays alive this long without a renewal unless configured (RUN_LEASE_SECONDS). */
export const DEFAULT_RUN_LEASE_MS = 60_000;

/**
 * Renews an open entry's lease every third of its length while its run works, so only an entry
 * whose process stopped runs out. Returns the stop function (call it in a `finally`).
 */
export function keepRunAlive(
  history: Pick<HistoryRepo, "renew">,
  id: string,
  options: { leaseMs: number; now: () => Date; log?: (line: string) => void },
): () => void {
  const timer = setInterval(() => {
    const until = new Date(options.now().getTime() + options.leaseMs).toISOString();
    history
      .renew(id, until)
      .catch((error: unknown) => options.log?.(`run ${id}: lease not renewed: ${describeError(error)}`));
  }, options.leaseMs / 3);
  // A heartbeat must not keep a process (or a test run) alive on its own.
  (timer as { unref?: () => void }).unref?.();
  return () => clearInterval(timer);
}
