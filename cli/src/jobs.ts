import { ApiError, type Job } from "@stockbridge/shared";
import type { CommandContext } from "./context.ts";
import { CliError, EXIT } from "./errors.ts";
import { printJson } from "./output/json.ts";
import { isFinished, jobState } from "./output/progress-state.ts";

/** How often a running job is read again. Jobs report progress at most every 300 ms. */
export const JOB_POLL_MS = 250;

export interface JobTexts {
  /** Shown above the bar, e.g. "Pulling Shopify products". */
  label: string;
  /** The closing message when the job has none of its own. */
  succeeded: string;
  failed: string;
  /** True when a job that succeeded still had failed items (a sync): the view then ends as a failure. */
  itemsFailed?(job: Job): boolean;
}

/**
 * Starts a job. When the server answers 409 because the same work already runs (started from the
 * web app, a schedule or another terminal), answers that running job instead, so the caller follows
 * it rather than failing; `started` tells which.
 */
export async function startJob(
  context: CommandContext,
  start: () => Promise<{ job: Job }>,
): Promise<{ job: Job; started: boolean }> {
  try {
    return { job: (await start()).job, started: true };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 409 || !error.jobId) throw error;
    // stderr, so `--json` output stays the job alone.
    context.err(`${error.message} Following the running job ${error.jobId}.`);
    return { job: await context.api.call("job", { params: { id: error.jobId } }), started: false };
  }
}

/**
 * Starts a job that is this command's own (a retry, an approval, a drift fix): when another job
 * of the kind already runs (409 with its id), following that one would report someone else's run
 * as this one, so it is named instead, with how to follow it.
 */
export async function startOwnJob(start: () => Promise<{ job: Job }>): Promise<Job> {
  try {
    return (await start()).job;
  } catch (error) {
    if (error instanceof ApiError && error.status === 409 && error.jobId) {
      throw new CliError(`${error.message} Follow it with: stockbridge jobs wait ${error.jobId}`, {
        code: error.code,
      });
    }
    throw error;
  }
}

/**
 * Follows a job until it ends by reading `GET /jobs/:id`, with a live progress view when a person
 * watches. Answers the final job, failed or not; the caller decides what that means. Ctrl+C stops
 * following (exit 130) and says how to follow again: the job itself runs on, on the server.
 */
export async function followJob(context: CommandContext, job: Job, texts: JobTexts): Promise<Job> {
  const view = context.interactive
    ? (await import("./output/progress.tsx")).renderProgress(context.io, {
        label: texts.label,
        initial: jobState(job, texts),
        color: context.color,
      })
    : null;
  let stop: (() => void) | undefined;
  const interrupted = new Promise<never>((_, reject) => {
    stop = context.io.onInterrupt?.(() => reject(stoppedFollowing(job)));
  });
  let current = job;
  try {
    while (!isFinished(current)) {
      await Promise.race([sleep(JOB_POLL_MS), interrupted]);
      current = await Promise.race([context.api.call("job", { params: { id: job._id } }), interrupted]);
      view?.update(jobState(current, texts));
    }
  } catch (error) {
    await view?.close();
    throw error;
  } finally {
    stop?.();
  }
  const final = jobState(current, texts);
  await view?.finish(
    final.status === "succeeded" && texts.itemsFailed?.(current) ? { ...final, status: "failed" } : final,
  );
  return current;
}

function stoppedFollowing(job: Job): CliError {
  return new CliError(
    `Stopped following job ${job._id}; it keeps running. Follow it again: stockbridge jobs wait ${job._id}`,
    { exitCode: EXIT.interrupted },
  );
}

/**
 * Ends a command that followed a job: `--json` prints the final job; a failed job exits 1 with its
 * own message; otherwise the closing message, unless the progress view already showed it.
 */
export function endJob(context: CommandContext, job: Job, texts: JobTexts): void {
  const state = jobState(job, texts);
  if (context.json) printJson(context.io.stdout, job);
  if (job.status === "failed") {
    throw new CliError(state.message ?? texts.failed, { shown: context.interactive });
  }
  if (!context.json && !context.interactive && state.message) context.out(state.message);
}

function sleep(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}
