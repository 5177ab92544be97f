import type { SyncRun } from "@stockbridge/shared";
import type { Handlers } from "../http/contract-routes.ts";
import { NotFoundError } from "../http/errors.ts";
import type { MappingService } from "../mapping/service.ts";
import type { SyncEngine } from "./engine.ts";

/** `POST /mapping/:id/sync`: one mapping, synchronously; `dryRun` answers the plan and writes nothing. */
export function syncHandlers(deps: { engine: SyncEngine; mappings: Pick<MappingService, "get"> }): Handlers {
  return {
    syncMapping: async ({ caller, input }) => {
      const mapping = await deps.mappings.get(caller.userId, input.params.id);
      if (!mapping) throw new NotFoundError("Mapping not found");
      const run = await deps.engine.runSync({
        userId: caller.userId,
        scope: { mappingIds: [mapping._id] },
        syncOptions: input.body.syncOptions,
        trigger: "manual",
        dryRun: input.body.dryRun,
      });
      if (run.status === "failed" && run.cause) throw run.cause;
      const answer: SyncRun = { dryRun: run.dryRun, historyId: run.historyId, results: run.results };
      return answer;
    },
  };
}
