import type { ExecutionHistory } from "@stockbridge/shared";
import { format } from "date-fns";
import type { ChipTone } from "../../ui/chip.tsx";

/** The schedule's name; runs started by hand from the mapping screen have none. */
export function scheduleDisplayName(entry: Pick<ExecutionHistory, "schedule" | "trigger">): string {
  if (entry.schedule?.name) return entry.schedule.name;
  return entry.trigger === "manual" ? "Manual sync" : "Unknown Schedule";
}

/** completed = success style, running = primary (with a spinner), anything else = error style. */
export function statusTone(status: string): ChipTone {
  if (status === "completed") return "success";
  if (status === "running") return "primary";
  return "error";
}

/** Start and end of a run, to the second (runs are often seconds apart); '-' when there is none. */
export function formatRunDate(iso: string | null | undefined): string {
  if (!iso) return "-";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "-" : format(date, "MMM d, yyyy HH:mm:ss");
}
