import { generateCatalog } from "@stockbridge/sandbox";
import { afterEach, describe, expect, it } from "vitest";
import { type ConnectedApp, createConnectedApp } from "../../testing/connectors-harness.ts";
import { grantSubscription } from "../../testing/helpers.ts";
import { parseRowids, rowidSet } from "./sort-orders.ts";

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
  it("pages with total and totalPages, newest sync first, then the latest stored first", async () => {
    const target = await pulled();
    const first = await target.api.call("shopifyProducts");
    expect(first).toMatchObject({ total: 288, page: 1, totalPages: 29 });
    expect(first.products).toHaveLength(10);
    // One pull synced them all at once; the pull stored them in Shopify's order (by variant id).
    const variantIds = first.products.map((product) => Number(product.variantId.split("/").pop()));
    expect(variantIds).toEqual([...variantIds].sort((a, b) => b - a));
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
    expect(none).toEqual({ products: [], total: 0, page: 1, totalPages: 0, currencyCode: null });
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
  ] as const)("sorts by %s %s, ties in the order the pull stored them", async (sortBy, sortDirection) => {
    const target = await pulled();
    const stored = await storedOrder((page) =>
      target.api.call("shopifyProducts", { query: { page: String(page), limit: "100" } }),
    );
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
          (stored.get(answer.products[index - 1]!._id)! - stored.get(answer.products[index]!._id)!) * sign,
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

  it("names the currency the prices are in once the connection tests have read it", async () => {
    const target = await pulled(40, ["shopify", "acumatica"]);
    // Until a test reads them, the currencies are not known: prices show without a symbol.
    expect((await target.api.call("shopifyProducts")).currencyCode).toBeNull();
    target.shopify.configure({ currencyCode: "EUR" });
    await target.api.call("testShopify");
    await target.api.call("testAcumatica");
    expect((await target.api.call("shopifyProducts")).currencyCode).toBe("EUR");
    expect((await target.api.call("acumaticaProducts")).currencyCode).toBe("USD");
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
      currencyCode: null,
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
      expect(again.products).toHaveLength(Math.min(100, Math.max(0, count(term) - 100)));
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

/** The app with the sandbox's Acumatica reset to `catalog` and pulled once. */
async function pulledAcumatica(catalog: ReturnType<typeof generateCatalog>) {
  app = await createConnectedApp({ size: 20 });
  app.acumatica.reset(catalog);
  await app.connectAcumatica();
  const { job } = await app.api.call("syncAcumaticaProducts");
  expect((await app.waitForJob(job._id)).status).toBe("succeeded");
  return app;
}

/** Every product of a list, read page by page in the default order. */
async function everyProduct<P extends { _id: string }>(
  read: (page: number) => Promise<{ products: P[]; totalPages: number }>,
): Promise<P[]> {
  const all: P[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await read(page);
    all.push(...answer.products);
    if (page >= answer.totalPages) return all;
  }
}

/**
 * Each product's place in the order a pull stored the catalog: the default list (lastSynced
 * descending, all equal after one pull) read backwards.
 */
async function storedOrder<P extends { _id: string }>(
  read: (page: number) => Promise<{ products: P[]; totalPages: number }>,
): Promise<Map<string, number>> {
  const newestFirst = await everyProduct(read);
  return new Map(newestFirst.reverse().map((product, index) => [product._id, index]));
}

/** Sorts like the lists: NULL first ascending, then the value; ties keep their order in `products`. */
function sortedBy<P extends { _id: string }>(products: P[], value: (product: P) => number | string | null) {
  const compare = (a: number | string | null, b: number | string | null) =>
    a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1;
  return [...products].sort((a, b) => compare(value(a), value(b)));
}

describe("product lists over a large catalog", () => {
  it("finds 1- and 2-character searches by contains, with exact totals and pages", async () => {
    const catalog = generateCatalog({ seed: 7, size: 2_500 });
    const target = await pulledAcumatica(catalog);
    let multiPage = 0;
    for (const term of ["5", "m", "-l", "07", "Y"]) {
      const skus = catalog.acumatica.items
        .map((item) => item.inventoryId)
        .filter((sku) => sku.toLowerCase().includes(term.toLowerCase()))
        .sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1));
      const first = await target.api.call("acumaticaProducts", {
        query: { search: term, sortBy: "sku", sortDirection: "asc", limit: "100" },
      });
      expect(first.total).toBe(skus.length);
      expect(first.totalPages).toBe(Math.ceil(skus.length / 100));
      expect(first.products.map((product) => product.sku)).toEqual(skus.slice(0, 100));
      if (first.totalPages > 1) {
        multiPage += 1;
        const last = await target.api.call("acumaticaProducts", {
          query: {
            search: term,
            sortBy: "sku",
            sortDirection: "desc",
            limit: "100",
            page: String(first.totalPages),
          },
        });
        expect(last.products.map((product) => product.sku)).toEqual(
          [...skus].reverse().slice((first.totalPages - 1) * 100),
        );
      }
    }
    // The last-page check above must have run: a smaller seed would otherwise skip it silently.
    expect(multiPage).toBeGreaterThan(0);
  });

  it("treats %, _ and quotes in a search as plain characters, at any length", async () => {
    const catalog = generateCatalog({ seed: 8, size: 300 });
    const crafted = [
      "PCT%OFF-1",
      "PCTXOFF-2",
      "UNDER_SCORE-3",
      "UNDERXSCORE-4",
      'SAY"HI"-5',
      "ÉTÉ😀-6",
      "A%_B-7",
    ];
    crafted.forEach((sku, index) => {
      const item = catalog.acumatica.items[index];
      if (item) item.inventoryId = sku;
    });
    const target = await pulledAcumatica(catalog);
    const found = async (search: string) =>
      (
        await target.api.call("acumaticaProducts", { query: { search, limit: "100", sortBy: "sku" } })
      ).products.map((product) => product.sku);
    expect(await found("%")).toEqual(["PCT%OFF-1", "A%_B-7"].sort().reverse());
    expect(await found("_")).toEqual(["UNDER_SCORE-3", "A%_B-7"]);
    expect(await found("%_")).toEqual(["A%_B-7"]);
    expect(await found("t%o")).toEqual(["PCT%OFF-1"]);
    expect(await found("r_sc")).toEqual(["UNDER_SCORE-3"]);
    expect(await found("%off")).toEqual(["PCT%OFF-1"]);
    expect(await found('"hi"')).toEqual(['SAY"HI"-5']);
    expect(await found('y"h')).toEqual(['SAY"HI"-5']);
    expect(await found("été😀")).toEqual(["ÉTÉ😀-6"]);
    expect(await found("É😀")).toEqual(["ÉTÉ😀-6"]);
    expect(await found("x%")).toEqual([]);
    expect(await found("pct_off")).toEqual([]);
  });

  it.each(["shopify", "acumatica"] as const)(
    "answers a deep %s page equal to that slice of the fully sorted catalog, either way, searched or not",
    async (system) => {
      const target = await pulled(2_500, [system]);
      // Both lists as { _id, sku, price }: only those decide the order and the matches.
      const read = async (query: Record<string, string>) => {
        if (system === "shopify") {
          const answer = await target.api.call("shopifyProducts", { query });
          const products = answer.products.map(({ _id, sku, price }) => ({ _id, sku, price }));
          return { ...answer, products };
        }
        const answer = await target.api.call("acumaticaProducts", { query });
        const products = answer.products.map(({ _id, sku, defaultPrice }) => ({
          _id,
          sku,
          price: defaultPrice,
        }));
        return { ...answer, products };
      };
      // The default list is newest stored first: reversed, it is the stored order that breaks ties.
      const all = (await everyProduct((page) => read({ page: String(page), limit: "100" }))).reverse();
      expect(all).toHaveLength((await read({})).total);
      const sortBy = system === "shopify" ? "price" : "defaultPrice";
      const ascending = sortedBy(all, (product) => product.price);
      for (const [search, sortDirection, page] of [
        ["", "asc", 191],
        ["", "desc", 177],
        ["sku", "asc", 150], // most rows match
        ["-m", "desc", 40], // a few hundred match
        ["7", "asc", 9],
      ] as const) {
        const matching = ascending.filter((product) => product.sku.toLowerCase().includes(search));
        const expected = sortDirection === "asc" ? matching : [...matching].reverse();
        const answer = await read({ search, sortBy, sortDirection, page: String(page), limit: "10" });
        expect(answer.total).toBe(matching.length);
        expect(answer.products.map((product) => product._id)).toEqual(
          expected.slice((page - 1) * 10, page * 10).map((product) => product._id),
        );
      }
    },
  );

  it("totals a search exactly, broad or narrow, and pages it to its end", async () => {
    // Over 5,000 rows, so a common term has too many trigram candidates and is scanned instead.
    const target = await pulled(5_200, ["shopify"]);
    const all = await everyProduct((page) =>
      target.api.call("shopifyProducts", { query: { page: String(page), limit: "100" } }),
    );
    for (const term of ["sku", "SKU-0", "-s", "0012", "sku-00123", "no-such"]) {
      const matching = all.filter((product) => product.sku.toLowerCase().includes(term.toLowerCase()));
      const answer = await target.api.call("shopifyProducts", { query: { search: term, limit: "25" } });
      expect(answer).toMatchObject({ total: matching.length, totalPages: Math.ceil(matching.length / 25) });
      const pages = await everyProduct((page) =>
        target.api.call("shopifyProducts", { query: { search: term, limit: "25", page: String(page) } }),
      );
      expect(pages.map((product) => product._id).sort()).toEqual(
        matching.map((product) => product._id).sort(),
      );
    }
  });

  it("lists in the new order after a price or SKU changes in place (as the sync engine writes)", async () => {
    const target = await pulled(300, ["acumatica"]);
    const query = { sortBy: "defaultPrice", sortDirection: "asc", limit: "5" } as const;
    const before = await target.api.call("acumaticaProducts", { query });
    const searched = await target.api.call("acumaticaProducts", { query: { ...query, search: "sku" } });
    const priciest = (
      await target.api.call("acumaticaProducts", { query: { ...query, sortDirection: "desc" } })
    ).products[0]!;
    await target.db.execute({
      sql: "UPDATE acumatica_products SET default_price_cents = 0, sku = 'SKU-CHEAPEST', sku_key = 'sku-cheapest' WHERE id = ?",
      args: [priciest._id],
    });
    const after = await target.api.call("acumaticaProducts", { query });
    expect(after.products[0]).toMatchObject({ _id: priciest._id, defaultPrice: 0 });
    expect(after.products.slice(1).map((product) => product._id)).toEqual(
      before.products.slice(0, 4).map((product) => product._id),
    );
    expect(
      (await target.api.call("acumaticaProducts", { query: { ...query, search: "sku" } })).products[0]?._id,
    ).toBe(priciest._id);
    expect(searched.products[0]?._id).not.toBe(priciest._id);
    expect(
      (await target.api.call("acumaticaProducts", { query: { search: "cheapest" } })).products.map(
        (product) => product._id,
      ),
    ).toEqual([priciest._id]);
  });
});

describe("rowidSet", () => {
  it("answers membership alike for dense rowids (a bitmap) and sparse ones (a sorted list)", () => {
    for (const members of [
      [5, 9, 6, 1_000, 7],
      [3, 90_000_000, -4, 2_000_000_000, 17],
    ]) {
      const set = rowidSet(parseRowids(members.join(",")));
      for (const rowid of [...members, 0, 8, 2, 1_001, 90_000_001, -5, 2_000_000_001]) {
        expect(set.has(rowid)).toBe(members.includes(rowid));
      }
    }
    expect(rowidSet(parseRowids("")).has(1)).toBe(false);
  });
});
