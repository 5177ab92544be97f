import type { Job } from "@stockbridge/shared";
import { useQuery } from "@tanstack/react-query";
import { isNetworkError } from "../../lib/errors.ts";
import { useApi } from "../../lib/services-context.tsx";

const POLL_MS = 500;

export function isJobFinished(job: Pick<Job, "status"> | undefined): boolean {
  return job?.status === "succeeded" || job?.status === "failed";
}

/**
 * Follows a job (auto mapping) by polling GET /jobs/:id every 500 ms until it ends. Jobs are
 * per-run state: never persisted, and the screen reports the outcome itself.
 */
export function useJob(job: Job | null) {
  const api = useApi();
  return useQuery({
    queryKey: ["jobs", job?._id ?? "none"],
    queryFn: () => api.call("job", { params: { id: job?._id ?? "" } }),
    enabled: job !== null,
    ...(job ? { initialData: job } : {}),
    staleTime: 0,
    // A lost connection keeps polling; any other failure (the job is gone) ends the follow.
    refetchInterval: (query) => {
      if (isJobFinished(query.state.data)) return false;
      if (query.state.status === "error" && !isNetworkError(query.state.error)) return false;
      return POLL_MS;
    },
    retry: false,
    meta: { persist: false, silent: true },
  });
}

/** Progress as a percentage, or undefined while the total is not known yet (indeterminate bar). */
export function jobPercent(job: Job | undefined): number | undefined {
  const total = job?.progress.total;
  if (!job || total === null || total === undefined || total <= 0) return undefined;
  return (job.progress.done / total) * 100;
}
