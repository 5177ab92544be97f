import type { ExecutionHistorySummary, HeldChange, Job, SyncJobResult } from "@stockbridge/shared";
import { formatMoney, MESSAGES, readSyncJobResult } from "@stockbridge/shared";
import { format } from "date-fns";
import type { ChipTone } from "../../ui/chip.tsx";

/** The schedule's name, else the spec's 'Unknown Schedule' (as for runs started by hand). */
export function scheduleDisplayName(entry: Pick<ExecutionHistorySummary, "schedule">): string {
  return entry.schedule?.name || "Unknown Schedule";
}

/** What a run left differing from the ERP; a check says first that it wrote nothing. */
export function driftNote(entry: Pick<ExecutionHistorySummary, "checkOnly" | "drifted">): string {
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

/**
 * For a sync of every mapping that read only what changed: since when, and how many of its
 * mappings it read (those it counted); null for a run that read every mapping in scope.
 */
export function changesNote(
  entry: Pick<ExecutionHistorySummary, "changesSince" | "successCount" | "failureCount" | "skippedCount">,
): string | null {
  if (!entry.changesSince) return null;
  const read = entry.successCount + entry.failureCount + entry.skippedCount;
  const count = (value: number) => value.toLocaleString("en-US");
  return `Read only what changed since ${formatRunDate(entry.changesSince.since)}: ${count(read)} of ${count(entry.changesSince.mappings)} mappings. Every mapping is read at least once a day.`;
}

/** completed = success style, running = primary (with a spinner), anything else = error style. */
export function statusTone(status: string): ChipTone {
  if (status === "completed") return "success";
  if (status === "running") return "primary";
  return "error";
}

const STATUS_LABELS: Record<string, string> = {
  completed: "Completed",
  partial: "Completed with failures",
  failed: "Failed",
  held: "Held for review",
  discarded: "Discarded",
};

/** What the status chip reads; `running` (and anything unknown) as the spec shows it. */
export function statusLabel(status: string): string {
  return STATUS_LABELS[status] ?? status;
}

/** Start and end of a run, to the second (runs are often seconds apart); '-' when there is none. */
export function formatRunDate(iso: string | null | undefined): string {
  if (!iso) return "-";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "-" : format(date, "MMM d, yyyy HH:mm:ss");
}

/**
 * Whether 'Retry failed' applies to a run, and why not when it is shown but cannot be used:
 * hidden while the run runs or when nothing failed; disabled (with the reason) for a run recorded
 * before sync options were kept.
 */
export function retryAvailability(
  entry: Pick<ExecutionHistorySummary, "status" | "failureCount" | "syncOptions">,
): { shown: false } | { shown: true; disabledReason: string | null } {
  if (entry.status === "running" || entry.status === "held" || entry.failureCount === 0)
    return { shown: false };
  if (!entry.syncOptions)
    return {
      shown: true,
      disabledReason:
        "This run was recorded before its sync options were kept: sync from Product Mapping instead.",
    };
  return { shown: true, disabledReason: null };
}

/** The toast a finished retry shows: its own closing message, in error style when items failed again. */
export function retryOutcomeToast(job: Job): { tone: "success" | "error"; text: string } {
  const result: SyncJobResult | null = readSyncJobResult(job.result);
  const failed = (result?.failure ?? 0) > 0;
  const fallback = failed
    ? "Some mappings failed again; see Execution History"
    : MESSAGES.mapping.synchronized;
  return { tone: failed ? "error" : "success", text: job.message ?? fallback };
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
