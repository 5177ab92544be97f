import type { Job } from "@stockbridge/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { errorMessage } from "../../lib/errors.ts";
import { jobFailureMessage } from "./job-logic.ts";
import { jobKeys } from "./queries.ts";
import { useJobProgress } from "./use-job-progress.ts";

export interface JobRunnerOptions {
  /** Names the work ("shopify-pull", "auto-map"): one followed job per scope, kept across navigation. */
  scope: string;
  /** The POST that answers `{ job }`. */
  start(): Promise<{ job: Job }>;
  onSucceeded(job: Job): void;
  /** The start was refused, the job failed, or it could not be read; `message` is ready to show. */
  onFailed(message: string, job: Job | null): void;
  /** The catalogue default when neither the server nor the job gave a message. */
  failureMessage: string;
}

export interface JobRunner {
  start(): void;
  job: Job | undefined;
  /** Starting or running: the screen disables its button and shows the progress. */
  running: boolean;
}

/**
 * Starts long work and follows its job. The followed job's id lives in the query cache under
 * `jobKeys.active(scope)`, so leaving the screen and coming back still shows the running job.
 */
export function useJobRunner(options: JobRunnerOptions): JobRunner {
  const queryClient = useQueryClient();
  const activeKey = jobKeys.active(options.scope);
  const active = useQuery({
    queryKey: activeKey,
    queryFn: () => null as string | null,
    enabled: false,
    meta: { persist: false },
  });
  const jobId = active.data ?? null;

  const finish = () => queryClient.setQueryData<string | null>(activeKey, null);
  const progress = useJobProgress(jobId, {
    onSucceeded(job) {
      finish();
      options.onSucceeded(job);
    },
    onFailed(job, error) {
      finish();
      options.onFailed(
        job ? jobFailureMessage(job, options.failureMessage) : errorMessage(error, options.failureMessage),
        job,
      );
    },
  });

  const starter = useMutation({
    mutationFn: () => options.start(),
    onSuccess({ job }) {
      queryClient.setQueryData(jobKeys.detail(job._id), job);
      queryClient.setQueryData<string | null>(activeKey, job._id);
    },
    onError(error) {
      options.onFailed(errorMessage(error, options.failureMessage), null);
    },
  });

  return {
    start: () => {
      if (!starter.isPending && !progress.running) starter.mutate();
    },
    job: progress.job,
    running: starter.isPending || progress.running,
  };
}
