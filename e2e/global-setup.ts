import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { ensureWebBuild, freePort, startDeno } from "../scripts/lib.mjs";

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
  const dataDir = mkdtempSync(join(tmpdir(), "stockbridge-e2e-"));
  const [appPort, sandboxPort] = [await freePort(), await freePort()];
  const appUrl = `http://127.0.0.1:${appPort}`;
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  const webhookSecret = "whsec_e2e_sandbox";
  const children: ChildProcess[] = [];
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
        SANDBOX_URL: sandboxUrl,
        STRIPE_SECRET_KEY: "sk_test_e2e",
        STRIPE_WEBHOOK_SECRET: webhookSecret,
        PASSWORD_ITERATIONS: "1000",
      },
      `${appUrl}/api/health`,
    ),
  );
  project.provide("appUrl", appUrl);
  project.provide("sandboxUrl", sandboxUrl);
  return () => {
    for (const child of children) child.kill("SIGTERM");
    rmSync(dataDir, { recursive: true, force: true });
  };
}
