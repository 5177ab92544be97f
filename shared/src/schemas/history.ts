import * as v from "valibot";
import { EXECUTION_HISTORY_PAGE_SIZE } from "../constants.ts";
import { queryInteger } from "./common.ts";

/**
 * A run's outcome: `completed` when no item failed, `partial` when some failed and some succeeded,
 * `failed` when none succeeded or the run failed as a whole, `held` when a safety limit stopped it
 * before any write (approve applies its plan, discard drops it, and the entry stays `discarded`).
 */
export const EXECUTION_STATUSES = ["running", "completed", "failed", "partial", "held", "discarded"] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

export const FailedMappingSchema = v.object({
  mappingId: v.nullable(v.string()),
  shopifySku: v.string(),
  acumaticaSku: v.string(),
  error: v.string(),
});

/**
 * A held run's review. An approved run goes on in the same entry (running, then its outcome), so
 * one run stays one entry; a discarded one stays `discarded`, its reasons and plan kept as the record.
 */
export const HeldReviewSchema = v.object({
  reasons: v.array(v.string()),
  heldAt: v.string(),
  /** Field changes in the plan (price, compare-at price and quantity each count). */
  changes: v.number(),
  decision: v.nullable(v.picklist(["approved", "discarded"])),
  decidedAt: v.nullable(v.string()),
});
export type HeldReview = v.InferOutput<typeof HeldReviewSchema>;

/** An item the run left alone on purpose (untracked, not stocked, a bundle, prices off...), with why. */
export const SkippedMappingSchema = v.object({
  mappingId: v.nullable(v.string()),
  shopifySku: v.string(),
  acumaticaSku: v.string(),
  reason: v.string(),
});

/** A sync of every mapping that read only what changed: since when (ISO), and how many mappings it had. */
export const ChangesSinceSchema = v.object({ since: v.string(), mappings: v.number() });
export type ChangesSince = v.InferOutput<typeof ChangesSinceSchema>;

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
  /** Only on a run the safety limits held: why, when, its plan's size and what was decided. */
  review: v.optional(HeldReviewSchema),
  /** What the run synced; null for runs recorded before the options were kept (they cannot be retried). */
  syncOptions: v.nullable(v.object({ price: v.boolean(), quantity: v.boolean() })),
  /** The run whose failed mappings this run retried. */
  retryOf: v.nullable(v.string()),
  checkOnly: v.pipe(
    v.boolean(),
    v.description("A check-only schedule's run: both sides read, drift recorded, nothing written."),
  ),
  drifted: v.pipe(
    v.nullable(v.number()),
    v.description("Mappings of the run that still differ from the ERP after it; null when not recorded."),
  ),
  changesSince: v.optional(
    v.pipe(
      ChangesSinceSchema,
      v.description(
        "Only on a sync of every mapping that read only what changed: since when, and how many mappings it had (the counts are of those it read).",
      ),
    ),
  ),
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
  page: queryInteger("page", { fallback: 1, min: 1, max: 1_000_000 }),
  limit: queryInteger("limit", { fallback: EXECUTION_HISTORY_PAGE_SIZE, min: 1, max: 100 }),
});

/** Execution history answers at the top level (spec section 7), not under `data`. */
export const ExecutionHistoryListSchema = v.object({
  histories: v.array(ExecutionHistorySummarySchema),
  total: v.number(),
  page: v.number(),
  totalPages: v.number(),
});
export type ExecutionHistoryList = v.InferOutput<typeof ExecutionHistoryListSchema>;

/**
 * What approving did with one change: `written`; `unchanged` (Shopify already held the new value);
 * `changed` (Shopify no longer held the value the plan saw: not written); `failed` (Shopify refused,
 * or the variant or mapping is gone). Null until the plan is approved.
 */
export const HELD_CHANGE_RESULTS = ["written", "unchanged", "changed", "failed"] as const;

/** One change of a held plan: prices in dollars, quantities in units; `location` for quantities. */
export const HeldChangeSchema = v.object({
  mappingId: v.string(),
  shopifySku: v.string(),
  acumaticaSku: v.string(),
  field: v.picklist(["price", "compareAtPrice", "quantity"]),
  location: v.nullable(v.string()),
  from: v.nullable(v.number()),
  to: v.nullable(v.number()),
  result: v.nullable(v.picklist(HELD_CHANGE_RESULTS)),
  note: v.nullable(v.string()),
});
export type HeldChange = v.InferOutput<typeof HeldChangeSchema>;

export const HeldPlanQuerySchema = v.object({
  page: queryInteger("page", { fallback: 1, min: 1, max: 1_000_000 }),
  limit: queryInteger("limit", { fallback: 10, min: 1, max: 100 }),
});

export const HeldPlanSchema = v.object({
  changes: v.array(HeldChangeSchema),
  total: v.number(),
  page: v.number(),
  totalPages: v.number(),
});
export type HeldPlan = v.InferOutput<typeof HeldPlanSchema>;
