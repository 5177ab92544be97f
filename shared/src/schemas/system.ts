import * as v from "valibot";

export const HealthSchema = v.object({ status: v.literal("ok"), version: v.string(), db: v.literal("ok") });

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
