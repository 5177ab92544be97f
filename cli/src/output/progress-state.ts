import type { Job } from "@stockbridge/shared";
import { formatCount } from "./format.ts";

/** What a progress view shows: a job's progress, or a run the CLI drives itself (sync). */
export interface ProgressState {
  phase: string;
  done: number;
  total: number | null;
  status: "running" | "succeeded" | "failed";
  /** The closing message (the spec's success text, or why it failed). */
  message: string | null;
}

export function isFinished(job: Pick<Job, "status">): boolean {
  return job.status === "succeeded" || job.status === "failed";
}

/** A job as a progress state; `fallback` stands in when a finished job carries no message of its own. */
export function jobState(job: Job, fallback: { succeeded: string; failed: string }): ProgressState {
  const status = job.status === "succeeded" || job.status === "failed" ? job.status : "running";
  const message = status === "running" ? null : job.message?.trim() || fallback[status];
  return { phase: job.progress.phase, done: job.progress.done, total: job.progress.total, status, message };
}

/** "120 of 300", "120 so far", or "" before anything was counted (as the web's job panel). */
export function countsText(state: Pick<ProgressState, "done" | "total">): string {
  if (state.total !== null && state.total > 0)
    return `${formatCount(state.done)} of ${formatCount(state.total)}`;
  return state.done > 0 ? `${formatCount(state.done)} so far` : "";
}

/** A text bar `width` cells wide; full when the run succeeded, empty while the total is unknown. */
export function progressBar(state: Pick<ProgressState, "done" | "total" | "status">, width = 30): string {
  let share = 0;
  if (state.status === "succeeded") share = 1;
  else if (state.total !== null && state.total > 0)
    share = Math.min(1, Math.max(0, state.done / state.total));
  const filled = Math.round(share * width);
  return `${"█".repeat(filled)}${"░".repeat(width - filled)}`;
}
