/** Texts shared by the commands' human output. Dates are shown in the machine's time zone. */

const DATE_TIME = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});
const DATE_TIME_SECONDS = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});
const SHORT_DATE = new Intl.DateTimeFormat("en-US", { month: "numeric", day: "numeric", year: "2-digit" });

/** 'MMM d, yyyy HH:mm' as the spec's last-synced format (with seconds for run times); '-' for none. */
export function formatDateTime(iso: string | null | undefined, options: { seconds?: boolean } = {}): string {
  const date = parseDate(iso);
  if (!date) return "-";
  const parts = (options.seconds ? DATE_TIME_SECONDS : DATE_TIME).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  const time = options.seconds
    ? `${part("hour")}:${part("minute")}:${part("second")}`
    : `${part("hour")}:${part("minute")}`;
  return `${part("month")} ${part("day")}, ${part("year")} ${time}`;
}

/** en-US short date (mapping "Last Updated"), e.g. 11/21/26; '-' for none. */
export function formatShortDate(iso: string | null | undefined): string {
  const date = parseDate(iso);
  return date ? SHORT_DATE.format(date) : "-";
}

export function formatCount(value: number): string {
  return value.toLocaleString("en-US");
}

/** "1 mapping" / "3 mappings". */
export function plural(count: number, noun: string, many = `${noun}s`): string {
  return `${formatCount(count)} ${count === 1 ? noun : many}`;
}

function parseDate(iso: string | null | undefined): Date | null {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}
