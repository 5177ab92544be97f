import { type AutoMapResult, AutoMapResultSchema, type Job, MESSAGES } from "@stockbridge/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import * as v from "valibot";
import { errorMessage, isNetworkError } from "../../lib/errors.ts";
import { useApi } from "../../lib/services-context.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { ProgressBar } from "../../ui/progress-bar.tsx";
import { toast } from "../../ui/toast.tsx";
import { mappingKeys } from "./queries.ts";
import { isJobFinished, jobPercent, useJob } from "./use-job.ts";

/**
 * Auto mapping as a job: start it, follow its progress, then toast, refresh both tabs and keep
 * the report (created, already mapped, duplicate SKUs skipped) for the report dialog.
 */
export function useAutoMapping() {
  const api = useApi();
  const queryClient = useQueryClient();
  const [job, setJob] = useState<Job | null>(null);
  const [report, setReport] = useState<AutoMapResult | null>(null);
  const followed = useJob(job);
  const handled = useRef<string | null>(null);

  const start = useMutation({
    mutationFn: () => api.call("autoMap"),
    onSuccess: ({ job: started }) => setJob(started),
    onError: (error) => toast.error(errorMessage(error, MESSAGES.mapping.autoMapFailed)),
  });

  const current = followed.data ?? job ?? undefined;
  useEffect(() => {
    if (!job || handled.current === job._id) return;
    // Polling stops on any failure but a lost connection: then the job cannot be followed.
    const lost = followed.isError && !isNetworkError(followed.error);
    if (!isJobFinished(current) && !lost) return;
    handled.current = job._id;
    setJob(null);
    void queryClient.invalidateQueries({ queryKey: mappingKeys.all });
    if (current?.status === "succeeded") {
      toast.success(MESSAGES.mapping.autoMapped);
      const parsed = v.safeParse(AutoMapResultSchema, current.result);
      if (parsed.success) setReport(parsed.output);
    } else {
      toast.error(current?.message || errorMessage(followed.error, MESSAGES.mapping.autoMapFailed));
    }
  }, [job, current, followed.isError, followed.error, queryClient]);

  return {
    start: () => start.mutate(),
    starting: start.isPending,
    /** The job while it runs (null once it ended). */
    running: job ? (current ?? job) : null,
    report,
    closeReport: () => setReport(null),
  };
}

/** The progress panel shown while auto mapping runs. */
export function AutoMappingProgress({ job }: { job: Job }) {
  const total = job.progress.total;
  return (
    <div className="mb-4 rounded-lg bg-white p-4 shadow-sm ring-1 ring-gray-200" role="status">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2 text-sm">
        <p className="font-medium text-gray-900">Auto mapping: {job.progress.phase || "Starting"}</p>
        {total ? (
          <p className="text-gray-600 tabular-nums">
            {job.progress.done} of {total}
          </p>
        ) : null}
      </div>
      <ProgressBar label="Auto mapping progress" value={jobPercent(job)} className="h-2" />
    </div>
  );
}

/** What auto mapping did: created, already mapped, and the SKUs it would not guess between. */
export function AutoMapReportDialog({ report, onClose }: { report: AutoMapResult | null; onClose(): void }) {
  const shopify = report?.duplicateSkus.shopify ?? [];
  const acumatica = report?.duplicateSkus.acumatica ?? [];
  return (
    <Dialog
      open={report !== null}
      onClose={onClose}
      title="Auto Mapping Report"
      footer={<Button onClick={onClose}>Close</Button>}
    >
      {report ? (
        <div className="flex flex-col gap-4 text-sm">
          <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
            <Stat label="Mappings created" value={report.created} />
            <Stat label="Already mapped" value={report.alreadyMapped} />
            <Stat label="Duplicate SKUs skipped" value={shopify.length + acumatica.length} />
          </dl>
          {shopify.length + acumatica.length > 0 ? (
            <div className="flex flex-col gap-3">
              <p className="text-gray-700">
                A SKU that appears more than once in a system is never matched automatically. Map these by
                hand.
              </p>
              <SkuList title="Duplicate SKUs in Shopify" skus={shopify} />
              <SkuList title="Duplicate SKUs in Acumatica" skus={acumatica} />
            </div>
          ) : null}
        </div>
      ) : null}
    </Dialog>
  );
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-md bg-gray-50 p-3 ring-1 ring-gray-200">
      <dt className="text-gray-600">{label}</dt>
      <dd className="text-xl font-semibold text-gray-900 tabular-nums">{value}</dd>
    </div>
  );
}

function SkuList({ title, skus }: { title: string; skus: readonly string[] }) {
  if (skus.length === 0) return null;
  return (
    <section>
      <h3 className="mb-1 font-medium text-gray-900">
        {title} ({skus.length})
      </h3>
      <ul aria-label={title} className="flex max-h-40 flex-wrap gap-1.5 overflow-y-auto">
        {skus.map((sku) => (
          <li
            key={sku}
            className="rounded bg-amber-50 px-2 py-0.5 font-mono text-xs text-amber-900 ring-1 ring-amber-200"
          >
            {sku}
          </li>
        ))}
      </ul>
    </section>
  );
}
