import { type AutoMapResult, AutoMapResultSchema, type Job, MESSAGES } from "@stockbridge/shared";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import * as v from "valibot";
import { useApi } from "../../lib/services-context.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { toast } from "../../ui/toast.tsx";
import { JobProgress } from "../jobs/job-progress.tsx";
import { useJobRunner } from "../jobs/use-job-runner.ts";
import { mappingKeys } from "./queries.ts";

/**
 * Auto mapping as a job (features/jobs): start it, follow its progress, then toast, refresh both
 * tabs and keep the report (created, already mapped, duplicate SKUs skipped) for the report dialog.
 */
export function useAutoMapping() {
  const api = useApi();
  const queryClient = useQueryClient();
  const [report, setReport] = useState<AutoMapResult | null>(null);
  const runner = useJobRunner({
    scope: "auto-map",
    start: () => api.call("autoMap"),
    failureMessage: MESSAGES.mapping.autoMapFailed,
    onSucceeded(job) {
      toast.success(MESSAGES.mapping.autoMapped);
      const parsed = v.safeParse(AutoMapResultSchema, job.result);
      if (parsed.success) setReport(parsed.output);
      void queryClient.invalidateQueries({ queryKey: mappingKeys.all });
    },
    onFailed(message) {
      toast.error(message);
      // A failed run may still have created some mappings before it stopped.
      void queryClient.invalidateQueries({ queryKey: mappingKeys.all });
    },
  });

  return {
    start: runner.start,
    running: runner.running,
    job: runner.job,
    report,
    closeReport: () => setReport(null),
  };
}

/** The progress panel shown while auto mapping runs. */
export function AutoMappingProgress({ job }: { job: Job | undefined }) {
  return <JobProgress job={job} label="Auto mapping progress" className="mb-4" />;
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
          {report.overPlanLimit > 0 ? (
            <p role="note" className="rounded-md bg-amber-50 p-3 text-amber-900 ring-1 ring-amber-200">
              {report.overPlanLimit} matching {report.overPlanLimit === 1 ? "pair was" : "pairs were"} not
              mapped. {report.planLimit}
            </p>
          ) : null}
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
