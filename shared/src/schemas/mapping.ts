import * as v from "valibot";
import { MESSAGES } from "../messages.ts";
import { IdSchema, PageQueryEntries, queryInteger, SortDirectionSchema } from "./common.ts";
import { ChangesSinceSchema } from "./history.ts";

export const MAPPING_TYPES = ["exact-sku", "manual"] as const;

export const MappingSchema = v.object({
  _id: v.string(),
  /** `missing` is true when the pull no longer found the variant: the mapping is shown as broken. */
  shopifyDetails: v.object({
    _id: v.nullable(v.string()),
    variantId: v.string(),
    sku: v.string(),
    missing: v.boolean(),
  }),
  acumaticaDetails: v.object({
    _id: v.nullable(v.string()),
    acumaticaId: v.string(),
    sku: v.string(),
    missing: v.boolean(),
  }),
  mappingType: v.picklist(MAPPING_TYPES),
  updatedAt: v.string(),
  lastSyncedAt: v.nullable(v.string()),
});
export type Mapping = v.InferOutput<typeof MappingSchema>;

export const MappingInputSchema = v.object({
  shopifyVariantId: v.pipe(
    v.string("shopifyVariantId is required"),
    v.trim(),
    v.nonEmpty("shopifyVariantId is required"),
    v.maxLength(200, "shopifyVariantId is too long"),
  ),
  acumaticaProductId: v.pipe(
    v.string("acumaticaProductId is required"),
    v.trim(),
    v.nonEmpty("acumaticaProductId is required"),
    v.maxLength(200, "acumaticaProductId is too long"),
  ),
});
export type MappingInput = v.InferOutput<typeof MappingInputSchema>;

export const MappingHistoryQuerySchema = v.object(PageQueryEntries);
export const MappingHistorySchema = v.object({
  mappings: v.array(MappingSchema),
  total: v.number(),
  page: v.number(),
  totalPages: v.number(),
});
export type MappingHistory = v.InferOutput<typeof MappingHistorySchema>;

/** The deepest row a list of unmapped products may be read from (far beyond any catalog). */
export const UNMAPPED_OFFSET_MAX = 10_000_000;

/**
 * `GET /mapping/unmapped`: one page of each list, paged independently by row offset (a screen
 * that shows both lists as one table starts the second where the first ends, which is rarely a
 * page boundary of it). Without parameters: the first 10 of each, SKU descending.
 */
export const UnmappedQuerySchema = v.object({
  limit: PageQueryEntries.limit,
  shopifyOffset: queryInteger("shopifyOffset", { fallback: 0, min: 0, max: UNMAPPED_OFFSET_MAX }),
  acumaticaOffset: queryInteger("acumaticaOffset", { fallback: 0, min: 0, max: UNMAPPED_OFFSET_MAX }),
  search: v.pipe(
    PageQueryEntries.search,
    v.description("Only SKUs containing this text, case-insensitively (both lists)."),
  ),
  sortDirection: v.pipe(
    v.optional(SortDirectionSchema, "desc"),
    v.description("Order of both lists by SKU, ties by id (default desc)."),
  ),
});
export type UnmappedQuery = v.InferOutput<typeof UnmappedQuerySchema>;

/**
 * The spec's two lists, each one page of the products no mapping uses, with how many there are
 * in all (matching `search`) and the window answered, so a screen or script can page on.
 */
export const UnmappedSchema = v.object({
  shopify: v.array(v.object({ _id: v.string(), variantId: v.string(), sku: v.string() })),
  acumatica: v.array(v.object({ _id: v.string(), acumaticaId: v.string(), sku: v.string() })),
  shopifyTotal: v.pipe(
    v.number(),
    v.description("Unmapped Shopify variants matching the search, on all pages."),
  ),
  acumaticaTotal: v.pipe(
    v.number(),
    v.description("Unmapped Acumatica items matching the search, on all pages."),
  ),
  shopifyOffset: v.pipe(v.number(), v.description("Where `shopify` starts in its list (the offset asked).")),
  acumaticaOffset: v.pipe(
    v.number(),
    v.description("Where `acumatica` starts in its list (the offset asked)."),
  ),
  limit: v.pipe(v.number(), v.description("The most rows either list holds on this page (default 10).")),
});
export type Unmapped = v.InferOutput<typeof UnmappedSchema>;

export const SelectorQuerySchema = v.object({
  page: queryInteger("page", { fallback: 1, min: 1, max: 1_000_000 }),
  search: PageQueryEntries.search,
});
export const MappingSelectorSchema = v.object({
  mappings: v.array(MappingSchema),
  page: v.number(),
  hasMore: v.boolean(),
});
export type MappingSelector = v.InferOutput<typeof MappingSelectorSchema>;

export const MappingIdsInputSchema = v.object({
  mappingIds: v.pipe(
    v.array(IdSchema, "mappingIds must be a list of ids"),
    v.maxLength(1000, "mappingIds may hold at most 1000 ids"),
  ),
});
export const MappingListSchema = v.object({ mappings: v.array(MappingSchema) });

export const SyncOptionsSchema = v.pipe(
  v.object(
    {
      price: v.boolean("syncOptions.price must be true or false"),
      quantity: v.boolean("syncOptions.quantity must be true or false"),
    },
    "syncOptions must be an object with price and quantity",
  ),
  v.check((options) => options.price || options.quantity, MESSAGES.mapping.selectSyncOption),
);
export type SyncOptions = v.InferOutput<typeof SyncOptionsSchema>;

export const SyncMappingInputSchema = v.object({
  syncOptions: SyncOptionsSchema,
  dryRun: v.optional(v.boolean("dryRun must be true or false"), false),
});

/** The most mappings one `POST /mapping/sync` may name; a full sync (no ids) has no limit. */
export const SYNC_MAPPING_IDS_MAX = 10_000;

/** `POST /mapping/sync`: the named mappings, or every mapping of the user when `mappingIds` is left out. */
export const SyncMappingsInputSchema = v.object({
  mappingIds: v.optional(
    v.pipe(
      v.array(
        v.pipe(
          v.string("mappingIds must hold ids (strings)"),
          v.nonEmpty("mappingIds must not hold an empty id"),
          v.maxLength(64, "mappingIds must not hold an id longer than 64 characters"),
        ),
        "mappingIds must be a list of ids",
      ),
      v.minLength(1, "mappingIds must hold at least 1 id (leave it out to sync every mapping)"),
      v.maxLength(SYNC_MAPPING_IDS_MAX, "mappingIds may hold at most 10,000 ids"),
    ),
  ),
  syncOptions: SyncOptionsSchema,
  dryRun: v.optional(v.boolean("dryRun must be true or false"), false),
  /**
   * A sync of every mapping reads only what changed since the last one, and everything once a day;
   * `reconcile` reads everything now (a change Shopify or the ERP does not date is caught then).
   */
  reconcile: v.optional(v.boolean("reconcile must be true or false"), false),
});
export type SyncMappingsInput = v.InferOutput<typeof SyncMappingsInputSchema>;

export const SYNC_OUTCOMES = ["succeeded", "unchanged", "skipped", "failed", "planned"] as const;

/** One field's planned or applied change: ERP value -> Shopify. */
export const FieldChangeSchema = v.object({
  field: v.picklist(["price", "compareAtPrice", "quantity"]),
  from: v.nullable(v.number()),
  to: v.nullable(v.number()),
  location: v.optional(
    v.pipe(
      v.string(),
      v.description(
        "The Shopify location of a quantity change, named when the location mapping is saved (one change per location); absent under the default mapping (the primary location only).",
      ),
    ),
  ),
});
export type FieldChange = v.InferOutput<typeof FieldChangeSchema>;

export const MappingSyncResultSchema = v.object({
  mappingId: v.string(),
  shopifySku: v.string(),
  acumaticaSku: v.string(),
  outcome: v.picklist(SYNC_OUTCOMES),
  changes: v.array(FieldChangeSchema),
  reason: v.nullable(v.string()),
});
export type MappingSyncResult = v.InferOutput<typeof MappingSyncResultSchema>;

export const SyncRunSchema = v.object({
  dryRun: v.boolean(),
  historyId: v.nullable(v.string()),
  results: v.array(MappingSyncResultSchema),
});
export type SyncRun = v.InferOutput<typeof SyncRunSchema>;

/**
 * What a sync job ends with (`job.result` of a "sync" job). Counts as execution history counts
 * them (`success` is succeeded plus unchanged); a dry run records no history (`historyId` null)
 * and carries its planned changes instead, at most a thousand, `truncated` when there were more.
 */
export const SyncJobResultSchema = v.object({
  dryRun: v.boolean(),
  historyId: v.nullable(v.string()),
  total: v.number(),
  success: v.number(),
  /** Of `success`, the mappings that already held the ERP's values. */
  unchanged: v.number(),
  failure: v.number(),
  skipped: v.number(),
  /** Mappings a dry run would change; 0 for a run that wrote. */
  planned: v.number(),
  changes: v.array(MappingSyncResultSchema),
  truncated: v.boolean(),
  /**
   * Why a safety limit held the run (nothing written; approve or discard it in execution history),
   * or, for a dry run, why the real run would be held. Empty or absent when no limit was reached.
   */
  holdReasons: v.optional(v.array(v.string())),
  /**
   * Present when a sync of every mapping read only what changed: since when, and how many of its
   * mappings it had (those it read are `total`). Absent: it read every mapping in scope.
   */
  changesSince: v.optional(ChangesSinceSchema),
});
export type SyncJobResult = v.InferOutput<typeof SyncJobResultSchema>;

/** A sync job's result, or null when it has none (the job failed or still runs) or not this shape. */
export function readSyncJobResult(result: unknown): SyncJobResult | null {
  const parsed = v.safeParse(SyncJobResultSchema, result);
  return parsed.success ? parsed.output : null;
}

export const AutoMapResultSchema = v.object({
  created: v.number(),
  alreadyMapped: v.number(),
  duplicateSkus: v.object({ shopify: v.array(v.string()), acumatica: v.array(v.string()) }),
  /** Matching pairs left unmapped because the plan's number of mapped products was reached. */
  overPlanLimit: v.optional(v.number(), 0),
  /** The plan's refusal, when `overPlanLimit` is above 0. */
  planLimit: v.optional(v.nullable(v.string()), null),
});
export type AutoMapResult = v.InferOutput<typeof AutoMapResultSchema>;
