import type { Job } from "@stockbridge/shared";
import type { Handlers } from "../http/contract-routes.ts";
import type { MappingService } from "./service.ts";

export interface MappingRouteDeps {
  mappings: MappingService;
  /** Queues auto mapping as a job and answers it at once; the job's result is an AutoMapResult. */
  startAutoMap(userId: string): Promise<Job>;
}

/** Thin adapters from the contract to the mapping service. */
export function mappingHandlers(deps: MappingRouteDeps): Handlers {
  const { mappings } = deps;
  return {
    autoMap: async ({ caller }) => ({ job: await deps.startAutoMap(caller.userId) }),
    manualMap: ({ caller, input }) => mappings.createManual(caller.userId, input.body),
    updateMapping: ({ caller, input }) => mappings.update(caller.userId, input.params.id, input.body),
    deleteMapping: async ({ caller, input }) => {
      await mappings.remove(caller.userId, input.params.id);
      return { ok: true as const };
    },
    unmapped: ({ caller, input }) => mappings.unmapped(caller.userId, input.query),
    mappingHistory: ({ caller, input }) => mappings.history(caller.userId, input.query),
    mappingSelector: ({ caller, input }) => mappings.selector(caller.userId, input.query),
    mappingsByIds: async ({ caller, input }) => ({
      mappings: await mappings.byIds(caller.userId, input.body.mappingIds),
    }),
  };
}
