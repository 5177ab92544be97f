import { generateCatalog } from "@stockbridge/sandbox";
import type { AutoMapResult } from "@stockbridge/shared";
import { afterEach, describe, expect, it } from "vitest";
import { type ConnectedApp, createConnectedApp } from "../../testing/connectors-harness.ts";
import { createTestApp } from "../../testing/helpers.ts";
import { insertItem, insertVariant, registerSubscriber } from "../../testing/mapping-fixtures.ts";

let app: ConnectedApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** The app with both demo catalogs pulled through the real pull endpoints. */
async function pulled(size = 60) {
  app = await createConnectedApp({ size });
  await app.connectShopify();
  await app.connectAcumatica();
  for (const name of ["syncShopifyProducts", "syncAcumaticaProducts"] as const) {
    const { job } = await app.api.call(name);
    expect((await app.waitForJob(job._id)).status).toBe("succeeded");
  }
  return app;
}

async function autoMap(target: { api: ConnectedApp["api"]; waitForJob: ConnectedApp["waitForJob"] }) {
  const { job } = await target.api.call("autoMap");
  expect(job).toMatchObject({ kind: "auto-map" });
  const done = await target.waitForJob(job._id);
  expect(done).toMatchObject({ status: "succeeded", message: "Auto mapping completed successfully" });
  return done.result as AutoMapResult;
}

describe("autoMap", () => {
  it("maps every SKU found once on each side and lists the SKUs that repeat on a side", async () => {
    const target = await pulled();
    const seed = generateCatalog({ seed: 42, size: 60 });
    const erp = new Set(seed.acumatica.items.map((item) => item.inventoryId));
    const expected = seed.shopify.products
      .flatMap((p) => p.variants)
      .filter((v) => v.sku && v.sku !== "DUP-SHOP-1" && erp.has(v.sku)).length;

    const result = await autoMap(target);

    expect(result).toEqual({
      created: expected,
      alreadyMapped: 0,
      duplicateSkus: { shopify: ["DUP-SHOP-1"], acumatica: ["DUP-ERP-1", "Dup-Erp-1"] },
      overPlanLimit: 0,
      planLimit: null,
    });
    const history = await target.api.call("mappingHistory", { query: { limit: "100" } });
    expect(history.total).toBe(expected);
    expect(history.mappings).toHaveLength(Math.min(expected, 100));
    expect(
      history.mappings.every(
        (m) => m.mappingType === "exact-sku" && m.shopifyDetails.sku === m.acumaticaDetails.sku,
      ),
    ).toBe(true);
  });

  it("leaves existing mappings alone and counts them on a second run", async () => {
    const target = await pulled();
    const first = await autoMap(target);
    const second = await autoMap(target);
    expect(second).toMatchObject({ created: 0, alreadyMapped: first.created });
  });

  it("matches SKUs that differ only in case and surrounding spaces, and skips blank SKUs", async () => {
    const local = await createTestApp();
    const { userId, api } = await registerSubscriber(local);
    await insertVariant(local.db, userId, { sku: " abc-1" });
    await insertItem(local.db, userId, { sku: "ABC-1" });
    await insertVariant(local.db, userId, { sku: "" });
    await insertItem(local.db, userId, { sku: "  " });
    const { job } = await api.call("autoMap");
    let done = job;
    while (done.status === "running" || done.status === "queued")
      done = await api.call("job", { params: { id: job._id } });

    expect(done.result).toEqual({
      created: 1,
      alreadyMapped: 0,
      duplicateSkus: { shopify: [], acumatica: [] },
      overPlanLimit: 0,
      planLimit: null,
    });
  });
});
