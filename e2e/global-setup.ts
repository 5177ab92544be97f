import type { TestProject } from "vitest/node";
import { ensureWebBuild } from "../scripts/lib.mjs";
import { startProduct } from "./support/start-product.ts";

declare module "vitest" {
  export interface ProvidedContext {
    appUrl: string;
    sandboxUrl: string;
  }
}

/**
 * Browser tests run against the product as `npm start` runs it: the sandbox and the edge under Deno,
 * a fresh libSQL file, the built web app. Each test makes its own user, so tests never share rows.
 */
export default async function setup(project: TestProject) {
  ensureWebBuild();
  const product = await startProduct("e2e");
  project.provide("appUrl", product.appUrl);
  project.provide("sandboxUrl", product.sandboxUrl);
  return product.stop;
}
