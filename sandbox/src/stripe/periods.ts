export type Interval = "day" | "week" | "month" | "year";
export const INTERVALS: readonly Interval[] = ["day", "week", "month", "year"];

const DAY = 86_400;

/**
 * The end of period `count` after `anchor` (unix seconds), the way Stripe bills: months keep the
 * anchor's day and clamp to the month's last day (Jan 31 -> Feb 28 -> Mar 31), so periods are
 * always computed from the anchor, never from the previous period's end.
 */
export function addIntervals(anchor: number, interval: Interval, count: number): number {
  if (interval === "day") return anchor + count * DAY;
  if (interval === "week") return anchor + count * 7 * DAY;
  const months = interval === "year" ? count * 12 : count;
  const start = new Date(anchor * 1000);
  const year = start.getUTCFullYear();
  const month = start.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(start.getUTCDate(), lastDay);
  const end = Date.UTC(year, month, day, start.getUTCHours(), start.getUTCMinutes(), start.getUTCSeconds());
  return Math.floor(end / 1000);
}

export function daysToSeconds(days: number): number {
  return days * DAY;
}
