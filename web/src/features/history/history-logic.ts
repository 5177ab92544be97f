import { type ExecutionHistory, formatMoney, type HeldChange } from "@stockbridge/shared";
import { format } from "date-fns";
import type { ChipTone } from "../../ui/chip.tsx";

/** The schedule's name, else the spec's 'Unknown Schedule' (as for runs started by hand). */
export function scheduleDisplayName(entry: Pick<ExecutionHistory, "schedule">): string {
  return entry.schedule?.name || "Unknown Schedule";
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

/** The chip's words for a held run's states; other statuses read as stored. */
export function statusLabel(status: string): string {
  if (status === "held") return "Held for review";
  if (status === "discarded") return "Discarded";
  return status;
}

const FIELD_LABELS: Record<HeldChange["field"], string> = {
  price: "Price",
  compareAtPrice: "Compare-at price",
  quantity: "Quantity",
};

export function heldFieldLabel(field: HeldChange["field"]): string {
  return FIELD_LABELS[field];
}

/** A plan value: prices with two decimals ('None' for no compare-at price), quantities as units. */
export function heldValue(change: Pick<HeldChange, "field">, value: number | null): string {
  if (change.field === "quantity") return value === null ? "-" : String(value);
  return value === null ? "None" : formatMoney(value);
}

const RESULT_LABELS: Record<NonNullable<HeldChange["result"]>, string> = {
  written: "Written",
  unchanged: "Already set",
  changed: "Changed since: not written",
  failed: "Failed",
};

/** What approving did with a change; '-' before any decision. */
export function heldResultLabel(result: HeldChange["result"]): string {
  return result ? RESULT_LABELS[result] : "-";
}
