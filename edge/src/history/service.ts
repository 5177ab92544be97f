import type { ExecutionHistory, ExecutionHistoryList } from "@stockbridge/shared";
import { NotFoundError } from "../http/errors.ts";
import type { HistoryRepo } from "./repo.ts";

/** Read side of execution history; the sync engine writes it through the repo's start/finish. */
export function createHistoryService(deps: { repo: HistoryRepo }) {
  return {
    async list(userId: string, query: { page: number; limit: number }): Promise<ExecutionHistoryList> {
      const { histories, total } = await deps.repo.page(userId, {
        offset: (query.page - 1) * query.limit,
        limit: query.limit,
      });
      return { histories, total, page: query.page, totalPages: Math.ceil(total / query.limit) };
    },

    async get(userId: string, id: string): Promise<ExecutionHistory> {
      const entry = await deps.repo.get(userId, id);
      if (!entry) throw new NotFoundError("Execution history entry not found");
      return entry;
    },
  };
}

export type HistoryService = ReturnType<typeof createHistoryService>;
