import * as v from "valibot";

/**
 * A healthy system (any check failing answers 503 with `checks`): the database answers, its schema
 * is the one this version expects, the cron ticked lately, no job waits long in the queue.
 */
export const HealthSchema = v.object({
  status: v.literal("ok"),
  version: v.string(),
  db: v.literal("ok"),
  schemaVersion: v.number(),
  lastTickAt: v.nullable(v.string()),
  oldestQueuedJobAgeSeconds: v.nullable(v.number()),
});

/** The demo connection handed out in sandbox mode only. */
export const SandboxConnectionSchema = v.object({
  shopify: v.object({
    name: v.string(),
    storeName: v.string(),
    accessToken: v.string(),
    apiVersion: v.string(),
  }),
  acumatica: v.object({
    name: v.string(),
    instanceUri: v.string(),
    endpointName: v.string(),
    apiVersion: v.string(),
    username: v.string(),
    password: v.string(),
    company: v.string(),
  }),
});
export type SandboxConnection = v.InferOutput<typeof SandboxConnectionSchema>;
