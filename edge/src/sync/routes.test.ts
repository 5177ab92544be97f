import { ApiError, type AutoMapResult } from "@stockbridge/shared";
import { afterEach, describe, expect, it } from "vitest";
import { type ConnectedApp, createConnectedApp } from "../../testing/connectors-harness.ts";
import { grantSubscription } from "../../testing/helpers.ts";

let app: ConnectedApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** Both demo catalogs pulled, auto-mapped, prices synced from settings: how a user gets to the Sync button. */
async function mappedApp() {
  app = await createConnectedApp({ size: 40 });
  await app.connectShopify();
  await app.connectAcumatica();
  for (const name of ["syncShopifyProducts", "syncAcumaticaProducts", "autoMap"] as const) {
    const { job } = await app.api.call(name);
    const done = await app.waitForJob(job._id);
    expect(done.status).toBe("succeeded");
    if (name === "autoMap") expect((done.result as AutoMapResult).created).toBeGreaterThan(5);
  }
  await app.api.call("savePriceMapping", { body: { syncPrice: true, syncMsrp: false } });
  return app;
}

/** A mapping whose ERP price differs from Shopify's (the seed makes most of them differ). */
async function mappingWithPriceChange(target: ConnectedApp) {
  const { mappings } = await target.api.call("mappingHistory", { query: { limit: "100" } });
  for (const mapping of mappings) {
    const plan = await target.api.call("syncMapping", {
      params: { id: mapping._id },
      body: { syncOptions: { price: true, quantity: false }, dryRun: true },
    });
    const change = plan.results[0]?.changes.find((c) => c.field === "price");
    if (change) return { mapping, change };
  }
  throw new Error("no mapping with a price change in the seed");
}

describe("POST /mapping/:id/sync", () => {
  it("previews the change with dryRun and writes nothing", async () => {
    const target = await mappedApp();
    const { mapping, change } = await mappingWithPriceChange(target);

    const plan = await target.api.call("syncMapping", {
      params: { id: mapping._id },
      body: { syncOptions: { price: true, quantity: false }, dryRun: true },
    });

    expect(plan).toMatchObject({
      dryRun: true,
      historyId: null,
      results: [{ mappingId: mapping._id, outcome: "planned", changes: [change] }],
    });
    expect(target.shopify.state()).toMatchObject({ mutations: 0 });
    expect((await target.api.call("executionHistory")).total).toBe(0);
  });

  it("syncs one mapping, records the run and refreshes the cached product row", async () => {
    const target = await mappedApp();
    const { mapping, change } = await mappingWithPriceChange(target);

    const run = await target.api.call("syncMapping", {
      params: { id: mapping._id },
      body: { syncOptions: { price: true, quantity: true } },
    });

    expect(run.results).toEqual([expect.objectContaining({ mappingId: mapping._id, outcome: "succeeded" })]);
    const history = await target.api.call("executionHistory");
    expect(history.histories[0]).toMatchObject({
      _id: run.historyId,
      trigger: "manual",
      status: "completed",
      successCount: 1,
      failureCount: 0,
    });
    const products = await target.api.call("shopifyProducts", {
      query: { search: mapping.shopifyDetails.sku },
    });
    expect(products.products.find((p) => p.variantId === mapping.shopifyDetails.variantId)?.price).toBe(
      change.to,
    );
    const [after] = (await target.api.call("mappingsByIds", { body: { mappingIds: [mapping._id] } }))
      .mappings;
    expect(after?.lastSyncedAt).not.toBeNull();
  });

  it("answers 502 naming Acumatica when the saved connection no longer signs in, and records the failed run", async () => {
    const target = await mappedApp();
    const { mappings } = await target.api.call("mappingHistory");
    await target.connectAcumatica({ password: "Wrong-Passw0rd" });

    const error = await target.api
      .call("syncMapping", {
        params: { id: mappings[0]!._id },
        body: { syncOptions: { price: true, quantity: true } },
      })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(502);
    const [entry] = (await target.api.call("executionHistory")).histories;
    expect(entry).toMatchObject({ status: "failed", error: expect.stringMatching(/^Acumatica: /) });
    expect(target.acumatica.state()).toMatchObject({ loginsOpen: 0 });
  });

  it("answers 400 when no sync option is chosen, and 404 for a mapping that is not the caller's", async () => {
    const target = await mappedApp();
    const { mappings } = await target.api.call("mappingHistory");
    const none = await target.request(`/api/mapping/${mappings[0]!._id}/sync`, {
      token: target.user.token,
      body: { syncOptions: { price: false, quantity: false } },
    });
    expect(none.status).toBe(400);
    expect((await none.json()).message).toBe("Please select at least one sync option");

    const stranger = await target.registerUser();
    await grantSubscription(target.db, stranger.user._id);
    const foreign = await target.request(`/api/mapping/${mappings[0]!._id}/sync`, {
      token: stranger.token,
      body: { syncOptions: { price: true, quantity: false } },
    });
    expect(foreign.status).toBe(404);
  });
});
