import { type Job, MESSAGES } from "@stockbridge/shared";
import { useQueryClient } from "@tanstack/react-query";
import { toast } from "../../ui/toast.tsx";
import { useJobRunner } from "../jobs/use-job-runner.ts";

/**
 * 'Get Products': starts the pull job, follows it, and on success toasts 'Products synchronized
 * successfully' and reloads every page of that system's list (and the dashboard's count).
 */
export function useProductPull(options: {
  scope: "shopify-pull" | "acumatica-pull";
  start(): Promise<{ job: Job }>;
  listKey: readonly unknown[];
  failureMessage: string;
}) {
  const queryClient = useQueryClient();
  return useJobRunner({
    scope: options.scope,
    start: options.start,
    failureMessage: options.failureMessage,
    onSucceeded() {
      // The toast comes with the new rows: the visible pages are re-read first.
      void queryClient
        .invalidateQueries({ queryKey: options.listKey })
        .finally(() => toast.success(MESSAGES.products.synchronized));
    },
    onFailed(message) {
      toast.error(message);
    },
  });
}
