import type { ExecutionHistory } from "@stockbridge/shared";
import { format } from "date-fns";
import type { ChipTone } from "../../ui/chip.tsx";

/** The schedule's name, else the spec's 'Unknown Schedule' (as for runs started by hand). */
export function scheduleDisplayName(entry: Pick<ExecutionHistory, "schedule">): string {
  return entry.schedule?.name || "Unknown Schedule";
}

/** What a run left differing from the ERP; a check says first that it wrote nothing. */
export function driftNote(entry: Pick<ExecutionHistory, "checkOnly" | "drifted">): string {
  const check = entry.checkOnly
    ? "Check only: both sides were read and nothing was written to Shopify. "
    : "";
  if (entry.drifted === null) return check.trim();
  const differ =
    entry.drifted === 0
      ? "Every mapping matched the ERP."
      : `${entry.drifted} ${entry.drifted === 1 ? "mapping differs" : "mappings differ"} from the ERP.`;
  return `${check}${differ}`;
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
