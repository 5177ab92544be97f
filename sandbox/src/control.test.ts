import { SANDBOX_DEMO } from "@stockbridge/shared/sandbox-demo";
import { afterEach, describe, expect, it } from "vitest";
import { createSandbox } from "./app.ts";
import { generateCatalog } from "./seed/catalog.ts";
import { type RunningSandbox, startSandbox } from "./serve-node.ts";

let running: RunningSandbox | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function control(path: string, init: { method?: string; body?: unknown } = {}) {
  running ??= await startSandbox();
  return fetch(`${running.origin}/__control${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: { "Content-Type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

describe("the control API", () => {
  it("refuses callers that are not on loopback", async () => {
    const sandbox = createSandbox({
      origin: "http://sandbox.test",
      stripeWebhookSecret: "whsec_x",
      remoteAddressOf: () => "192.0.2.10",
    });
    const response = await sandbox.app.request("/__control/state");
    expect(response.status).toBe(403);
    const noAddress = createSandbox({ origin: "http://sandbox.test", stripeWebhookSecret: "whsec_x" });
    expect((await noAddress.app.request("/__control/reset", { method: "POST" })).status).toBe(403);
  });

  it("reports counters for every system", async () => {
    const state = await (await control("/state")).json();
    expect(state).toHaveProperty("now");
    expect(state.shopify).toHaveProperty("calls");
    expect(state.acumatica).toHaveProperty("loginsOpen");
    expect(state.stripe).toHaveProperty("webhooksDelivered");
  });

  it("reseeds from a seed and size: the same seed gives the same catalog", async () => {
    await control("/reset", { body: { seed: 7, size: 50 } });
    const first = await (await control("/state")).json();
    expect(first.shopify.variants).toBe(50);
    await control("/reset", { body: { seed: 7, size: 50 } });
    const second = await (await control("/state")).json();
    expect([second.shopify.variants, second.acumatica.stockItems, second.acumatica.nonStockItems]).toEqual([
      first.shopify.variants,
      first.acumatica.stockItems,
      first.acumatica.nonStockItems,
    ]);
  });

  it("names the field on bad input and changes nothing", async () => {
    const badSize = await control("/reset", { body: { size: 0 } });
    expect(badSize.status).toBe(400);
    expect((await badSize.json()).error).toMatch(/size must be a whole number/);
    const badSystem = await control("/faults", { method: "PUT", body: { paypal: {} } });
    expect(badSystem.status).toBe(400);
    const badFault = await control("/faults", {
      method: "PUT",
      body: { shopify: { throttleProfile: "huge" } },
    });
    expect(badFault.status).toBe(400);
    expect((await badFault.json()).error).toMatch(/throttleProfile/);
  });

  it("advances the clock", async () => {
    const before = new Date((await (await control("/state")).json()).now).getTime();
    const answer = await (await control("/clock", { body: { advanceSeconds: 3_600 } })).json();
    expect(new Date(answer.now).getTime() - before).toBeGreaterThanOrEqual(3_600_000);
  });

  it("accepts ERP quantities for a known item and refuses an unknown item or a missing field", async () => {
    const known = await control("/acumatica/quantities", {
      body: {
        inventoryId: "SKU-00001-S",
        warehouseId: "WHOLESALE",
        onHand: 9,
        available: 7,
        availableForShipment: 7,
      },
    });
    expect(known.status).toBe(200);
    const unknown = await control("/acumatica/quantities", {
      body: {
        inventoryId: "NOPE-1",
        warehouseId: "WHOLESALE",
        onHand: 1,
        available: 1,
        availableForShipment: 1,
      },
    });
    expect(unknown.status).toBe(400);
    const missing = await control("/acumatica/quantities", { body: { inventoryId: "X" } });
    expect(missing.status).toBe(400);
  });

  it("adds a variant to a product as a merchant would in the admin, and refuses an unknown product or a taken title", async () => {
    await control("/reset", { body: { seed: 7, size: 50 } });
    const product = generateCatalog({ seed: 7, size: 50 }).shopify.products[0]!;
    const { now } = await (await control("/state")).json();

    const added = await control("/shopify/variants", {
      body: { productId: product.id, sku: "NEW-SKU-1", priceCents: 1250, title: "Extra large" },
    });
    expect(added.status).toBe(200);
    const { id } = await added.json();
    const read = await fetch(
      `${running!.origin}/shopify/${SANDBOX_DEMO.shopify.storeName}/admin/api/2026-01/graphql.json`,
      {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "X-Shopify-Access-Token": SANDBOX_DEMO.shopify.accessToken,
        },
        body: JSON.stringify({
          query: `query($id: ID!) { productVariant(id: $id) { sku price title createdAt updatedAt product { id } inventoryItem { tracked inventoryLevels(first: 5) { nodes { id } } } } }`,
          variables: { id },
        }),
      },
    );
    const { data } = await read.json();
    expect(data.productVariant).toMatchObject({
      sku: "NEW-SKU-1",
      price: "12.50",
      title: "Extra large",
      product: { id: `gid://shopify/Product/${product.id}` },
      inventoryItem: { tracked: true, inventoryLevels: { nodes: [] } },
    });
    // Created now, to the second as Shopify's DateTime.
    const later = (await (await control("/state")).json()).now;
    const updatedAt = Date.parse(data.productVariant.updatedAt);
    expect(updatedAt).toBeGreaterThanOrEqual(Math.floor(Date.parse(now) / 1000) * 1000);
    expect(updatedAt).toBeLessThanOrEqual(Date.parse(later));

    const taken = await control("/shopify/variants", {
      body: { productId: product.id, priceCents: 100, title: "extra LARGE" },
    });
    expect(taken.status).toBe(400);
    const unknown = await control("/shopify/variants", { body: { productId: 999_999_999, priceCents: 100 } });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error).toBe("Unknown product 999999999.");
    expect((await (await control("/state")).json()).shopify.variants).toBe(51);
  });
});
