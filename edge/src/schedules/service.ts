import {
  isValidTimeZone,
  nextRun,
  planAllowsSchedule,
  type Schedule,
  type ScheduleInput,
  schedulePausedByPlan,
  scheduleSpecErrors,
} from "@stockbridge/shared";
import type { PlanGate } from "../billing/plan-gate.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import type { ScheduleRecord, SchedulesRepo, ScheduleWrite } from "./repo.ts";

export interface ScheduleServiceDeps {
  repo: SchedulesRepo;
  /** What the plan allows: an active schedule may not run more often than that. */
  plans: PlanGate;
  now: () => Date;
  newId: () => string;
}

const NOT_FOUND = "Schedule not found";

/** Mapping schedules: the rules of the form (spec section 5) checked again here, and nextRun kept current. */
export function createScheduleService(deps: ScheduleServiceDeps) {
  /** The checks the shared schema cannot make: the spec's per-type fields, the zone, the mappings. */
  async function validated(
    userId: string,
    input: ScheduleInput,
    current: ScheduleRecord | null = null,
  ): Promise<ScheduleWrite> {
    const specErrors = scheduleSpecErrors(input.schedule);
    if (specErrors.length > 0) {
      throw new ValidationError(
        specErrors[0]!,
        specErrors.map((message) => ({ path: "schedule", message })),
      );
    }
    if (!isValidTimeZone(input.timezone)) {
      const message = `timezone "${input.timezone}" is not a known IANA time zone`;
      throw new ValidationError(message, [{ path: "timezone", message }]);
    }
    // A full sync runs every mapping at run time; a list kept beside it would only go stale.
    const mappingIds = input.isFullSync ? [] : [...new Set(input.mappingIds)];
    if (!input.isFullSync) {
      if (mappingIds.length === 0) {
        const message = "Select at least one mapping, or turn on Full Sync";
        throw new ValidationError(message, [{ path: "mappingIds", message }]);
      }
      const owned = await deps.repo.ownedMappingIds(userId, mappingIds);
      const unknown = mappingIds.filter((id) => !owned.has(id));
      if (unknown.length > 0) {
        const message = `mappingIds contains ${unknown.length} mapping(s) that do not exist: ${unknown.slice(0, 3).join(", ")}`;
        throw new ValidationError(message, [{ path: "mappingIds", message }]);
      }
    }
    // Only a schedule that will run must fit the plan: an inactive one may be kept and edited.
    if (input.status === "active") await deps.plans.assertSchedule(userId, input.schedule);
    return {
      name: input.name,
      schedule: normalizedSpec(input.schedule),
      timezone: input.timezone,
      mappingIds,
      isFullSync: input.isFullSync,
      syncOptions: { price: input.syncOptions.price, quantity: input.syncOptions.quantity },
      status: input.status,
      nextRun: input.status === "active" ? nextRunOf(input.schedule, input.timezone) : null,
      // Left out by a client that predates it: an edit keeps it (a check must not start writing).
      checkOnly: input.checkOnly ?? current?.checkOnly ?? false,
    };
  }

  function nextRunOf(spec: ScheduleInput["schedule"], timeZone: string): string {
    return nextRun(spec, timeZone, deps.now()).toISOString();
  }

  /**
   * An active schedule the plan no longer allows (after a downgrade) does not run (the tick skips
   * it): the list says why instead of showing a next run that will not happen.
   */
  async function withPlanPauses(userId: string, schedules: Schedule[]): Promise<Schedule[]> {
    const plan = await deps.plans.current(userId);
    if (!plan) return schedules;
    const paused = new Map<string, string>();
    for (const schedule of schedules) {
      if (schedule.status !== "active" || planAllowsSchedule(plan.limits, schedule.schedule)) continue;
      const refusal = await deps.plans.scheduleRefusal(userId, schedule.schedule);
      if (refusal) paused.set(schedule._id, schedulePausedByPlan(refusal));
    }
    return schedules.map((schedule) => {
      const reason = paused.get(schedule._id);
      return reason ? { ...schedule, nextRun: null, pausedByPlan: reason } : schedule;
    });
  }

  async function found(userId: string, id: string): Promise<ScheduleRecord> {
    const record = await deps.repo.find(userId, id);
    if (!record) throw new NotFoundError(NOT_FOUND);
    return record;
  }

  return {
    withPlanPauses,

    async create(userId: string, input: ScheduleInput): Promise<Schedule> {
      const write = await validated(userId, input);
      return view(await deps.repo.insert(userId, deps.newId(), { write, now: deps.now().toISOString() }));
    },

    async update(userId: string, id: string, input: ScheduleInput): Promise<Schedule> {
      const current = await found(userId, id);
      const write = await validated(userId, input, current);
      if (!(await deps.repo.update(userId, id, { write, now: deps.now().toISOString() })))
        throw new NotFoundError(NOT_FOUND);
      return view(await found(userId, id));
    },

    async setStatus(userId: string, id: string, status: "active" | "inactive"): Promise<Schedule> {
      const current = await found(userId, id);
      if (status === "active") await deps.plans.assertSchedule(userId, current.schedule);
      const next = status === "active" ? nextRunOf(current.schedule, current.timezone) : null;
      if (!(await deps.repo.setStatus(userId, id, { status, nextRun: next, now: deps.now().toISOString() })))
        throw new NotFoundError(NOT_FOUND);
      return view(await found(userId, id));
    },

    async remove(userId: string, id: string): Promise<void> {
      if (!(await deps.repo.remove(userId, id))) throw new NotFoundError(NOT_FOUND);
    },

    async list(
      userId: string,
      query: { page: number; limit: number; search: string },
    ): Promise<{ schedules: Schedule[]; total: number; page: number; totalPages: number }> {
      const { schedules, total } = await deps.repo.page(userId, {
        offset: (query.page - 1) * query.limit,
        limit: query.limit,
        search: query.search,
      });
      return {
        schedules: await withPlanPauses(userId, schedules.map(view)),
        total,
        page: query.page,
        totalPages: Math.ceil(total / query.limit),
      };
    },
  };
}

export type ScheduleService = ReturnType<typeof createScheduleService>;

/** Keeps only the fields the type uses, so a stored schedule never carries a stale day or interval. */
function normalizedSpec(spec: ScheduleInput["schedule"]): ScheduleInput["schedule"] {
  const timed = spec.type === "daily" || spec.type === "weekly" || spec.type === "monthly";
  return {
    type: spec.type,
    time: timed ? (spec.time ?? null) : null,
    day: spec.type === "weekly" || spec.type === "monthly" ? (spec.day ?? null) : null,
    interval: spec.type === "hourly" ? (spec.interval ?? null) : null,
    minuteInterval: spec.type === "minutely" ? (spec.minuteInterval ?? null) : null,
  };
}

/** The API shape (the contract's output): no owner column. */
export function view(record: ScheduleRecord): Schedule {
  const { userId: _owner, ...schedule } = record;
  return { ...schedule, pausedByPlan: null };
}
