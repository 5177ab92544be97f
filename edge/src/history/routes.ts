import type { Handlers } from "../http/contract-routes.ts";
import type { ReviewService } from "./review-service.ts";
import type { HistoryService } from "./service.ts";

/** Thin adapters from the contract to execution history and the review of held runs. */
export function historyHandlers(history: HistoryService, review: ReviewService): Handlers {
  return {
    executionHistory: ({ caller, input }) => history.list(caller.userId, input.query),
    executionHistoryEntry: ({ caller, input }) => history.get(caller.userId, input.params.id),
    retryExecutionHistory: async ({ caller, input }) => ({
      job: await history.retry(caller.userId, input.params.id),
    }),
    executionPlan: ({ caller, input }) => review.plan(caller.userId, input.params.id, input.query),
    approveExecution: async ({ caller, input }) => ({
      job: await review.approve(caller.userId, input.params.id),
    }),
    discardExecution: ({ caller, input }) => review.discard(caller.userId, input.params.id),
  };
}
