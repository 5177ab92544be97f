import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { developmentWebhookSecret, freePort, startDeno } from "../../scripts/lib.mjs";

/**
 * The product as `npm start` runs it, for a suite's global set-up: the sandbox and the edge under
 * Deno on a fresh libSQL file. `edgeEnv` adds to the edge's environment (given the data folder).
 * `stop()` ends both and removes the data.
 */
export async function startProduct(
  suite: string,
  edgeEnv: (dataDir: string) => Record<string, string> = () => ({}),
) {
  const dataDir = mkdtempSync(join(tmpdir(), `stockbridge-${suite}-`));
  const [appPort, sandboxPort, smtpPort] = [await freePort(), await freePort(), await freePort()];
  const appUrl = `http://127.0.0.1:${appPort}`;
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  // As `npm start` does: the sandbox signs with the data folder's secret, which the edge (given no
  // STRIPE_WEBHOOK_SECRET) reads from the same folder.
  const webhookSecret = developmentWebhookSecret(dataDir);
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
        {
          SANDBOX_PORT: String(sandboxPort),
          SANDBOX_SMTP_PORT: String(smtpPort),
          PORT: String(appPort),
          STRIPE_WEBHOOK_SECRET: webhookSecret,
        },
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
          STRIPE_SECRET_KEY: `sk_test_${suite}`,
          // Blank, so a secret in the caller's environment cannot stand in for the folder's.
          STRIPE_WEBHOOK_SECRET: "",
          // Alert emails go to the sandbox's mail catcher, as `npm start` sends them.
          SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
          PASSWORD_ITERATIONS: "1000",
          // Every test registers its own user, all from this one loopback address.
          REGISTRATIONS_PER_MINUTE: "1000",
          // Warnings and errors only: a failing test's output is not buried under access lines.
          LOG_LEVEL: "warn",
          ...edgeEnv(dataDir),
        },
        `${appUrl}/api/health`,
      ),
    );
  } catch (error) {
    stop();
    throw error;
  }
  return { appUrl, sandboxUrl, stop };
}
