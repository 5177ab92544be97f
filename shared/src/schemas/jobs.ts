import * as v from "valibot";
import { AutoMapResultSchema, SyncJobResultSchema } from "./mapping.ts";
import { AcumaticaPullResultSchema, ShopifyPullResultSchema } from "./products.ts";

export const JOB_KINDS = ["shopify-pull", "acumatica-pull", "auto-map", "sync"] as const;
export const JOB_STATUSES = ["queued", "running", "succeeded", "failed"] as const;
export type JobKind = (typeof JOB_KINDS)[number];

const JobEntries = {
  _id: v.string(),
  status: v.picklist(JOB_STATUSES),
  progress: v.object({ done: v.number(), total: v.nullable(v.number()), phase: v.string() }),
  message: v.nullable(v.string()),
  createdAt: v.string(),
  finishedAt: v.nullable(v.string()),
};

/** Long work (pulls, auto mapping, multi-mapping syncs) runs as a job the screens follow. */
export const JobSchema = v.object({
  ...JobEntries,
  kind: v.picklist(JOB_KINDS),
  result: v.nullable(v.record(v.string(), v.unknown())),
});
export type Job = v.InferOutput<typeof JobSchema>;

/** What a succeeded job of each kind keeps as `result` (the edge's job runner types its work by this). */
export const JOB_RESULT_SCHEMAS = {
  "shopify-pull": ShopifyPullResultSchema,
  "acumatica-pull": AcumaticaPullResultSchema,
  "auto-map": AutoMapResultSchema,
  sync: SyncJobResultSchema,
} as const satisfies Record<JobKind, v.GenericSchema>;
export type JobResult<K extends JobKind = JobKind> = v.InferOutput<(typeof JOB_RESULT_SCHEMAS)[K]>;

function typedJob<K extends JobKind>(kind: K) {
  const result = v.pipe(
    v.nullable(JOB_RESULT_SCHEMAS[kind]),
    v.description("Set when the job has succeeded; null while it runs or when it failed (see `message`)."),
  );
  return v.object({ ...JobEntries, kind: v.literal(kind), result });
}

// One job schema per kind, `result` typed by it (components of the API document).
export const ShopifyPullJobSchema = typedJob("shopify-pull");
export const AcumaticaPullJobSchema = typedJob("acumatica-pull");
export const AutoMapJobSchema = typedJob("auto-map");
export const SyncJobSchema = typedJob("sync");

/**
 * A job as the API documents it: `result` typed by `kind`. `JobSchema` stays the type clients read
 * (a result row written by an older version may lack a newer field); the OpenAPI document shows
 * this one in its place.
 */
export const TypedJobSchema = v.variant("kind", [
  ShopifyPullJobSchema,
  AcumaticaPullJobSchema,
  AutoMapJobSchema,
  SyncJobSchema,
]);
