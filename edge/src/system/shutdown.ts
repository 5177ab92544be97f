import type { Logger } from "../observability/log.ts";

/** A step of a graceful stop, run after the server stopped taking requests (jobs, then the database). */
export interface ShutdownStep {
  name: string;
  run(): Promise<void> | void;
}

/** How long requests in flight get to finish once a stop was asked for. */
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * A graceful stop: the server stops accepting and its requests in flight get `graceMs` to finish,
 * then each step runs in the order added (each failure logged, the rest still run). Any number of
 * signals may ask; the stop runs once. Features add their own step with `add` (main.ts adds the
 * database's close last).
 */
export function createShutdown(deps: {
  logger: Logger;
  /** Stops accepting connections and resolves once the requests in flight have been answered. */
  stopServer(): Promise<void>;
  graceMs?: number;
}) {
  const steps: ShutdownStep[] = [];
  let stopping: Promise<void> | null = null;

  async function stop(reason: string): Promise<void> {
    const graceMs = deps.graceMs ?? SHUTDOWN_GRACE_MS;
    deps.logger.info("shutting down", { reason, graceMs });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise<"late">((resolve) => {
      timer = setTimeout(() => resolve("late"), graceMs);
    });
    const served = await Promise.race([deps.stopServer().then(() => "served" as const), grace]);
    clearTimeout(timer);
    if (served === "late") deps.logger.warn("requests still in flight after the grace period", { graceMs });
    for (const step of steps) {
      try {
        await step.run();
      } catch (error) {
        deps.logger.error("shutdown step failed", { step: step.name, error });
      }
    }
    deps.logger.info("stopped", { reason });
  }

  return {
    add(step: ShutdownStep): void {
      steps.push(step);
    },
    run(reason: string): Promise<void> {
      stopping ??= stop(reason);
      return stopping;
    },
  };
}
