import {
  type AutoMapResult,
  type DriftSummary,
  type Job,
  type Mapping,
  SANDBOX_DEMO,
  type ScheduleInput,
  type SyncJobResult,
} from "@stockbridge/shared";
import { afterEach, describe, expect, it } from "vitest";
import { type ConnectedApp, createConnectedApp } from "./connectors-harness.ts";
import { grantSubscription } from "./helpers.ts";

let connected: ConnectedApp | undefined;
afterEach(async () => {
  await connected?.close();
  connected = undefined;
});

const BOTH = { price: true, quantity: true };

/** Both demo catalogs pulled and auto-mapped, prices synced from the ERP's default price and MSRP. */
async function mappedApp() {
  connected = await createConnectedApp({ size: 20 });
  const app = connected;
  await app.connectShopify();
  await app.connectAcumatica();
  for (const name of ["syncShopifyProducts", "syncAcumaticaProducts", "autoMap"] as const) {
    const { job } = await app.api.call(name);
    const done = await app.waitForJob(job._id);
    expect(done.status).toBe("succeeded");
    if (name === "autoMap") expect((done.result as AutoMapResult).created).toBeGreaterThan(5);
  }
  await app.api.call("savePriceMapping", { body: { syncPrice: true, syncMsrp: true } });
  const { mappings, total } = await app.api.call("mappingHistory", { query: { limit: "100" } });
  expect(mappings).toHaveLength(total);
  return { app, mappings };
}

/** A sync job of every mapping (or a dry run), followed to its end. */
async function syncAll(app: ConnectedApp, options: { dryRun?: boolean } = {}): Promise<SyncJobResult> {
  const { job } = await app.api.call("syncMappings", { body: { syncOptions: BOTH, dryRun: options.dryRun } });
  return resultOf(app, job);
}

async function resultOf(app: ConnectedApp, job: Job): Promise<SyncJobResult> {
  const done = await app.waitForJob(job._id);
  expect(done.status, done.message ?? "").toBe("succeeded");
  return done.result as SyncJobResult;
}

/** Sets an ERP item's stock in each of the sandbox's warehouses (the total is three times it). */
async function setErpQuantity(app: ConnectedApp, inventoryId: string, perWarehouse: number) {
  for (const warehouseId of ["WHOLESALE", "RETAIL", "RETURNS"]) {
    const response = await fetch(`${app.origin}/__control/acumatica/quantities`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        inventoryId,
        warehouseId,
        onHand: perWarehouse,
        available: perWarehouse,
        availableForShipment: perWarehouse,
      }),
    });
    expect(response.status, await response.clone().text()).toBe(200);
  }
}

/** Shopify's Admin API on the sandbox store, as a merchant's other tools would change it. */
async function shopifyGraphql<T>(app: ConnectedApp, query: string, variables: Record<string, unknown>) {
  const response = await fetch(
    `${app.origin}/shopify/${SANDBOX_DEMO.shopify.storeName}/admin/api/2025-04/graphql.json`,
    {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-Shopify-Access-Token": SANDBOX_DEMO.shopify.accessToken,
      },
      body: JSON.stringify({ query, variables }),
    },
  );
  const body = (await response.json()) as { data?: T; errors?: unknown };
  if (!body.data) throw new Error(`Shopify GraphQL failed: ${JSON.stringify(body.errors)}`);
  return body.data;
}

async function shopifyVariant(app: ConnectedApp, variantId: string) {
  const data = await shopifyGraphql<{
    productVariant: { price: string; compareAtPrice: string | null; product: { id: string } };
  }>(app, "query($id: ID!) { productVariant(id: $id) { price compareAtPrice product { id } } }", {
    id: variantId,
  });
  return data.productVariant;
}

/** Changes a variant's price in Shopify behind the app's back. */
async function setShopifyPrice(app: ConnectedApp, variantId: string, price: string) {
  const { product } = await shopifyVariant(app, variantId);
  const data = await shopifyGraphql<{
    productVariantsBulkUpdate: { userErrors: { message: string }[] };
  }>(
    app,
    `mutation($productId: ID!, $variants: [ProductVariantsBulkInput!]!) {
      productVariantsBulkUpdate(productId: $productId, variants: $variants) { userErrors { message } }
    }`,
    { productId: product.id, variants: [{ id: variantId, price }] },
  );
  expect(data.productVariantsBulkUpdate.userErrors).toEqual([]);
}

/** A mapping whose quantity a sync writes (tracked, stocked, a stock item): its plan changes the quantity. */
async function quantityMappings(app: ConnectedApp, mappings: Mapping[], count: number): Promise<Mapping[]> {
  const found: Mapping[] = [];
  for (const mapping of mappings) {
    if (!mapping.acumaticaDetails.sku.startsWith("SKU-")) continue;
    await setErpQuantity(app, mapping.acumaticaDetails.sku, 111);
    const plan = await app.api.call("syncMapping", {
      params: { id: mapping._id },
      body: { syncOptions: { price: false, quantity: true }, dryRun: true },
    });
    if (plan.results[0]?.changes.some((change) => change.field === "quantity" && change.to === 333)) {
      found.push(mapping);
      if (found.length === count) return found;
    }
  }
  throw new Error(`fewer than ${count} mappings of the seed sync their quantity`);
}

function keyOf(item: { mappingId: string; field: string }) {
  return `${item.mappingId}:${item.field}`;
}

describe("GET /drift", () => {
  it("answers no check and zeros before the first one", async () => {
    const { app } = await mappedApp();

    const drift = await app.api.call("drift");

    expect(drift).toEqual({
      checkedAt: null,
      mappings: 0,
      drifted: 0,
      byField: { price: 0, compareAtPrice: 0, quantity: 0 },
      fields: [],
      source: null,
      items: [],
    } satisfies DriftSummary);
  });

  it("lists what a full dry run plans to change, field by field, and writes nothing", async () => {
    const { app, mappings } = await mappedApp();
    const mutations = app.shopify.state().mutations;

    const plan = await syncAll(app, { dryRun: true });
    const drift = await app.api.call("drift");

    expect(plan.truncated).toBe(false);
    const planned = plan.changes.flatMap((result) =>
      result.changes.map((change) => ({
        key: keyOf({ mappingId: result.mappingId, field: change.field }),
        shopify: change.from,
        erp: change.to,
      })),
    );
    expect(planned.length).toBeGreaterThan(5);
    expect(drift.items.map((item) => ({ key: keyOf(item), shopify: item.shopify, erp: item.erp }))).toEqual(
      expect.arrayContaining(planned),
    );
    expect(drift.items).toHaveLength(planned.length);
    expect(drift).toMatchObject({
      checkedAt: app.clock.now().toISOString(),
      mappings: mappings.length,
      drifted: new Set(plan.changes.map((result) => result.mappingId)).size,
      fields: ["price", "compareAtPrice", "quantity"],
      source: "dry-run",
    });
    for (const field of ["price", "compareAtPrice", "quantity"] as const) {
      const mappingsOfField = new Set(drift.items.filter((i) => i.field === field).map((i) => i.mappingId));
      expect(drift.byField[field], field).toBe(mappingsOfField.size);
    }
    const quantity = drift.items.find((item) => item.field === "quantity");
    expect(quantity?.location).toMatch(/^gid:\/\/shopify\/Location\/\d+$/);
    expect(drift.items.find((item) => item.field === "price")?.location).toBeNull();
    expect(app.shopify.state().mutations).toBe(mutations);
  });

  it("keeps after a full sync only what it could not write", async () => {
    const { app, mappings } = await mappedApp();
    const [refused] = await quantityMappings(app, mappings, 1);
    // Shopify refuses a quantity above 1,000,000,000: this one mapping's quantity cannot be written.
    await setErpQuantity(app, refused!.acumaticaDetails.sku, 400_000_000);

    const run = await syncAll(app);
    const drift = await app.api.call("drift");

    expect(run.failure).toBe(1);
    expect(drift).toMatchObject({ drifted: 1, source: "sync", mappings: mappings.length });
    expect(drift.items).toEqual([
      expect.objectContaining({
        mappingId: refused!._id,
        shopifySku: refused!.shopifyDetails.sku,
        acumaticaSku: refused!.acumaticaDetails.sku,
        field: "quantity",
        erp: 1_200_000_000,
      }),
    ]);
    const [entry] = (await app.api.call("executionHistory")).histories;
    expect(entry).toMatchObject({ _id: run.historyId, checkOnly: false, drifted: 1 });
  });

  it("finds what changed on either side since a sync, and only that", async () => {
    const { app, mappings } = await mappedApp();
    const [stock, priced] = await quantityMappings(app, mappings, 2);
    await syncAll(app);
    expect((await app.api.call("drift")).drifted).toBe(0);
    const before = await shopifyVariant(app, priced!.shopifyDetails.variantId);
    await setErpQuantity(app, stock!.acumaticaDetails.sku, 7);
    await setShopifyPrice(app, priced!.shopifyDetails.variantId, "999.99");
    app.clock.advance(60_000);

    await syncAll(app, { dryRun: true });
    const drift = await app.api.call("drift");

    expect(drift.checkedAt).toBe(app.clock.now().toISOString());
    const byKey = Object.fromEntries(drift.items.map((item) => [keyOf(item), [item.shopify, item.erp]]));
    expect(byKey[keyOf({ mappingId: stock!._id, field: "quantity" })]).toEqual([333, 21]);
    expect(byKey[keyOf({ mappingId: priced!._id, field: "price" })]).toEqual([999.99, Number(before.price)]);
    expect(Object.keys(byKey).sort()).toEqual(
      [
        keyOf({ mappingId: stock!._id, field: "quantity" }),
        keyOf({ mappingId: priced!._id, field: "price" }),
      ].sort(),
    );
    expect(drift).toMatchObject({ drifted: 2, byField: { price: 1, compareAtPrice: 0, quantity: 1 } });
  });
});
