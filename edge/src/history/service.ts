import type { ExecutionHistory, ExecutionHistoryList, Job, SyncOptions } from "@stockbridge/shared";
import { MESSAGES } from "@stockbridge/shared";
import { ConflictError, NotFoundError, ValidationError } from "../errors.ts";
import { SYNC_BUSY } from "../sync/sync-job.ts";
import type { HistoryRepo } from "./repo.ts";
import { RUN_STOPPED } from "./run-lease.ts";

/** Starts a sync job (the sync feature's `startSyncJob`): 409 while one of the user's syncs runs. */
export type StartRetrySync = (input: {
  userId: string;
  mappingIds: string[];
  syncOptions: SyncOptions;
  retryOf: string;
}) => Promise<Job>;

const NOT_FOUND = "Execution history entry not found";

/**
 * Execution history: reads, and retrying a run's failed mappings. The sync engine writes entries
 * through the repo's start/finish. A read first ends the reader's entries whose run stopped with
 * its process (lease run out), so no instance has to be ticking for a dead run to show as failed.
 */
export function createHistoryService(deps: {
  repo: HistoryRepo;
  now: () => Date;
  startSync: StartRetrySync;
}) {
  async function endStoppedRuns(userId: string) {
    const now = deps.now().toISOString();
    await deps.repo.failExpired(now, { endDate: now, error: RUN_STOPPED }, userId);
  }

  return {
    async list(userId: string, query: { page: number; limit: number }): Promise<ExecutionHistoryList> {
      await endStoppedRuns(userId);
      const { histories, total } = await deps.repo.page(userId, {
        offset: (query.page - 1) * query.limit,
        limit: query.limit,
      });
      return { histories, total, page: query.page, totalPages: Math.ceil(total / query.limit) };
    },

    async get(userId: string, id: string): Promise<ExecutionHistory> {
      await endStoppedRuns(userId);
      const entry = await deps.repo.get(userId, id);
      if (!entry) throw new NotFoundError(NOT_FOUND);
      return entry;
    },

    /**
     * Starts a sync of exactly the run's failed mappings that still exist, with the run's options;
     * the new entry carries `retryOf`. Refused while the run itself still runs (409), when it has
     * nothing to retry (400), and, by the job runner, while another sync of the user runs (409).
     */
    async retry(userId: string, id: string): Promise<Job> {
      await endStoppedRuns(userId);
      const source = await deps.repo.retrySource(userId, id);
      if (!source) throw new NotFoundError(NOT_FOUND);
      if (source.status === "running") {
        // A run of a job is a sync in progress: the same 409 as any sync start, naming the job.
        if (source.jobId) throw new ConflictError(SYNC_BUSY, { jobId: source.jobId });
        throw new ConflictError(MESSAGES.history.stillRunning);
      }
      if (source.failureCount === 0) throw nothingToRetry(MESSAGES.history.nothingToRetry);
      if (!source.syncOptions) throw nothingToRetry(MESSAGES.history.retryOptionsUnknown);
      const mappingIds = await deps.repo.failedMappingIds(userId, id);
      if (mappingIds.length === 0) throw nothingToRetry(MESSAGES.history.retryMappingsGone);
      return deps.startSync({ userId, mappingIds, syncOptions: source.syncOptions, retryOf: id });
    },
  };
}

export type HistoryService = ReturnType<typeof createHistoryService>;

/** A 400 naming the path's id: the run exists but offers nothing a retry could do. */
function nothingToRetry(message: string): ValidationError {
  return new ValidationError(message, [{ path: "id", message }]);
}
