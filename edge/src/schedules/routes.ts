import type { Handlers } from "../http/contract-routes.ts";
import type { ScheduleService } from "./service.ts";

/** Thin adapters from the contract to the schedule service. */
export function scheduleHandlers(schedules: ScheduleService): Handlers {
  return {
    createSchedule: ({ caller, input }) => schedules.create(caller.userId, input.body),
    listSchedules: ({ caller, input }) => schedules.list(caller.userId, input.query),
    setScheduleStatus: ({ caller, input }) =>
      schedules.setStatus(caller.userId, input.params.id, input.body.status),
    updateSchedule: ({ caller, input }) => schedules.update(caller.userId, input.params.id, input.body),
    deleteSchedule: async ({ caller, input }) => {
      await schedules.remove(caller.userId, input.params.id);
      return { ok: true as const };
    },
  };
}
