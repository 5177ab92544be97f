import type { ExecutionHistory, ExecutionHistoryList } from "@stockbridge/shared";
import { NotFoundError } from "../http/errors.ts";
import type { HistoryRepo } from "./repo.ts";
import { RUN_STOPPED } from "./run-lease.ts";

/**
 * Read side of execution history; the sync engine writes it through the repo's start/finish. A
 * read first ends the reader's entries whose run stopped with its process (lease run out), so no
 * instance has to be ticking for a dead run to show as failed.
 */
export function createHistoryService(deps: { repo: HistoryRepo; now: () => Date }) {
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
      if (!entry) throw new NotFoundError("Execution history entry not found");
      return entry;
    },
  };
}

export type HistoryService = ReturnType<typeof createHistoryService>;
