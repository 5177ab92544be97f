import { afterEach, describe, expect, it } from "vitest";
import { generateCatalog } from "../../sandbox/src/seed/catalog.ts";
import { type ConnectedApp, createConnectedApp } from "./connectors-harness.ts";
import { grantSubscription } from "./helpers.ts";

let app: ConnectedApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function pulled(size = 300, systems: ("shopify" | "acumatica")[] = ["shopify"]) {
  app = await createConnectedApp({ size });
  await app.connectShopify();
  await app.connectAcumatica();
  const names = { shopify: "syncShopifyProducts", acumatica: "syncAcumaticaProducts" } as const;
  for (const name of systems.map((system) => names[system])) {
    const { job } = await app.api.call(name);
    expect((await app.waitForJob(job._id)).status).toBe("succeeded");
  }
  return app;
}

describe("GET /api/shopify/products", () => {
  it("pages with total and totalPages, newest sync first, ties broken by id", async () => {
    const target = await pulled();
    const first = await target.api.call("shopifyProducts");
    expect(first).toMatchObject({ total: 288, page: 1, totalPages: 29 });
    expect(first.products).toHaveLength(10);
    const ids = first.products.map((product) => product._id);
    expect(ids).toEqual([...ids].sort().reverse());
    const last = await target.api.call("shopifyProducts", { query: { page: "29" } });
    expect(last.products).toHaveLength(8);
    const beyond = await target.api.call("shopifyProducts", { query: { page: "30" } });
    expect(beyond).toMatchObject({ products: [], total: 288, page: 30 });
  });

  it("searches SKUs case-insensitively by contains", async () => {
    const target = await pulled();
    const answer = await target.api.call("shopifyProducts", { query: { search: "ku-0001", limit: "100" } });
    expect(answer.total).toBeGreaterThan(0);
    expect(answer.products.every((product) => product.sku.toLowerCase().includes("ku-0001"))).toBe(true);
    const upper = await target.api.call("shopifyProducts", { query: { search: "KU-0001", limit: "100" } });
    expect(upper.products.map((product) => product._id)).toEqual(
      answer.products.map((product) => product._id),
    );
    const none = await target.api.call("shopifyProducts", { query: { search: "no-such-sku" } });
    expect(none).toEqual({ products: [], total: 0, page: 1, totalPages: 0 });
    // % and _ are plain characters, not patterns.
    expect((await target.api.call("shopifyProducts", { query: { search: "%" } })).total).toBe(0);
  });

  it.each([
    ["price", "asc"],
    ["price", "desc"],
    ["compareAtPrice", "asc"],
    ["available", "desc"],
    ["onHandInventory", "asc"],
    ["sku", "desc"],
  ] as const)("sorts by %s %s with the id as tie-break", async (sortBy, sortDirection) => {
    const target = await pulled();
    const answer = await target.api.call("shopifyProducts", {
      query: { sortBy, sortDirection, limit: "100" },
    });
    const value = (product: (typeof answer.products)[number]) =>
      sortBy === "sku"
        ? product.sku.toLowerCase()
        : sortBy === "available" || sortBy === "onHandInventory"
          ? (product.inventoryLocations[0]?.[sortBy === "available" ? "available" : "onHandInventory"] ??
            null)
          : product[sortBy];
    const sign = sortDirection === "asc" ? 1 : -1;
    for (let index = 1; index < answer.products.length; index += 1) {
      const a = value(answer.products[index - 1]!);
      const b = value(answer.products[index]!);
      const order = a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1;
      expect(order * sign).toBeLessThanOrEqual(0);
      if (order === 0)
        expect(
          answer.products[index - 1]!._id.localeCompare(answer.products[index]!._id) * sign,
        ).toBeLessThan(0);
    }
  });

  it.each([
    [
      { sortBy: "title" },
      "sortBy must be one of sku, price, compareAtPrice, available, onHandInventory, lastSynced",
    ],
    [{ sortDirection: "up" }, "sortDirection must be asc or desc"],
    [{ page: "0" }, "page must be at least 1"],
    [{ limit: "101" }, "limit must be at most 100"],
    [{ limit: "ten" }, "limit must be a whole number"],
  ])("answers 400 for %j", async (query, message) => {
    app = await createConnectedApp();
    const target = app;
    const response = await target.request(`/api/shopify/products?${new URLSearchParams(query)}`, {
      token: target.user.token,
    });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe(message);
  });

  it("shows a user only their own rows, and needs a subscription", async () => {
    const target = await pulled();
    const other = await target.registerUser();
    const response = await target.request("/api/shopify/products", { token: other.token });
    expect(response.status).toBe(403);
    expect((await response.json()).message).toBe("A subscription is required to access this service.");
    await grantSubscription(target.db, other.user._id);
    expect(await target.client(other.token).call("shopifyProducts", { query: { search: "sku" } })).toEqual({
      products: [],
      total: 0,
      page: 1,
      totalPages: 0,
    });
  });
});

describe("GET /api/acumatica/products/", () => {
  it("answers at the spec's path with a trailing slash too", async () => {
    const target = await pulled(300, ["acumatica"]);
    const response = await target.request(
      "/api/acumatica/products/?limit=5&sortBy=defaultPrice&sortDirection=asc",
      {
        token: target.user.token,
      },
    );
    expect(response.status).toBe(200);
    const { data } = await response.json();
    expect(data.products).toHaveLength(5);
    expect(data.total).toBe(288);
    const prices = data.products.map((product: { defaultPrice: number }) => product.defaultPrice);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
  });

  it("counts broad searches exactly and narrow ones from the matches, and forgets them after a new pull", async () => {
    const target = await pulled(2_500, ["acumatica"]);
    const items = generateCatalog({ seed: 42, size: 2_500 }).acumatica.items;
    const count = (term: string) =>
      items.filter((item) => item.inventoryId.toLowerCase().includes(term)).length;
    for (const term of ["sku", "-m", "0012", "erp-only"]) {
      const first = await target.api.call("acumaticaProducts", { query: { search: term, limit: "100" } });
      expect(first.total).toBe(count(term));
      const again = await target.api.call("acumaticaProducts", {
        query: { search: term.toUpperCase(), limit: "100", page: "2" },
      });
      expect(again.total).toBe(count(term));
      expect(again.products.every((product) => product.sku.toLowerCase().includes(term))).toBe(true);
    }
    target.sandbox.reset(42, 300);
    const { job } = await target.api.call("syncAcumaticaProducts");
    await target.waitForJob(job._id);
    const smaller = generateCatalog({ seed: 42, size: 300 }).acumatica.items;
    expect((await target.api.call("acumaticaProducts", { query: { search: "sku" } })).total).toBe(
      smaller.filter((item) => item.inventoryId.toLowerCase().includes("sku")).length,
    );
  });
});
