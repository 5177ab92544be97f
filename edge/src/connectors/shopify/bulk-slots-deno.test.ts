import { join } from "node:path";
import { startSandbox } from "@stockbridge/sandbox";
import {
  type ApiClient,
  createApiClient,
  type Job,
  SANDBOX_DEMO,
  type SyncJobResult,
} from "@stockbridge/shared";
import { describe, expect, it, onTestFinished } from "vitest";
import { startEdgeProcess } from "../../../testing/deno-harness.ts";
import { grantSubscription } from "../../../testing/helpers.ts";
import { openDatabase } from "../../db/client.ts";

/** Above the edge's own thresholds: the pull (2,500 variants) and the sync (1,000 mappings) both go bulk. */
const VARIANTS = 3_000;

async function finished(api: ApiClient, job: Job): Promise<Job> {
  for (;;) {
    const current = await api.call("job", { params: { id: job._id } });
    if (current.status === "succeeded" || current.status === "failed") return current;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The edge as users run it (`deno run edge/main.ts` on a libSQL file) in sandbox mode, and a subscriber. */
async function startWorld(releaseDate: Date | undefined) {
  const sandbox = await startSandbox({ size: VARIANTS, shopifyReleaseDate: releaseDate });
  onTestFinished(() => sandbox.close());
  const { origin, dataDir, stop } = await startEdgeProcess({
    env: {
      SANDBOX_URL: sandbox.origin,
      // Billing is configured (access needs it) but never called: the subscription is granted below.
      STRIPE_SECRET_KEY: "sk_test_bulk_overlap",
    },
  });
  onTestFinished(stop);
  const anonymous = createApiClient({ baseUrl: `${origin}/api`, getToken: () => null });
  const { token, user } = await anonymous.call("register", {
    body: { name: "Bulk Overlap", email: "bulk-overlap@example.com", password: "Passw0rd" },
  });
  const db = openDatabase(`file:${join(dataDir, "stockbridge.db")}`);
  await db.execute("PRAGMA busy_timeout = 5000");
  await grantSubscription(db, user._id);
  db.close();
  const api = createApiClient({ baseUrl: `${origin}/api`, getToken: () => token });
  await api.call("saveShopify", { body: { ...SANDBOX_DEMO.shopify } });
  await api.call("saveAcumatica", {
    body: {
      name: SANDBOX_DEMO.acumatica.name,
      apiVersion: SANDBOX_DEMO.acumatica.apiVersion,
      instanceUri: `${sandbox.origin}${SANDBOX_DEMO.acumatica.instancePath}`,
      endpointName: SANDBOX_DEMO.acumatica.endpointName,
      username: SANDBOX_DEMO.acumatica.username,
      password: SANDBOX_DEMO.acumatica.password,
      company: SANDBOX_DEMO.acumatica.company,
    },
  });
  return { api, shopify: sandbox.sandbox.systems.shopify };
}

describe("bulk operations of one store under Deno", () => {
  it.each([
    ["2025-04, one bulk query at a time", new Date("2025-06-01T00:00:00Z"), "2025-04"],
    ["2026-01, several followed by their ids", undefined, "2026-01"],
  ])(
    "runs a catalog pull and a full sync of a large store started together: both succeed (%s)",
    async (_label, releaseDate, served) => {
      const { api, shopify } = await startWorld(releaseDate);
      for (const job of [
        (await api.call("syncShopifyProducts")).job,
        (await api.call("syncAcumaticaProducts")).job,
      ])
        expect((await finished(api, job)).status).toBe("succeeded");
      expect((await finished(api, (await api.call("autoMap")).job)).status).toBe("succeeded");
      const launchedBefore = Number(shopify.state().bulkOperations);

      const [sync, pull] = await Promise.all([
        api.call("syncMappings", { body: { syncOptions: { price: true, quantity: true } } }),
        api.call("syncShopifyProducts"),
      ]);
      const [synced, pulled] = await Promise.all([finished(api, sync.job), finished(api, pull.job)]);

      expect(synced.status).toBe("succeeded");
      const result = synced.result as SyncJobResult;
      expect(result.total).toBeGreaterThan(1_000);
      expect(result.failure).toBe(0);
      expect(pulled).toMatchObject({ status: "succeeded" });
      const state = shopify.state();
      expect(Object.keys(state.servedVersions as Record<string, number>)).toEqual([served]);
      // Our jobs kept within the version's limit (Shopify never refused a launch), and neither read
      // fell back to pages: one waited for the other's slot, or both ran at once from 2026-01.
      expect(state.bulkOperationsRefused).toBe(0);
      expect(pulled.result?.mode).toBe("bulk");
      expect(Number(state.bulkOperations) - launchedBefore).toBe(2);
    },
    // Two pulls, an auto-map and the overlap itself at real time under Deno.
    60_000,
  );
});
