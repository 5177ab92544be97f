import type { SyncRun } from "@stockbridge/shared";
import { NotFoundError } from "../errors.ts";
import type { Handlers } from "../http/contract-routes.ts";
import type { JobRunner } from "../jobs/runner.ts";
import type { SlotGate } from "../jobs/slots.ts";
import type { MappingService } from "../mapping/service.ts";
import type { SyncEngine } from "./engine.ts";
import type { SyncRepo } from "./repo.ts";
import { startSyncJob } from "./sync-job.ts";

/** How many unknown ids a 404 lists before it only counts the rest. */
const IDS_SHOWN = 5;

/**
 * `POST /mapping/:id/sync`: one mapping, synchronously; `dryRun` answers the plan and writes nothing.
 * `POST /mapping/sync`: the named mappings, or all of them, as one job (one execution-history run).
 * One user's single-mapping syncs run one at a time, in order, on every instance: a burst of Sync
 * clicks takes one Acumatica seat, leaving the connection's others to pulls, tests and schedules.
 */
export function syncHandlers(deps: {
  engine: SyncEngine;
  jobs: JobRunner;
  mappings: Pick<MappingService, "get">;
  repo: Pick<SyncRepo, "unknownIds">;
  slots: Pick<SlotGate, "hold">;
}): Handlers {
  return {
    syncMapping: async ({ caller, input }) => {
      const mapping = await deps.mappings.get(caller.userId, input.params.id);
      if (!mapping) throw new NotFoundError("Mapping not found");
      const run = await deps.slots.hold(`mapping-sync:${caller.userId}`, {
        limit: 1,
        work: () =>
          deps.engine.runSync({
            userId: caller.userId,
            scope: { mappingIds: [mapping._id] },
            syncOptions: input.body.syncOptions,
            trigger: "manual",
            dryRun: input.body.dryRun,
            // Its user is watching the answer: the safety limits hold only runs nobody watches.
            watched: true,
          }),
      });
      if (run.status === "failed" && run.cause) throw run.cause;
      const answer: SyncRun = { dryRun: run.dryRun, historyId: run.historyId, results: run.results };
      return answer;
    },

    syncMappings: async ({ caller, input }) => {
      const { mappingIds, syncOptions, dryRun, reconcile } = input.body;
      // Checked before the job starts: a typo answers at once instead of as a failed item later.
      if (mappingIds) {
        const unknown = await deps.repo.unknownIds(caller.userId, mappingIds);
        if (unknown.length > 0) throw new NotFoundError(notFoundText(unknown));
      }
      const job = await startSyncJob(
        { jobs: deps.jobs },
        {
          userId: caller.userId,
          scope: mappingIds ? { mappingIds } : "all",
          syncOptions,
          trigger: "manual",
          dryRun,
          reconcile,
        },
      );
      return { job };
    },
  };
}

/** Names the caller's own ids back; another user's mapping reads exactly like one that never existed. */
function notFoundText(ids: readonly string[]): string {
  const shown = ids.slice(0, IDS_SHOWN).join(", ");
  const more = ids.length > IDS_SHOWN ? ` and ${ids.length - IDS_SHOWN} more` : "";
  const what = ids.length === 1 ? "Mapping not found" : `${ids.length} mappings not found`;
  return `Cannot sync: ${what}: ${shown}${more}`;
}
