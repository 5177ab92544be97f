import {
  type ExecutionHistory,
  fromCents,
  type HeldPlan,
  type Job,
  notHeldForReview,
} from "@stockbridge/shared";
import { ConflictError, NotFoundError } from "../errors.ts";
import type { JobRunner } from "../jobs/runner.ts";
import { startApprovedRun } from "../sync/sync-job.ts";
import type { HeldRepo, StoredHeldChange } from "./held-repo.ts";
import type { HistoryRepo } from "./repo.ts";

const ENTRY_NOT_FOUND = "Execution history entry not found";
const NOT_HELD = "This run was not held for review, so it has no plan";

export interface ReviewServiceDeps {
  held: HeldRepo;
  history: HistoryRepo;
  jobs: JobRunner;
  now: () => Date;
  /** How long the entry lives without a renewal once approved (the applying job renews it). */
  runLeaseMs: number;
}

/**
 * The review of runs the safety limits held: read the plan, approve it (applied once, as a sync
 * job), or discard it. Approve and discard each move the entry out of `held` with one conditional
 * write, so whatever arrives first wins and every later call is told why not (409).
 */
export function createReviewService(deps: ReviewServiceDeps) {
  /** 404 for a run that is not the user's (or none), else 409 saying what became of it. */
  async function refusal(userId: string, id: string, action: "approve" | "discard"): Promise<Error> {
    const entry = await deps.history.get(userId, id);
    if (!entry) return new NotFoundError(ENTRY_NOT_FOUND);
    return new ConflictError(notHeldForReview(action, entry.review?.decision ?? entry.status));
  }

  return {
    async plan(userId: string, id: string, query: { page: number; limit: number }): Promise<HeldPlan> {
      const entry = await deps.history.get(userId, id);
      if (!entry) throw new NotFoundError(ENTRY_NOT_FOUND);
      if (!entry.review) throw new NotFoundError(NOT_HELD);
      const total = entry.review.changes;
      const rows = await deps.held.page(id, { offset: (query.page - 1) * query.limit, limit: query.limit });
      return {
        changes: rows.map(toHeldChange),
        total,
        page: query.page,
        totalPages: Math.ceil(total / query.limit),
      };
    },

    async approve(userId: string, id: string): Promise<Job> {
      const at = deps.now();
      const claimed = await deps.held.claim(userId, id, {
        decidedAt: at.toISOString(),
        leaseUntil: new Date(at.getTime() + deps.runLeaseMs).toISOString(),
      });
      if (!claimed) throw await refusal(userId, id, "approve");
      try {
        return await startApprovedRun(deps, { userId, historyId: id });
      } catch (error) {
        // The plan was not started (a sync is running): it stays held, to approve once that ends.
        await deps.held.unclaim(userId, id);
        throw error;
      }
    },

    async discard(userId: string, id: string): Promise<ExecutionHistory> {
      const discarded = await deps.held.discard(userId, id, deps.now().toISOString());
      if (!discarded) throw await refusal(userId, id, "discard");
      const entry = await deps.history.get(userId, id);
      if (!entry) throw new NotFoundError(ENTRY_NOT_FOUND);
      return entry;
    },
  };
}

export type ReviewService = ReturnType<typeof createReviewService>;

function toHeldChange(change: StoredHeldChange) {
  const value = (cents: number | null) =>
    change.field === "quantity" || cents === null ? cents : fromCents(cents);
  return {
    mappingId: change.mappingId,
    shopifySku: change.shopifySku,
    acumaticaSku: change.acumaticaSku,
    field: change.field,
    location: change.locationName ?? change.locationId,
    from: value(change.from),
    to: value(change.to),
    result: change.result,
    note: change.note,
  };
}
