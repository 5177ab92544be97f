/**
 * The browser's IANA zone: schedules run on this wall clock and the dashboard counts its days in it.
 * Its own module, so the start-up code that asks the dashboard early does not carry the schedule form.
 */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}
