import type { Job } from "@stockbridge/shared";
import type { CommandContext } from "./context.ts";
import { CliError } from "./errors.ts";
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
}

/**
 * Follows a job until it ends by reading `GET /jobs/:id`, with a live progress view when a person
 * watches. Answers the final job, failed or not; the caller decides what that means.
 */
export async function followJob(context: CommandContext, job: Job, texts: JobTexts): Promise<Job> {
  const view = context.interactive
    ? (await import("./output/progress.tsx")).renderProgress(context.io, texts.label, jobState(job, texts))
    : null;
  let current = job;
  try {
    while (!isFinished(current)) {
      await sleep(JOB_POLL_MS);
      current = await context.api.call("job", { params: { id: job._id } });
      view?.update(jobState(current, texts));
    }
  } catch (error) {
    await view?.close();
    throw error;
  }
  await view?.finish(jobState(current, texts));
  return current;
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
