import * as v from "valibot";
import { EXECUTION_HISTORY_PAGE_SIZE } from "../constants.ts";
import { queryInteger } from "./common.ts";

export const EXECUTION_STATUSES = ["running", "completed", "failed"] as const;

export const FailedMappingSchema = v.object({
  mappingId: v.nullable(v.string()),
  shopifySku: v.string(),
  acumaticaSku: v.string(),
  error: v.string(),
});

export const ExecutionHistorySchema = v.object({
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
  checkOnly: v.pipe(
    v.boolean(),
    v.description("A check-only schedule's run: both sides read, drift recorded, nothing written."),
  ),
  drifted: v.pipe(
    v.nullable(v.number()),
    v.description("Mappings of the run that still differ from the ERP after it; null when not recorded."),
  ),
});
export type ExecutionHistory = v.InferOutput<typeof ExecutionHistorySchema>;

export const ExecutionHistoryQuerySchema = v.object({
  page: queryInteger("page", 1, 1, 1_000_000),
  limit: queryInteger("limit", EXECUTION_HISTORY_PAGE_SIZE, 1, 100),
});

/** Execution history answers at the top level (spec section 7), not under `data`. */
export const ExecutionHistoryListSchema = v.object({
  histories: v.array(ExecutionHistorySchema),
  total: v.number(),
  page: v.number(),
  totalPages: v.number(),
});
export type ExecutionHistoryList = v.InferOutput<typeof ExecutionHistoryListSchema>;
