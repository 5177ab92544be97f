import type {
  HOUR_INTERVALS,
  MINUTE_INTERVALS,
  Schedule,
  ScheduleInput,
  ScheduleSpec,
} from "@stockbridge/shared";
import { format } from "date-fns";

export type ScheduleType = ScheduleSpec["type"];
export type MinuteInterval = (typeof MINUTE_INTERVALS)[number];
export type HourInterval = (typeof HOUR_INTERVALS)[number];

/** What the dialog edits; every type's field is kept so switching types back and forth loses nothing. */
export interface ScheduleFormState {
  name: string;
  type: ScheduleType;
  time: string;
  weekday: number;
  monthDay: number;
  interval: HourInterval;
  minuteInterval: MinuteInterval;
  price: boolean;
  quantity: boolean;
  isFullSync: boolean;
  mappingIds: string[];
  /** Read both sides and record drift; write nothing. */
  checkOnly: boolean;
}

export const SCHEDULE_TYPE_LABELS: Record<ScheduleType, string> = {
  minutely: "Minutely",
  hourly: "Hourly",
  daily: "Daily",
  weekly: "Weekly",
  monthly: "Monthly",
};

/** Weekly day 1 = Monday (ARCHITECTURE "Schedules"). */
export const WEEKDAYS = [
  "Monday",
  "Tuesday",
  "Wednesday",
  "Thursday",
  "Friday",
  "Saturday",
  "Sunday",
] as const;

/** Spec section 5: daily at 00:00, full sync on, no sync options. */
export function newScheduleForm(): ScheduleFormState {
  return {
    name: "",
    type: "daily",
    time: "00:00",
    weekday: 1,
    monthDay: 1,
    interval: 1,
    minuteInterval: 15,
    price: false,
    quantity: false,
    isFullSync: true,
    mappingIds: [],
    checkOnly: false,
  };
}

export function formFromSchedule(schedule: Schedule): ScheduleFormState {
  const spec = schedule.schedule;
  const base = newScheduleForm();
  return {
    name: schedule.name,
    type: spec.type,
    time: spec.time ?? base.time,
    weekday: spec.type === "weekly" && spec.day ? spec.day : base.weekday,
    monthDay: spec.type === "monthly" && spec.day ? spec.day : base.monthDay,
    interval: spec.interval ?? base.interval,
    minuteInterval: spec.minuteInterval ?? base.minuteInterval,
    price: schedule.syncOptions.price,
    quantity: schedule.syncOptions.quantity,
    isFullSync: schedule.isFullSync,
    mappingIds: [...schedule.mappingIds],
    // A schedule cached before the field existed has none: it was a sync.
    checkOnly: schedule.checkOnly ?? false,
  };
}

/** Spec section 5: a name, a mapping unless Full Sync, and at least one of price / quantity. */
export function canSubmitSchedule(form: ScheduleFormState): boolean {
  if (!form.name.trim()) return false;
  if (!form.isFullSync && form.mappingIds.length === 0) return false;
  if (!form.price && !form.quantity) return false;
  const timed = form.type === "daily" || form.type === "weekly" || form.type === "monthly";
  return !timed || /^([01]\d|2[0-3]):[0-5]\d$/.test(form.time);
}

/** The request body; only the chosen type's fields are sent. */
export function scheduleInputOf(
  form: ScheduleFormState,
  timezone: string,
  status: Schedule["status"] = "active",
): ScheduleInput {
  const timed = form.type === "daily" || form.type === "weekly" || form.type === "monthly";
  return {
    name: form.name.trim(),
    schedule: {
      type: form.type,
      time: timed ? form.time : null,
      day: form.type === "weekly" ? form.weekday : form.type === "monthly" ? form.monthDay : null,
      interval: form.type === "hourly" ? form.interval : null,
      minuteInterval: form.type === "minutely" ? form.minuteInterval : null,
    },
    timezone,
    isFullSync: form.isFullSync,
    mappingIds: form.isFullSync ? [] : form.mappingIds,
    syncOptions: { price: form.price, quantity: form.quantity },
    status,
    checkOnly: form.checkOnly,
  };
}

/** The browser's IANA zone: schedules run on this wall clock. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

/** Last / next run in the browser's zone, in the spec's 'MMM d, yyyy HH:mm'. */
export function formatRunTime(iso: string | null, empty: string): string {
  if (!iso) return empty;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? empty : format(date, "MMM d, yyyy HH:mm");
}
