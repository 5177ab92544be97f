import { type RunningSandbox, startSandbox } from "@stockbridge/sandbox";
import {
  type AcumaticaConnectionInput,
  type Job,
  SANDBOX_DEMO,
  type ShopifyConnectionInput,
} from "@stockbridge/shared";
import type { AppDeps } from "../src/app.ts";
import type { CatalogTuning } from "../src/catalog/service.ts";
import type { ConnectorClock } from "../src/connectors/transport.ts";
import { createTestApp, grantSubscription } from "./helpers.ts";

export interface ConnectedAppOptions {
  /** Variants (and ERP items) the sandbox is seeded with. */
  size?: number;
  tuning?: Partial<CatalogTuning>;
  env?: Record<string, string>;
  deps?: Partial<AppDeps>;
}

/**
 * The app in sandbox mode against the simulators over real HTTP, with a subscribed user. The
 * connectors' clock is the sandbox's: a throttle wait or back-off advances simulated time at once
 * (the bucket refills, a bulk export completes) instead of sleeping.
 */
export async function createConnectedApp(options: ConnectedAppOptions = {}) {
  const running: RunningSandbox = await startSandbox({ size: options.size ?? 300 });
  const sandboxClock = running.sandbox.clock;
  const waits: number[] = [];
  const connectorClock: ConnectorClock = {
    now: () => sandboxClock.now().getTime(),
    async sleep(milliseconds) {
      waits.push(milliseconds);
      sandboxClock.advance(milliseconds);
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
  const logs: string[] = [];
  const testApp = await createTestApp({
    env: { SANDBOX_URL: running.origin, ...options.env },
    deps: { connectorClock, log: (line) => logs.push(line), catalogTuning: options.tuning, ...options.deps },
  });
  const user = await testApp.registerUser();
  await grantSubscription(testApp.db, user.user._id);
  const api = testApp.client(user.token);

  const shopify = running.sandbox.systems.shopify;
  const acumatica = running.sandbox.systems.acumatica;

  return {
    ...testApp,
    origin: running.origin,
    sandbox: running.sandbox,
    shopify,
    acumatica,
    logs,
    waits,
    user,
    api,
    close: () => running.close(),

    demoShopify: { ...SANDBOX_DEMO.shopify },
    demoAcumatica: {
      name: SANDBOX_DEMO.acumatica.name,
      apiVersion: SANDBOX_DEMO.acumatica.apiVersion,
      instanceUri: `${running.origin}${SANDBOX_DEMO.acumatica.instancePath}`,
      endpointName: SANDBOX_DEMO.acumatica.endpointName,
      username: SANDBOX_DEMO.acumatica.username,
      password: SANDBOX_DEMO.acumatica.password,
      company: SANDBOX_DEMO.acumatica.company,
    },

    /** Saves the sandbox's demo connections for the test user (overrides change single fields). */
    async connectShopify(overrides: Partial<ShopifyConnectionInput> = {}) {
      return api.call("saveShopify", { body: { ...SANDBOX_DEMO.shopify, ...overrides } });
    },
    async connectAcumatica(overrides: Partial<AcumaticaConnectionInput> = {}) {
      return api.call("saveAcumatica", { body: { ...this.demoAcumatica, ...overrides } });
    },

    /** Polls the job until it is no longer running. */
    async waitForJob(id: string, token = user.token): Promise<Job> {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const job = await testApp.client(token).call("job", { params: { id } });
        if (job.status === "succeeded" || job.status === "failed") return job;
        if (Date.now() > deadline) throw new Error(`job ${id} still ${job.status} (${job.progress.phase})`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
  };
}

export type ConnectedApp = Awaited<ReturnType<typeof createConnectedApp>>;
