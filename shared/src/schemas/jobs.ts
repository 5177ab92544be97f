import * as v from "valibot";

export const JOB_KINDS = ["shopify-pull", "acumatica-pull", "auto-map", "sync"] as const;
export const JOB_STATUSES = ["queued", "running", "succeeded", "failed"] as const;

/** Long work (pulls, auto mapping, multi-mapping syncs) runs as a job the screens follow. */
export const JobSchema = v.object({
  _id: v.string(),
  kind: v.picklist(JOB_KINDS),
  status: v.picklist(JOB_STATUSES),
  progress: v.object({ done: v.number(), total: v.nullable(v.number()), phase: v.string() }),
  message: v.nullable(v.string()),
  result: v.nullable(v.record(v.string(), v.unknown())),
  createdAt: v.string(),
  finishedAt: v.nullable(v.string()),
});
export type Job = v.InferOutput<typeof JobSchema>;
