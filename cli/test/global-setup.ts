import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { freePort, startDeno } from "../../scripts/lib.mjs";

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
  const dataDir = mkdtempSync(join(tmpdir(), "stockbridge-cli-"));
  const [appPort, sandboxPort] = [await freePort(), await freePort()];
  const appUrl = `http://127.0.0.1:${appPort}`;
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  const webhookSecret = "whsec_cli_sandbox";
  const children: ChildProcess[] = [];
  const stop = () => {
    for (const child of children) child.kill("SIGTERM");
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    children.push(
      await startDeno(
        "sandbox",
        "sandbox/main.ts",
        { SANDBOX_PORT: String(sandboxPort), PORT: String(appPort), STRIPE_WEBHOOK_SECRET: webhookSecret },
        `${sandboxUrl}/__control/state`,
      ),
    );
    children.push(
      await startDeno(
        "edge",
        "edge/main.ts",
        {
          PORT: String(appPort),
          DATA_DIR: dataDir,
          WEB_DIST: join(dataDir, "no-web-build"),
          SANDBOX_URL: sandboxUrl,
          STRIPE_SECRET_KEY: "sk_test_cli",
          STRIPE_WEBHOOK_SECRET: webhookSecret,
          PASSWORD_ITERATIONS: "1000",
        },
        `${appUrl}/api/health`,
      ),
    );
    // Every test user pulls the same sandbox store: Plus bucket figures keep back-to-back pulls from
    // waiting on Shopify's leaky bucket. This sandbox is the CLI suite's own, so it stays that way.
    const faults = await fetch(`${sandboxUrl}/__control/faults`, {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ shopify: { throttleProfile: "plus" } }),
    });
    if (!faults.ok) throw new Error(`Setting the sandbox throttle profile failed: ${await faults.text()}`);
  } catch (error) {
    stop();
    throw error;
  }
  project.provide("appUrl", appUrl);
  project.provide("sandboxUrl", sandboxUrl);
  return stop;
}
