import { cn } from "./cn.ts";

export interface ProgressBarProps {
  /** Accessible name ("Loading", "Pulling products"). */
  label: string;
  /** 0 to 100; leave out for an indeterminate bar. */
  value?: number | undefined;
  className?: string;
}

/** A thin progress bar: determinate with `value`, otherwise a moving stripe. */
export function ProgressBar({ label, value, className }: ProgressBarProps) {
  const clamped = value === undefined ? undefined : Math.min(100, Math.max(0, value));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={clamped === undefined ? undefined : Math.round(clamped)}
      className={cn("relative h-1 w-full overflow-hidden rounded-full bg-accent-100", className)}
    >
      {clamped === undefined ? (
        <div className="animate-progress absolute inset-y-0 left-0 w-2/5 rounded-full bg-accent-600" />
      ) : (
        <div
          className="h-full rounded-full bg-accent-600 transition-[width]"
          style={{ width: `${clamped}%` }}
        />
      )}
    </div>
  );
}
