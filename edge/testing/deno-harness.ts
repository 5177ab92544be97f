import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSandbox } from "@stockbridge/sandbox";
import { type ApiClient, createApiClient, type Job, SANDBOX_DEMO } from "@stockbridge/shared";
import { subscribeThroughCheckout } from "../../e2e/support/subscribe.ts";
import { freePort, startDeno } from "../../scripts/lib.mjs";

export interface EdgeProcess {
  origin: string;
  dataDir: string;
  process: ChildProcess;
  /** Ends the process (SIGTERM) and removes its data folder unless the caller brought it. */
  stop(): void;
}

/**
 * One edge as users run it (`deno run edge/main.ts`) on a free port and a fresh data folder, ready
 * once health answers. `env` adds to its environment; `port` when the caller needs the origin first
 * (a webhook URL handed to the sandbox); `dataDir` when it must prepare the folder first.
 */
export async function startEdgeProcess(
  options: { env?: Record<string, string>; port?: number; dataDir?: string } = {},
): Promise<EdgeProcess> {
  const port = options.port ?? (await freePort());
  const origin = `http://127.0.0.1:${port}`;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "stockbridge-edge-"));
  const child = await startDeno(
    `edge:${port}`,
    "edge/main.ts",
    { PORT: String(port), DATA_DIR: dataDir, PASSWORD_ITERATIONS: "1000", ...options.env },
    `${origin}/api/health`,
  );
  return {
    origin,
    dataDir,
    process: child,
    stop() {
      child.kill("SIGTERM");
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface DenoEdge {
  origin: string;
  process: ChildProcess;
  api(token: string): ApiClient;
  /** Ends the process at once, as a crash or an out-of-memory kill would (no finally runs). */
  kill(): Promise<void>;
}

/**
 * Edges as users run them (`deno run edge/main.ts`, sandbox mode) sharing one libSQL file, and the
 * sandbox over real HTTP: any number of instances, each killable like a crashed process. `env`
 * adds to every edge's environment (e.g. a short RUN_LEASE_SECONDS).
 */
export async function startDenoWorld(options: { size?: number; env?: Record<string, string> } = {}) {
  const sandbox = await startSandbox({ size: options.size ?? 60 });
  const dataDir = mkdtempSync(join(tmpdir(), "stockbridge-runs-"));
  const edges: DenoEdge[] = [];

  async function startEdge(): Promise<DenoEdge> {
    const { origin, process: child } = await startEdgeProcess({
      // One folder, so every instance opens the same database and the same generated secrets.
      dataDir,
      env: {
        SANDBOX_URL: sandbox.origin,
        STRIPE_SECRET_KEY: "sk_test_runs",
        STRIPE_WEBHOOK_SECRET: "whsec_test_sandbox",
        ...options.env,
      },
    });
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    const edge: DenoEdge = {
      origin,
      process: child,
      api: (token) => createApiClient({ baseUrl: `${origin}/api`, getToken: () => token }),
      async kill() {
        child.kill("SIGKILL");
        await exited;
      },
    };
    edges.push(edge);
    return edge;
  }

  async function faults(body: Record<string, unknown>): Promise<void> {
    const response = await fetch(`${sandbox.origin}/__control/faults`, {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`sandbox faults: ${response.status} ${await response.text()}`);
  }

  async function acumaticaState(): Promise<Record<string, number>> {
    const response = await fetch(`${sandbox.origin}/__control/state`);
    return ((await response.json()) as { acumatica: Record<string, number> }).acumatica;
  }

  /**
   * A subscriber (through the sandbox's checkout), both demo connections saved, both catalogs
   * pulled, auto-mapped, prices synced: what a user has before pressing Sync. On the Starter plan
   * (500 mappings) unless `plan` names another.
   */
  async function readyUser(edge: DenoEdge, options: { plan?: string } = {}) {
    const anonymous = createApiClient({ baseUrl: `${edge.origin}/api`, getToken: () => null });
    const { token } = await anonymous.call("register", {
      body: { name: "Runs User", email: `runs-${crypto.randomUUID()}@example.com`, password: "Passw0rd" },
    });
    const api = edge.api(token);
    await subscribeThroughCheckout(api, sandbox.origin, { plan: options.plan });
    const demo = await api.call("sandbox");
    await api.call("saveShopify", { body: { ...demo.shopify, apiVersion: SANDBOX_DEMO.shopify.apiVersion } });
    await api.call("saveAcumatica", {
      body: { ...demo.acumatica, apiVersion: SANDBOX_DEMO.acumatica.apiVersion },
    });
    await api.call("savePriceMapping", { body: { syncPrice: true, syncMsrp: true } });
    for (const name of ["syncShopifyProducts", "syncAcumaticaProducts", "autoMap"] as const) {
      const { job } = await api.call(name);
      const done = await waitFor(api, job);
      if (done.status !== "succeeded") throw new Error(`${name} failed: ${done.message}`);
    }
    const { mappings } = await api.call("mappingHistory", { query: { page: "1", limit: "100" } });
    return { token, api, mappings };
  }

  return {
    sandbox,
    dataDir,
    startEdge,
    faults,
    acumaticaState,
    readyUser,
    async close() {
      for (const edge of edges) edge.process.kill("SIGKILL");
      await sandbox.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type DenoWorld = Awaited<ReturnType<typeof startDenoWorld>>;

/** Polls a job until it ends (no fixed sleep: the loop ends on the job's state). */
export async function waitFor(api: ApiClient, job: Job): Promise<Job> {
  return pollUntil(
    () => api.call("job", { params: { id: job._id } }),
    (current) => current.status === "succeeded" || current.status === "failed",
    `job ${job.kind} to end`,
  );
}

/** Reads until `done` says the state was reached; gives up (failing the test) after `patienceMs` (60 s). */
export async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  patienceMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + patienceMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
