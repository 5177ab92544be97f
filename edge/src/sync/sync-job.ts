import type { Job, SyncJobResult } from "@stockbridge/shared";
import { heldForReview, MESSAGES, wouldBeHeld } from "@stockbridge/shared";
import { UpstreamError } from "../http/errors.ts";
import type { JobRunner } from "../jobs/runner.ts";
import type { RunSyncInput, RunSyncResult, SyncEngine } from "./engine.ts";

/** The most planned changes a dry-run job keeps in its result row; the counts cover the rest. */
export const DRY_RUN_CHANGES_LIMIT = 1_000;

export const SYNC_BUSY = "A sync is already running; wait for it to finish.";

/**
 * A multi-mapping (or full) sync as a job: answers the job at once, reports the engine's phases as
 * progress, and ends with the run's counts and history id as the job result. The run itself is
 * recorded in execution history like every other; a dry run writes nothing (no Shopify write, no
 * history) and ends with its planned changes instead. A run the safety limits hold ends the job
 * successfully too: its work (planning, and recording it for review) is done.
 */
export function startSyncJob(
  deps: { jobs: JobRunner; engine: SyncEngine },
  input: Omit<RunSyncInput, "onProgress" | "jobId">,
): Promise<Job> {
  return deps.jobs.start(
    input.userId,
    "sync",
    async (context) => {
      const run = await deps.engine.runSync({
        ...input,
        jobId: context.jobId,
        onProgress: ({ phase, done, total }) => context.progress({ phase, done, total }),
      });
      if (run.status === "failed" && run.cause) throw jobFailure(run.cause, run.error);
      const result = syncJobResult(run);
      return { message: closingMessage(result), result };
    },
    { busyMessage: SYNC_BUSY, phase: "Starting" },
  );
}

/** The job row keeps counts, not every mapping's answer: a 10,000-mapping run stays a small row. */
export function syncJobResult(run: RunSyncResult): SyncJobResult {
  const planned = run.results.filter((result) => result.outcome === "planned");
  return {
    dryRun: run.dryRun,
    historyId: run.historyId,
    total: run.results.length,
    ...run.counts,
    unchanged: run.results.filter((result) => result.outcome === "unchanged").length,
    planned: planned.length,
    changes: planned.slice(0, DRY_RUN_CHANGES_LIMIT),
    truncated: planned.length > DRY_RUN_CHANGES_LIMIT,
    holdReasons: run.holdReasons ?? [],
  };
}

/** The job's message names the outside system that stopped the run, as its history entry does. */
function jobFailure(cause: unknown, described: string | null): unknown {
  if (cause instanceof UpstreamError && described) return new UpstreamError(cause.system, described);
  return cause;
}

export function closingMessage(result: SyncJobResult): string {
  const holdReasons = result.holdReasons ?? [];
  if (result.dryRun) {
    const plan = `Plan ready: ${result.planned} of ${result.total} mappings would change; nothing was written`;
    return holdReasons.length > 0 ? `${plan}. ${wouldBeHeld(holdReasons)}` : plan;
  }
  if (holdReasons.length > 0) return heldForReview(holdReasons);
  if (result.failure === 0) return MESSAGES.mapping.synchronized;
  return `${result.failure} of ${result.total} ${result.total === 1 ? "mapping" : "mappings"} failed; see Execution History`;
}
