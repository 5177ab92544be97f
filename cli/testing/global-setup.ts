import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { startProduct } from "../../e2e/support/start-product.ts";

declare module "vitest" {
  export interface ProvidedContext {
    appUrl: string;
    sandboxUrl: string;
  }
}

/**
 * The CLI is tested against the product as `npm start` runs it: the sandbox and the edge under Deno
 * on a fresh libSQL file. No web build: the CLI speaks only to `/api`, so the edge serves no page.
 */
export default async function setup(project: TestProject) {
  const product = await startProduct("cli", (dataDir) => ({ WEB_DIST: join(dataDir, "no-web-build") }));
  try {
    // Every test user pulls the same sandbox store: Plus bucket figures keep back-to-back pulls from
    // waiting on Shopify's leaky bucket. This sandbox is the CLI suite's own, so it stays that way.
    const faults = await fetch(`${product.sandboxUrl}/__control/faults`, {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ shopify: { throttleProfile: "plus" } }),
    });
    if (!faults.ok) throw new Error(`Setting the sandbox throttle profile failed: ${await faults.text()}`);
  } catch (error) {
    product.stop();
    throw error;
  }
  project.provide("appUrl", product.appUrl);
  project.provide("sandboxUrl", product.sandboxUrl);
  return product.stop;
}
