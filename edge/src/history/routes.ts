import type { Handlers } from "../http/contract-routes.ts";
import type { HistoryService } from "./service.ts";

/** Thin adapters from the contract to execution history. */
export function historyHandlers(history: HistoryService): Handlers {
  return {
    executionHistory: ({ caller, input }) => history.list(caller.userId, input.query),
    executionHistoryEntry: ({ caller, input }) => history.get(caller.userId, input.params.id),
    retryExecutionHistory: async ({ caller, input }) => ({
      job: await history.retry(caller.userId, input.params.id),
    }),
  };
}
