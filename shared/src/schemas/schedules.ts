import * as v from "valibot";
import { HOUR_INTERVALS, MINUTE_INTERVALS, SCHEDULE_TYPES } from "../constants.ts";
import { IdSchema, noControlCharacters, PageQueryEntries } from "./common.ts";
import { SyncOptionsSchema } from "./mapping.ts";

const TimeSchema = v.pipe(v.string(), v.regex(/^([01]\d|2[0-3]):[0-5]\d$/, "time must be HH:MM (24-hour)"));

export const ScheduleSpecSchema = v.object({
  type: v.picklist(SCHEDULE_TYPES, `schedule.type must be one of ${SCHEDULE_TYPES.join(", ")}`),
  time: v.optional(v.nullable(TimeSchema), null),
  day: v.optional(v.nullable(v.pipe(v.number(), v.integer("schedule.day must be a whole number"))), null),
  interval: v.optional(
    v.nullable(v.picklist(HOUR_INTERVALS, `schedule.interval must be one of ${HOUR_INTERVALS.join(", ")}`)),
    null,
  ),
  minuteInterval: v.optional(
    v.nullable(
      v.picklist(MINUTE_INTERVALS, `schedule.minuteInterval must be one of ${MINUTE_INTERVALS.join(", ")}`),
    ),
    null,
  ),
});
export type ScheduleSpec = v.InferOutput<typeof ScheduleSpecSchema>;

export const ScheduleInputSchema = v.object({
  name: v.pipe(
    v.string("Schedule name is required"),
    v.trim(),
    v.nonEmpty("Schedule name is required"),
    v.maxLength(100, "Schedule name must be at most 100 characters"),
    noControlCharacters("Schedule name"),
  ),
  schedule: ScheduleSpecSchema,
  timezone: v.optional(v.pipe(v.string(), v.maxLength(64, "timezone is too long")), "UTC"),
  mappingIds: v.optional(v.array(IdSchema), []),
  isFullSync: v.boolean("isFullSync must be true or false"),
  syncOptions: SyncOptionsSchema,
  status: v.optional(v.picklist(["active", "inactive"], "status must be active or inactive"), "active"),
  /**
   * Read both sides and record drift, write nothing. Left out: false for a new schedule, unchanged
   * on an edit (a client that predates it must not turn a check into a sync that writes).
   */
  checkOnly: v.optional(v.boolean("checkOnly must be true or false")),
});
export type ScheduleInput = v.InferOutput<typeof ScheduleInputSchema>;

export const ScheduleSchema = v.object({
  _id: v.string(),
  name: v.string(),
  schedule: ScheduleSpecSchema,
  timezone: v.string(),
  mappingIds: v.array(v.string()),
  isFullSync: v.boolean(),
  syncOptions: v.object({ price: v.boolean(), quantity: v.boolean() }),
  status: v.picklist(["active", "inactive"]),
  lastRun: v.nullable(v.string()),
  nextRun: v.nullable(v.string()),
  checkOnly: v.boolean(),
  /**
   * Set when the schedule is active but more frequent than the plan includes (after a downgrade):
   * it does not run, and this says why; `nextRun` is then null.
   */
  pausedByPlan: v.optional(v.nullable(v.string()), null),
});
export type Schedule = v.InferOutput<typeof ScheduleSchema>;

export const ScheduleStatusInputSchema = v.object({
  status: v.picklist(["active", "inactive"], "status must be active or inactive"),
});
export const ScheduleListQuerySchema = v.object(PageQueryEntries);
export const ScheduleListSchema = v.object({
  schedules: v.array(ScheduleSchema),
  total: v.number(),
  page: v.number(),
  totalPages: v.number(),
});
