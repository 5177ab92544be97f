import type { Job } from "@stockbridge/shared";

/** How often a running job is read again (the screens show its progress live). */
export const JOB_POLL_MS = 500;

export function isJobFinished(job: Pick<Job, "status"> | null | undefined): boolean {
  return job?.status === "succeeded" || job?.status === "failed";
}

/** 0 to 100 when the job knows its total, otherwise undefined (an indeterminate bar). */
export function jobPercent(job: Pick<Job, "status" | "progress"> | null | undefined): number | undefined {
  if (!job) return undefined;
  if (job.status === "succeeded") return 100;
  const { done, total } = job.progress;
  if (total === null || total <= 0) return undefined;
  return Math.min(100, Math.max(0, (done / total) * 100));
}

/** "120 of 300", "120 so far", or "" before anything was counted. */
export function jobCountsText(progress: Job["progress"]): string {
  const done = progress.done.toLocaleString("en-US");
  if (progress.total !== null && progress.total > 0)
    return `${done} of ${progress.total.toLocaleString("en-US")}`;
  return progress.done > 0 ? `${done} so far` : "";
}

/** What a failed job says to the user: its own message, else the screen's catalogue default. */
export function jobFailureMessage(job: Pick<Job, "message"> | null | undefined, fallback: string): string {
  return job?.message?.trim() ? job.message : fallback;
}
