import * as v from "valibot";
import { EXECUTION_HISTORY_PAGE_SIZE } from "../constants.ts";
import { queryInteger } from "./common.ts";

/**
 * A run's outcome: `completed` when no item failed, `partial` when some failed and some succeeded,
 * `failed` when none succeeded or the run failed as a whole, `held` when a safety limit stopped it
 * before any write.
 */
export const EXECUTION_STATUSES = ["running", "completed", "failed", "partial", "held"] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

export const FailedMappingSchema = v.object({
  mappingId: v.nullable(v.string()),
  shopifySku: v.string(),
  acumaticaSku: v.string(),
  error: v.string(),
});

/** An item the run left alone on purpose (untracked, not stocked, a bundle, prices off...), with why. */
export const SkippedMappingSchema = v.object({
  mappingId: v.nullable(v.string()),
  shopifySku: v.string(),
  acumaticaSku: v.string(),
  reason: v.string(),
});

const ExecutionHistoryEntries = {
  _id: v.string(),
  schedule: v.nullable(v.object({ _id: v.nullable(v.string()), name: v.string() })),
  trigger: v.picklist(["manual", "schedule"]),
  startDate: v.string(),
  endDate: v.nullable(v.string()),
  successCount: v.number(),
  failureCount: v.number(),
  skippedCount: v.number(),
  status: v.picklist(EXECUTION_STATUSES),
  error: v.nullable(v.string()),
  failedMappings: v.array(FailedMappingSchema),
  /** What the run synced; null for runs recorded before the options were kept (they cannot be retried). */
  syncOptions: v.nullable(v.object({ price: v.boolean(), quantity: v.boolean() })),
  /** The run whose failed mappings this run retried. */
  retryOf: v.nullable(v.string()),
};

/** A run as the history list shows it: counts and failures, without the (often long) list of skips. */
export const ExecutionHistorySummarySchema = v.object(ExecutionHistoryEntries);
export type ExecutionHistorySummary = v.InferOutput<typeof ExecutionHistorySummarySchema>;

/** One run with every failed and every skipped mapping. */
export const ExecutionHistorySchema = v.object({
  ...ExecutionHistoryEntries,
  skippedMappings: v.array(SkippedMappingSchema),
});
export type ExecutionHistory = v.InferOutput<typeof ExecutionHistorySchema>;

export const ExecutionHistoryQuerySchema = v.object({
  page: queryInteger("page", 1, 1, 1_000_000),
  limit: queryInteger("limit", EXECUTION_HISTORY_PAGE_SIZE, 1, 100),
});

/** Execution history answers at the top level (spec section 7), not under `data`. */
export const ExecutionHistoryListSchema = v.object({
  histories: v.array(ExecutionHistorySummarySchema),
  total: v.number(),
  page: v.number(),
  totalPages: v.number(),
});
export type ExecutionHistoryList = v.InferOutput<typeof ExecutionHistoryListSchema>;
