import type { Job } from "@stockbridge/shared";
import { MESSAGES } from "@stockbridge/shared";
import type { JobRunner } from "../jobs/runner.ts";
import type { RunSyncInput, SyncEngine } from "./engine.ts";

/**
 * A multi-mapping (or full) sync as a job: answers the job at once, reports the engine's phases as
 * progress, and ends with the run's counts and history id as the job result. The run itself is
 * recorded in execution history like every other.
 */
export function startSyncJob(
  deps: { jobs: JobRunner; engine: SyncEngine },
  input: Omit<RunSyncInput, "onProgress" | "dryRun">,
): Promise<Job> {
  return deps.jobs.start(
    input.userId,
    "sync",
    async (context) => {
      const run = await deps.engine.runSync({
        ...input,
        onProgress: ({ phase, done, total }) => context.progress({ phase, done, total }),
      });
      if (run.status === "failed" && run.cause) throw run.cause;
      return {
        message:
          run.counts.failure === 0
            ? MESSAGES.mapping.synchronized
            : `${run.counts.failure} of ${run.results.length} mappings failed; see Execution History`,
        result: { historyId: run.historyId, ...run.counts, total: run.results.length },
      };
    },
    { busyMessage: "A sync is already running; wait for it to finish.", phase: "Starting" },
  );
}
