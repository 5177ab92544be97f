import type { Job } from "@stockbridge/shared";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useApi } from "../../lib/services-context.tsx";
import { isJobFinished } from "./job-logic.ts";
import { jobQuery } from "./queries.ts";

export interface JobCallbacks {
  /** The job ended with status `succeeded`. */
  onSucceeded?(job: Job): void;
  /** The job ended with status `failed` (`job` set), or could not be read at all (`job` null). */
  onFailed?(job: Job | null, error: unknown): void;
}

export interface JobProgressState {
  job: Job | undefined;
  /** A job is being followed and has not finished yet. */
  running: boolean;
}

/**
 * Follows one job (GET /jobs/:id every 500 ms) until it finishes, then calls `onSucceeded` or
 * `onFailed` once per job. `null` follows nothing. Generic: pulls, auto mapping and syncs alike.
 */
export function useJobProgress(jobId: string | null, callbacks: JobCallbacks = {}): JobProgressState {
  const api = useApi();
  const query = useQuery({ ...jobQuery(api, jobId ?? "none"), enabled: jobId !== null });
  const job = jobId !== null ? query.data : undefined;
  const callbacksRef = useRef(callbacks);
  callbacksRef.current = callbacks;
  const reported = useRef<string | null>(null);

  const finished = isJobFinished(job);
  // A job that cannot be read (deleted, another user's, server gone) ends the follow as a failure;
  // a failed read that will be retried is not an end yet.
  const lost = jobId !== null && query.isError && !query.isFetching;

  useEffect(() => {
    if (jobId === null || reported.current === jobId) return;
    if (finished && job) {
      reported.current = jobId;
      if (job.status === "succeeded") callbacksRef.current.onSucceeded?.(job);
      else callbacksRef.current.onFailed?.(job, new Error(job.message ?? "The job failed"));
    } else if (lost) {
      reported.current = jobId;
      callbacksRef.current.onFailed?.(null, query.error);
    }
  }, [jobId, job, finished, lost, query.error]);

  return { job, running: jobId !== null && !finished && !lost };
}
