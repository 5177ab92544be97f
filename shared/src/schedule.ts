import type { ScheduleSpec } from "./schemas/schedules.ts";

/**
 * Schedule text (spec section 9) and next-run computation. Daily / weekly / monthly times are
 * wall-clock times in the schedule's IANA time zone, right across DST: a time that does not exist on
 * a spring-forward day runs at the first minute after the gap; a repeated fall-back time runs once,
 * at its first occurrence. Monthly day 29-31 runs on a shorter month's last day. Weekly day 1 = Monday.
 */
export function describeSchedule(spec: ScheduleSpec): string {
  const time = spec.time ?? "00:00";
  switch (spec.type) {
    case "minutely":
      return `Every ${spec.minuteInterval ?? 15} minutes`;
    case "hourly":
      return `Every ${spec.interval ?? 1} hour(s)`;
    case "daily":
      return `Daily at ${time}`;
    case "weekly":
      return `Weekly on day ${spec.day ?? 1} at ${time}`;
    case "monthly":
      return `Monthly on day ${spec.day ?? 1} at ${time}`;
  }
}

/** Problems with a schedule's fields, in words a person can act on (empty when valid). */
export function scheduleSpecErrors(spec: ScheduleSpec): string[] {
  const errors: string[] = [];
  if (spec.type === "minutely" && !spec.minuteInterval)
    errors.push("Minutely schedules need an interval of 15, 30 or 45 minutes");
  if (spec.type === "hourly" && !spec.interval)
    errors.push("Hourly schedules need an interval of 1, 2, 4, 6, 8 or 12 hours");
  if ((spec.type === "daily" || spec.type === "weekly" || spec.type === "monthly") && !spec.time) {
    errors.push("Daily, weekly and monthly schedules need a time (HH:MM)");
  }
  if (
    spec.type === "weekly" &&
    !(spec.day !== null && spec.day !== undefined && spec.day >= 1 && spec.day <= 7)
  ) {
    errors.push("Weekly schedules need a day from 1 (Monday) to 7 (Sunday)");
  }
  if (
    spec.type === "monthly" &&
    !(spec.day !== null && spec.day !== undefined && spec.day >= 1 && spec.day <= 31)
  ) {
    errors.push("Monthly schedules need a day from 1 to 31");
  }
  return errors;
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** The first run strictly after `after`. */
export function nextRun(spec: ScheduleSpec, timeZone: string, after: Date): Date {
  const local = wallClock(after, timeZone);
  if (spec.type === "minutely" || spec.type === "hourly") {
    // Intervals are aligned to local midnight (every 15 minutes = :00, :15, :30, :45), found by
    // stepping whole minutes from the next minute; at most one day of steps, usually a few.
    const stepMinutes = spec.type === "minutely" ? (spec.minuteInterval ?? 15) : (spec.interval ?? 1) * 60;
    let candidate = new Date(Math.floor(after.getTime() / 60_000) * 60_000 + 60_000);
    for (let i = 0; i < 1_500; i += 1) {
      const parts = wallClock(candidate, timeZone);
      if ((parts.hour * 60 + parts.minute) % stepMinutes === 0) return candidate;
      candidate = new Date(candidate.getTime() + 60_000);
    }
    return candidate;
  }
  const [hour, minute] = (spec.time ?? "00:00").split(":").map(Number) as [number, number];
  // Walk forward day by day (at most ~62 days for monthly) and take the first matching day whose
  // wall-clock time lies after `after`.
  for (let offset = 0; offset <= 62; offset += 1) {
    const day = addDays(local, offset);
    if (!dayMatches(spec, day)) continue;
    const instant = zonedTimeToUtc({ ...day, hour, minute }, timeZone);
    if (instant.getTime() > after.getTime()) return instant;
  }
  throw new Error(`No next run found for ${describeSchedule(spec)}`);
}

interface CalendarDay {
  year: number;
  month: number;
  day: number;
}

function dayMatches(spec: ScheduleSpec, date: CalendarDay): boolean {
  if (spec.type === "daily") return true;
  if (spec.type === "weekly") {
    const weekday = new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay(); // 0 = Sunday
    return (weekday === 0 ? 7 : weekday) === (spec.day ?? 1);
  }
  const lastDay = new Date(Date.UTC(date.year, date.month, 0)).getUTCDate();
  return date.day === Math.min(spec.day ?? 1, lastDay);
}

function addDays(from: CalendarDay, days: number): CalendarDay {
  const date = new Date(Date.UTC(from.year, from.month - 1, from.day + days));
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

interface WallClock extends CalendarDay {
  hour: number;
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock reading of an instant in a time zone. */
function wallClock(instant: Date, timeZone: string): WallClock {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
    });
    formatters.set(timeZone, formatter);
  }
  const parts: Record<string, number> = {};
  for (const part of formatter.formatToParts(instant))
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
  };
}

/**
 * The instant at which a zone's clocks show `local`. Inside a spring-forward gap it moves forward by
 * the gap; for a repeated fall-back time it returns the first (earlier) instant.
 */
function zonedTimeToUtc(local: WallClock, timeZone: string): Date {
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
  // Try the offsets in force around that time; keep the earliest instant that reads back exactly.
  const offsets = new Set([
    offsetMinutes(new Date(asUtc - 86_400_000), timeZone),
    offsetMinutes(new Date(asUtc + 86_400_000), timeZone),
  ]);
  const matches = [...offsets]
    .map((offset) => asUtc - offset * 60_000)
    .filter((candidate) => sameWallClock(wallClock(new Date(candidate), timeZone), local))
    .sort((a, b) => a - b);
  if (matches[0] !== undefined) return new Date(matches[0]);
  // Nonexistent local time (spring forward): use the offset from before the gap, which lands after it.
  return new Date(asUtc - offsetMinutes(new Date(asUtc - 86_400_000), timeZone) * 60_000);
}

function offsetMinutes(instant: Date, timeZone: string): number {
  const local = wallClock(instant, timeZone);
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
  return Math.round((asUtc - Math.floor(instant.getTime() / 60_000) * 60_000) / 60_000);
}

function sameWallClock(a: WallClock, b: WallClock): boolean {
  return (
    a.year === b.year && a.month === b.month && a.day === b.day && a.hour === b.hour && a.minute === b.minute
  );
}
