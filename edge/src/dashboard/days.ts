import { nextRun } from "@stockbridge/shared";

/** One calendar day in a time zone: its date and the instants it starts and ends at (ISO, UTC). */
export interface CalendarDay {
  date: string;
  start: string;
  end: string;
}

const MIDNIGHT = { type: "daily", time: "00:00", day: null, interval: null, minuteInterval: null } as const;

/**
 * The last `count` calendar days in `timeZone`, oldest first, today last. Days start at local
 * midnight (a 23- or 25-hour day across DST; where midnight does not exist, the first minute after
 * the gap), found with the schedule's own next-run rule.
 */
export function lastDays(timeZone: string, now: Date, count: number): CalendarDay[] {
  const starts: Date[] = [];
  // Two days of margin: `count + 2` midnights always reach back past the first day asked for.
  let cursor = new Date(now.getTime() - (count + 2) * 86_400_000);
  for (;;) {
    const midnight = nextRun(MIDNIGHT, timeZone, cursor);
    if (midnight.getTime() > now.getTime()) {
      starts.push(midnight);
      break;
    }
    starts.push(midnight);
    cursor = midnight;
  }
  // The last start is tomorrow's: it ends today.
  const bounds = starts.slice(-(count + 1));
  const label = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  });
  return bounds.slice(0, -1).map((start, index) => ({
    date: label.format(start),
    start: start.toISOString(),
    end: bounds[index + 1]!.toISOString(),
  }));
}
