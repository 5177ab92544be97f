import {
  type CurrentPlan,
  HOUR_INTERVALS,
  MINUTE_INTERVALS,
  NO_PLAN_LIMITS,
  type Plan,
  type Schedule,
  type ScheduleInput,
  type ScheduleSpec,
  type Subscription,
  scheduleLimitMessage,
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

/** Last / next run in the browser's zone, in the spec's 'MMM d, yyyy HH:mm'. */
export function formatRunTime(iso: string | null, empty: string): string {
  if (!iso) return empty;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? empty : format(date, "MMM d, yyyy HH:mm");
}

/** The schedule a form state describes (the request's `schedule`). */
export function specOf(form: ScheduleFormState): ScheduleSpec {
  return scheduleInputOf(form, "UTC").schedule;
}

/** The least frequent schedule of a type: if the plan refuses it, it refuses the whole type. */
function loosest(type: ScheduleType): ScheduleSpec {
  const none = { time: "00:00", day: 1, interval: null, minuteInterval: null };
  if (type === "minutely")
    return { ...none, type, time: null, day: null, minuteInterval: MINUTE_INTERVALS.at(-1)! };
  if (type === "hourly") return { ...none, type, time: null, day: null, interval: HOUR_INTERVALS.at(-1)! };
  return { ...none, type };
}

/** What the subscriber's plan lets the schedule form offer, with the API's words for what it does not. */
interface PlanChoices {
  /** The 403 text the API would answer for this schedule; null when the plan allows it. */
  refusal(spec: ScheduleSpec): string | null;
  typeAllowed(type: ScheduleType): boolean;
  minutesAllowed(minutes: MinuteInterval): boolean;
  hoursAllowed(hours: HourInterval): boolean;
  /** Why some choices are off (the fastest schedule's refusal), or null when all are allowed. */
  note: string | null;
}

/**
 * The plan's choices from the user's subscription (its stored limits, as the edge enforces them)
 * and the offered plans (for the plan to upgrade to; none while they load).
 */
export function planChoices(
  subscription: Subscription | null | undefined,
  plans: readonly Plan[],
): PlanChoices {
  const current: CurrentPlan | null = subscription
    ? {
        planId: subscription.planId,
        planName: subscription.planName,
        // A session stored before plans had limits has none: the server still checks.
        limits: subscription.limits ?? NO_PLAN_LIMITS,
      }
    : null;
  const refusal = (spec: ScheduleSpec) => (current ? scheduleLimitMessage(current, spec, plans) : null);
  const blank = { time: null, day: null, interval: null, minuteInterval: null };
  return {
    refusal,
    typeAllowed: (type) => refusal(loosest(type)) === null,
    minutesAllowed: (minutes) => refusal({ ...blank, type: "minutely", minuteInterval: minutes }) === null,
    hoursAllowed: (hours) => refusal({ ...blank, type: "hourly", interval: hours }) === null,
    note: refusal({ ...blank, type: "minutely", minuteInterval: MINUTE_INTERVALS[0] }),
  };
}
