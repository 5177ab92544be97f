import type { Job } from "@stockbridge/shared";
import { cn } from "../../ui/cn.ts";
import { ProgressBar } from "../../ui/progress-bar.tsx";
import { jobCountsText, jobPercent } from "./job-logic.ts";

export interface JobProgressProps {
  /** The followed job; undefined while it is being started (an indeterminate bar). */
  job: Job | undefined;
  /** Accessible name of the bar ("Fetching Shopify products"). */
  label: string;
  className?: string;
}

/** A running job: its phase, its counts and a bar (determinate once the job knows its total). */
export function JobProgress({ job, label, className }: JobProgressProps) {
  const phase = job?.progress.phase || "Starting";
  const counts = job ? jobCountsText(job.progress) : "";
  return (
    <div className={cn("rounded-lg bg-white px-4 py-3 shadow-sm ring-1 ring-gray-200", className)}>
      <div className="mb-2 flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 text-sm">
        <p className="font-medium text-gray-800" aria-live="polite">
          {phase}
        </p>
        {counts ? <p className="text-gray-600 tabular-nums">{counts}</p> : null}
      </div>
      <ProgressBar label={label} value={jobPercent(job)} className="h-1.5" />
    </div>
  );
}
