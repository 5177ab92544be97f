import { TOKEN_STORAGE_KEY } from "@stockbridge/shared";
import { Dexie } from "dexie";
import { IDBKeyRange, indexedDB } from "fake-indexeddb";
import { describe, expect, it } from "vitest";
import { createCatalogRepo } from "../../../edge/src/catalog/repo.ts";
import { createSearchCache } from "../../../edge/src/catalog/search-cache.ts";
import type { AcumaticaItemRow } from "../../../edge/src/connectors/acumatica/catalog-reader.ts";
import type { ShopifyVariantRow } from "../../../edge/src/connectors/shopify/catalog-reader.ts";
import { createTestApp, type TestApp } from "../../../edge/testing/helpers.ts";
import { registerSubscriber } from "../../../edge/testing/mapping-fixtures.ts";
import { createMemoryStorage } from "../lib/token-store.ts";
import { createServices } from "../services.ts";
import { createDatabase, type DatabaseOptions } from "./database.ts";

/** Shopify variants with tied prices, empty compare-at prices and untracked stock, mixed-case SKUs. */
function variant(n: number, priceShift = 0): ShopifyVariantRow {
  const priceCents = 500 + ((n * 7) % 5) * 100 + priceShift;
  const stocked = n % 4 !== 0;
  return {
    variantId: `gid://shopify/ProductVariant/${1000 + n}`,
    productId: `gid://shopify/Product/${500 + Math.floor(n / 3)}`,
    inventoryItemId: `gid://shopify/InventoryItem/${2000 + n}`,
    title: `Product ${n}`,
    sku: n % 2 === 0 ? `Shirt-${String(n).padStart(3, "0")}-XL` : `sock-${String(n).padStart(3, "0")}-m`,
    priceCents,
    compareAtPriceCents: n % 3 === 0 ? null : priceCents + 100,
    isPhysical: true,
    tracked: true,
    locationId: stocked ? "gid://shopify/Location/1" : null,
    available: stocked ? (n * 5) % 7 : null,
    onHand: stocked ? ((n * 5) % 7) + (n % 2) : null,
    levels: stocked
      ? [
          {
            locationId: "gid://shopify/Location/1",
            name: "Main",
            available: (n * 5) % 7,
            onHand: ((n * 5) % 7) + (n % 2),
          },
        ]
      : [],
  };
}

function item(n: number): AcumaticaItemRow {
  return {
    acumaticaId: `ITEM-${n}`,
    sku: n % 3 === 0 ? `Erp-${n}` : `erp-${n}-B`,
    description: `Item ${n}`,
    defaultPriceCents: 900 + (n % 4) * 50,
    msrpCents: n % 5 === 0 ? null : 1500,
    available: n % 6 === 0 ? null : n % 3,
    onHand: n % 3,
    availableForShipping: n % 2,
    isStockItem: true,
    warehouses: [],
  };
}

/** A pull of both catalogs as the edge stores it (staged, swapped, search-indexed). */
async function pull(
  edge: TestApp,
  userId: string,
  rows: { shopify: ShopifyVariantRow[]; acumatica: AcumaticaItemRow[] },
) {
  const repo = createCatalogRepo(edge.db, createSearchCache());
  const job = crypto.randomUUID();
  await repo.stageShopify({ jobId: job, userId, rows: rows.shopify, newId: () => crypto.randomUUID() });
  await repo.swap("shopify", { jobId: job, userId, syncedAt: "2026-03-01T10:00:00.000Z" });
  await repo.indexSearch("shopify", userId);
  await repo.stageAcumatica({ jobId: job, userId, rows: rows.acumatica, newId: () => crypto.randomUUID() });
  await repo.swap("acumatica", { jobId: job, userId, syncedAt: "2026-03-01T10:00:00.000Z" });
  await repo.indexSearch("acumatica", userId);
}

function openApp(edge: TestApp, token: string, database: DatabaseOptions) {
  const storage = createMemoryStorage();
  storage.setItem(TOKEN_STORAGE_KEY, token);
  return createServices({
    storage,
    appVersion: "test",
    apiBaseUrl: "http://app.test/api",
    database,
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => edge.app.request(String(input), init),
  });
}

const SHOPIFY_SORTS = ["sku", "price", "compareAtPrice", "available", "onHandInventory", "lastSynced"];
const ACUMATICA_SORTS = [
  "sku",
  "defaultPrice",
  "msrp",
  "available",
  "onHandInventory",
  "availableForShipping",
];

/** Every sort both ways, with and without a search, on a page past the first. */
function queries(sorts: string[]) {
  const all: Record<string, string>[] = [];
  for (const sortBy of sorts)
    for (const sortDirection of ["asc", "desc"])
      for (const search of ["", "SHIRT", "-m"])
        all.push({ sortBy, sortDirection, search, page: "2", limit: "7" });
  return all;
}

type App = ReturnType<typeof openApp>;
type Server = ReturnType<TestApp["client"]>;

async function expectSameLists(app: App, server: Server) {
  for (const query of queries(SHOPIFY_SORTS)) {
    const fromMirror = await app.api.call("shopifyProducts", { query });
    const fromServer = await server.call("shopifyProducts", { query });
    expect({ query, ...fromMirror }).toEqual({ query, ...fromServer });
  }
  for (const query of queries(ACUMATICA_SORTS)) {
    const fromMirror = await app.api.call("acumaticaProducts", { query });
    const fromServer = await server.call("acumaticaProducts", { query });
    expect({ query, ...fromMirror }).toEqual({ query, ...fromServer });
  }
  for (const search of ["", "SHIRT", "erp-1"])
    for (const sortDirection of ["asc", "desc"] as const) {
      const query = { search, sortDirection, limit: "6", shopifyOffset: "6", acumaticaOffset: "0" };
      const fromMirror = await app.api.call("unmapped", { query });
      expect({ query, ...fromMirror }).toEqual({ query, ...(await server.call("unmapped", { query })) });
    }
}

/** Until the app saved each list's search index for the rows its table holds now. */
async function savedIndexes(database: DatabaseOptions) {
  const db = createDatabase(database);
  try {
    const states = new Map((await db.mirrorState.toArray()).map((state) => [state.list, state.revision]));
    const saved = await db.mirrorIndexes.toArray();
    return saved
      .filter((index) => index.revision === states.get(index.list))
      .map((index) => index.list)
      .sort();
  } finally {
    db.close();
  }
}

/** The lists mirrored: the catalogs, and the mappings the unmapped products are worked out with. */
const LISTS = ["shopify", "acumatica", "mappings"] as const;
/** The lists whose search indexes are saved once filled (the mappings list here is empty). */
const INDEXED = ["acumatica", "shopify"];

/** A subscriber whose catalogs hold 40 products a side, and a mirror database of their own. */
async function catalogUser() {
  const edge = await createTestApp();
  const { userId, api: server, token } = await registerSubscriber(edge);
  const numbers = Array.from({ length: 40 }, (_, n) => n + 1);
  await pull(edge, userId, { shopify: numbers.map((n) => variant(n)), acumatica: numbers.map(item) });
  const database = { name: `mirror-catalog-${crypto.randomUUID()}`, indexedDB, IDBKeyRange };
  // A later pull: prices moved, some products gone, new ones added. The feed brings only that.
  const next = numbers.filter((n) => n % 9 !== 0).concat([41, 42, 43]);
  const pullChanges = (shift: number) =>
    pull(edge, userId, {
      shopify: next.map((n) => variant(n, n % 2 === 0 ? shift : 0)),
      acumatica: next.slice(shift % 4).map(item),
    });
  return { edge, server, token, database, pullChanges };
}

describe("the mirror's catalog search and sort", () => {
  it("answers every sort, search and page as the server does, before and after a pull changed rows", async () => {
    const { edge, server, token, database, pullChanges } = await catalogUser();
    const app = openApp(edge, token, database);
    for (const list of LISTS) await app.mirror.refresh(list);
    await expectSameLists(app, server);

    await pullChanges(250);
    for (const list of LISTS) await app.mirror.refresh(list);
    await expectSameLists(app, server);
  });

  it("answers from the saved search indexes in an app opened again, and they follow a pull made before any read", async () => {
    const { edge, server, token, database, pullChanges } = await catalogUser();
    const first = openApp(edge, token, database);
    for (const list of LISTS) await first.mirror.refresh(list);
    await expect.poll(() => savedIndexes(database)).toEqual(expect.arrayContaining(INDEXED));
    await expectSameLists(openApp(edge, token, database), server);

    const reopened = openApp(edge, token, database);
    await pullChanges(50);
    for (const list of LISTS) await reopened.mirror.refresh(list);
    await expect.poll(() => savedIndexes(database)).toEqual(expect.arrayContaining(INDEXED));
    await expectSameLists(openApp(edge, token, database), server);
  });

  it("keeps a mirror an installed app filled under the previous schema and answers its lists from it", async () => {
    const { edge, server, token, database } = await catalogUser();
    const filled = openApp(edge, token, database);
    for (const list of LISTS) await filled.mirror.refresh(list);
    const rows = await Promise.all(
      (["shopifyProducts", "acumaticaProducts", "mirrorState"] as const).map(async (name) => {
        const db = createDatabase(database);
        try {
          return [name, await db.table(name).toArray()] as const;
        } finally {
          db.close();
        }
      }),
    );
    // The same rows in a database at version 2, as the app before the search indexes left it.
    const previous = { ...database, name: `mirror-v2-${crypto.randomUUID()}` };
    const old = new Dexie(previous.name, { indexedDB, IDBKeyRange });
    old.version(1).stores({ kv: "key" });
    old.version(2).stores({
      shopifyProducts:
        "_id, [skuKey+position], position, [s_price+position], [s_compareAtPrice+position], [s_available+position], [s_onHandInventory+position]",
      acumaticaProducts:
        "_id, [skuKey+position], position, [s_defaultPrice+position], [s_msrp+position], [s_available+position], [s_onHandInventory+position], [s_availableForShipping+position]",
      mappings: "_id, [createdAt+_id]",
      unmapped: "_id, [system+skuKey+externalId]",
      schedules: "_id, [createdAt+position]",
      history: "_id, [startDate+_id]",
      mirrorState: "list",
      outbox: "++seq, userId",
    });
    for (const [name, stored] of rows)
      await old
        .table(name)
        .bulkPut(name === "mirrorState" ? stored.map(({ revision: _revision, ...state }) => state) : stored);
    old.close();

    const upgraded = openApp(edge, token, previous);
    await expectSameLists(upgraded, server);
  });
});
