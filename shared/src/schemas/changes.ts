import * as v from "valibot";
import { ExecutionHistorySummarySchema } from "./history.ts";
import { MappingSchema } from "./mapping.ts";
import { AcumaticaProductSchema, ShopifyProductSchema } from "./products.ts";
import { ScheduleSchema } from "./schedules.ts";

/** The most rows one page of a change feed holds (and its default). */
export const CHANGES_PAGE_MAX = 5_000;
export const CHANGES_PAGE_DEFAULT = 1_000;

/** A version from a query string: 0 (or left out) reads the whole list. */
const VersionQuerySchema = v.pipe(
  v.optional(v.string(), "0"),
  v.regex(/^\d{1,15}$/, "since must be a whole number of at least 0 (a version a change feed answered)"),
  v.transform(Number),
);

/** `since` (the version the caller holds) and `limit` (rows per page) of every change feed. */
export const ChangesQuerySchema = v.object({
  since: VersionQuerySchema,
  limit: v.pipe(
    v.optional(v.string(), String(CHANGES_PAGE_DEFAULT)),
    v.regex(/^\d{1,5}$/, "limit must be a whole number"),
    v.transform(Number),
    v.minValue(1, "limit must be at least 1"),
    v.maxValue(CHANGES_PAGE_MAX, `limit must be at most ${CHANGES_PAGE_MAX}`),
  ),
});
export type ChangesQuery = v.InferOutput<typeof ChangesQuerySchema>;

/** Where a row sits among equal sort values: the order the server breaks ties in. */
const PositionEntries = {
  position: v.pipe(v.number(), v.description("The row's stored order: sorts break ties by it.")),
};
const CreatedEntries = {
  createdAt: v.pipe(v.string(), v.description("When the row was created: lists are newest first.")),
};

function changePage<T extends v.GenericSchema>(row: T) {
  return v.object({
    rows: v.pipe(v.array(row), v.description("Rows added or changed after `since`, oldest change first.")),
    removedIds: v.pipe(v.array(v.string()), v.description("Ids of rows removed after `since`.")),
    version: v.pipe(
      v.number(),
      v.description("Pass as `since` next: the version this page brings the caller up to."),
    ),
    hasMore: v.pipe(v.boolean(), v.description("More changes wait: ask again at once with `version`.")),
    reset: v.pipe(
      v.boolean(),
      v.description(
        "`since` is not a version of this feed (ahead of it): drop what is held, this page starts from 0.",
      ),
    ),
  });
}

/**
 * Catalog feeds also carry the catalog's one lastSynced (it changes with every pull, rows or not)
 * and the currency its prices are in, as the list endpoints answer them.
 */
function catalogChangePage<T extends v.GenericSchema>(row: T) {
  return v.object({
    ...changePage(row).entries,
    lastSynced: v.pipe(
      v.nullable(v.string()),
      v.description("When the catalog was last pulled; null before."),
    ),
    currencyCode: v.pipe(
      v.nullable(v.string()),
      v.description(
        "The currency of the catalog's prices (the store's, or the ERP's base currency) as the last connection test read it; null before.",
      ),
    ),
  });
}

export const ShopifyProductChangeSchema = v.object({ ...ShopifyProductSchema.entries, ...PositionEntries });
export type ShopifyProductChange = v.InferOutput<typeof ShopifyProductChangeSchema>;
export const AcumaticaProductChangeSchema = v.object({
  ...AcumaticaProductSchema.entries,
  ...PositionEntries,
});
export type AcumaticaProductChange = v.InferOutput<typeof AcumaticaProductChangeSchema>;
export const MappingChangeSchema = v.object({
  ...MappingSchema.entries,
  ...CreatedEntries,
  skuSnapshots: v.pipe(
    v.object({ shopify: v.string(), acumatica: v.string() }),
    v.description(
      "The SKUs stored when the pair was saved: the mappings list's search matches them as well as the current SKUs.",
    ),
  ),
});
export type MappingChange = v.InferOutput<typeof MappingChangeSchema>;
export const ScheduleChangeSchema = v.object({
  ...ScheduleSchema.entries,
  ...CreatedEntries,
  ...PositionEntries,
});
export type ScheduleChange = v.InferOutput<typeof ScheduleChangeSchema>;
export const HistoryChangeSchema = ExecutionHistorySummarySchema;
export type HistoryChange = v.InferOutput<typeof HistoryChangeSchema>;
/** A product in no mapping; a product that becomes mapped or is removed leaves by `removedIds`. */
export const UnmappedChangeSchema = v.object({
  _id: v.string(),
  system: v.picklist(["shopify", "acumatica"]),
  externalId: v.pipe(v.string(), v.description("The Shopify variant id or the Acumatica item id.")),
  sku: v.string(),
});
export type UnmappedChange = v.InferOutput<typeof UnmappedChangeSchema>;

export const ShopifyProductChangesSchema = catalogChangePage(ShopifyProductChangeSchema);
export type ShopifyProductChanges = v.InferOutput<typeof ShopifyProductChangesSchema>;
export const AcumaticaProductChangesSchema = catalogChangePage(AcumaticaProductChangeSchema);
export type AcumaticaProductChanges = v.InferOutput<typeof AcumaticaProductChangesSchema>;
export const MappingChangesSchema = changePage(MappingChangeSchema);
export type MappingChanges = v.InferOutput<typeof MappingChangesSchema>;
export const UnmappedChangesSchema = changePage(UnmappedChangeSchema);
export type UnmappedChanges = v.InferOutput<typeof UnmappedChangesSchema>;
export const ScheduleChangesSchema = changePage(ScheduleChangeSchema);
export type ScheduleChanges = v.InferOutput<typeof ScheduleChangesSchema>;
export const HistoryChangesSchema = changePage(HistoryChangeSchema);
export type HistoryChanges = v.InferOutput<typeof HistoryChangesSchema>;
