import type { DashboardDay } from "@stockbridge/shared";
import { format, parseISO } from "date-fns";

/** The series the chart stacks, bottom to top, with their legend names and colours (Tailwind 600s). */
export const RUN_SERIES = [
  { key: "successes", label: "Synced", color: "#16a34a" },
  { key: "failures", label: "Failed", color: "#dc2626" },
  { key: "skipped", label: "Skipped", color: "#9ca3af" },
] as const;

export type RunSeriesKey = (typeof RUN_SERIES)[number]["key"];

/** "Nov 21" for a YYYY-MM-DD day (a calendar date: read as local, never shifted by a zone). */
export function dayLabel(date: string): string {
  return format(parseISO(date), "MMM d");
}

/** What one day's bar says, in words: "Nov 21: 12 synced, 1 failed, 3 skipped in 2 runs". */
export function describeDay(day: DashboardDay): string {
  if (day.runs === 0) return `${dayLabel(day.date)}: no runs`;
  const runs = `${day.runs} run${day.runs === 1 ? "" : "s"}`;
  return `${dayLabel(day.date)}: ${day.successes} synced, ${day.failures} failed, ${day.skipped} skipped in ${runs}`;
}

/** The 30 days in one sentence, for the chart's description. */
export function summarizeDays(days: readonly DashboardDay[]): string {
  const total = (key: RunSeriesKey) => days.reduce((sum, day) => sum + day[key], 0);
  const runs = days.reduce((sum, day) => sum + day.runs, 0);
  if (runs === 0) return `No runs in the last ${days.length} days.`;
  return `${runs} runs in the last ${days.length} days: ${total("successes")} items synced, ${total("failures")} failed, ${total("skipped")} skipped.`;
}

/** Whole numbers with thousands separators, as the rest of the app shows counts. */
export function count(value: number): string {
  return value.toLocaleString("en-US");
}
