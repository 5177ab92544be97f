import * as v from "valibot";

/** The fields a sync writes, hence the fields that can drift: ERP price, MSRP and quantity. */
export const DRIFT_FIELDS = ["price", "compareAtPrice", "quantity"] as const;
export type DriftField = (typeof DRIFT_FIELDS)[number];

/** How many drift items `GET /drift` lists; `GET /drift.csv` has them all. */
export const DRIFT_ITEMS_LIMIT = 1_000;

/** The CSV's columns, in order (its header row). */
export const DRIFT_CSV_COLUMNS = [
  "mappingId",
  "shopifySku",
  "acumaticaSku",
  "field",
  "location",
  "shopify",
  "erp",
] as const;

/** One field of one mapping whose Shopify value differs from the ERP's. */
export const DriftItemSchema = v.object({
  mappingId: v.string(),
  shopifySku: v.string(),
  acumaticaSku: v.string(),
  field: v.picklist(DRIFT_FIELDS),
  location: v.pipe(
    v.nullable(v.string()),
    v.description("The Shopify location of a quantity (its GraphQL id); null for prices."),
  ),
  shopify: v.pipe(
    v.nullable(v.number()),
    v.description("Shopify's value: dollars for prices (null: no compare-at price), units for quantities."),
  ),
  erp: v.pipe(
    v.nullable(v.number()),
    v.description("The value the ERP says Shopify should hold, in the same units."),
  ),
});
export type DriftItem = v.InferOutput<typeof DriftItemSchema>;

/** Where the latest check came from: a sync that wrote, a dry run, or a check-only schedule. */
export const DRIFT_SOURCES = ["sync", "dry-run", "check"] as const;

export const DriftSummarySchema = v.object({
  checkedAt: v.pipe(
    v.nullable(v.string()),
    v.description("When the latest check of every mapping ran; null before the first one."),
  ),
  mappings: v.pipe(v.number(), v.description("How many mappings that check compared.")),
  drifted: v.pipe(v.number(), v.description("How many mappings differ in at least one field now.")),
  byField: v.object({ price: v.number(), compareAtPrice: v.number(), quantity: v.number() }),
  fields: v.pipe(
    v.array(v.picklist(DRIFT_FIELDS)),
    v.description("The fields the check compared (its sync options and the price settings)."),
  ),
  source: v.nullable(v.picklist(DRIFT_SOURCES)),
  items: v.pipe(
    v.array(DriftItemSchema),
    v.description("The first 1,000 differing fields in the order the check read them; the CSV has all."),
  ),
});
export type DriftSummary = v.InferOutput<typeof DriftSummarySchema>;
