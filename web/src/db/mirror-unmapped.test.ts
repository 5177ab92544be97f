import { type Mapping, TOKEN_STORAGE_KEY, type Unmapped } from "@stockbridge/shared";
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
import { MIRROR_LISTS } from "./mirror-rows.ts";

/*
 * Shopify SKUs that tie once lowercased ('DUP-7' / 'dup-7': the server breaks the tie by variant id,
 * which runs against the stored order here), mixed case, and one variant without a SKU.
 */
const SHOPIFY_SKUS = ["DUP-7", "dup-7", "Shirt-B", "sku-001", "SKU-002", "sku-010", "", "Sock-b", "Dup-70"];
const ERP_SKUS = ["ERP-1", "erp-2-B", "Dup-7", "SKU-001", "sku-002", "erp-10", "ERP-3", "b-erp", "dup-7"];

function variant(n: number, sku: string): ShopifyVariantRow {
  return {
    // Ids counting down: the stored order and the id order disagree.
    variantId: `gid://shopify/ProductVariant/${9000 - n}`,
    productId: `gid://shopify/Product/${500 + n}`,
    inventoryItemId: `gid://shopify/InventoryItem/${2000 + n}`,
    title: `Product ${n}`,
    sku,
    priceCents: 1000,
    compareAtPriceCents: null,
    isPhysical: true,
    tracked: true,
    locationId: "gid://shopify/Location/1",
    available: 1,
    onHand: 1,
    levels: [{ locationId: "gid://shopify/Location/1", name: "Main", available: 1, onHand: 1 }],
  };
}

function item(n: number, sku: string): AcumaticaItemRow {
  return {
    acumaticaId: `ITEM-${90 - n}`,
    sku,
    description: `Item ${n}`,
    defaultPriceCents: 900,
    msrpCents: null,
    available: 1,
    onHand: 1,
    availableForShipping: 1,
    isStockItem: true,
    warehouses: [],
  };
}

/**
 * A pull of both catalogs as the edge stores it (staged, swapped, search-indexed). A product's ids
 * follow its place in the list: null leaves that product out of this pull.
 */
async function pull(
  edge: TestApp,
  userId: string,
  skus: { shopify: (string | null)[]; acumatica: (string | null)[] },
) {
  const repo = createCatalogRepo(edge.db, createSearchCache());
  const job = crypto.randomUUID();
  const at = new Date().toISOString();
  await repo.stageShopify({
    jobId: job,
    userId,
    rows: skus.shopify.flatMap((sku, n) => (sku === null ? [] : [variant(n, sku)])),
    newId: () => crypto.randomUUID(),
  });
  await repo.swap("shopify", { jobId: job, userId, syncedAt: at });
  await repo.indexSearch("shopify", userId);
  await repo.stageAcumatica({
    jobId: job,
    userId,
    rows: skus.acumatica.flatMap((sku, n) => (sku === null ? [] : [item(n, sku)])),
    newId: () => crypto.randomUUID(),
  });
  await repo.swap("acumatica", { jobId: job, userId, syncedAt: at });
  await repo.indexSearch("acumatica", userId);
}

/** The app on this device against the real edge in-process; `network.online` cuts it off. */
function deviceApp(edge: TestApp, token: string, database: DatabaseOptions) {
  const network = { online: true };
  const calls: string[] = [];
  const storage = createMemoryStorage();
  storage.setItem(TOKEN_STORAGE_KEY, token);
  const services = createServices({
    storage,
    appVersion: "test",
    apiBaseUrl: "http://app.test/api",
    database,
    isOnline: () => network.online,
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      if (!network.online) throw new TypeError("Failed to fetch");
      calls.push(`${init?.method ?? "GET"} ${new URL(String(input)).pathname}`);
      return edge.app.request(String(input), init);
    },
  });
  return { services, network, calls };
}

type Device = ReturnType<typeof deviceApp>["services"];

/** Every list the mirror keeps, filled (or brought up to date) from its feed. */
async function fill(device: Device) {
  for (const list of MIRROR_LISTS) await device.mirror.refresh(list);
}
type Server = ReturnType<TestApp["client"]>;

/** Searches, both directions and windows of both lists, a page deep into each too. */
function queries(): Record<string, string>[] {
  const all: Record<string, string>[] = [];
  for (const search of ["", "dup", "SKU-00", "b", "nothing-like-it"])
    for (const sortDirection of ["asc", "desc"])
      for (const [limit, shopifyOffset, acumaticaOffset] of [
        ["5", "0", "0"],
        ["3", "3", "5"],
        ["10", "2", "0"],
      ] as const)
        all.push({ search, sortDirection, limit, shopifyOffset, acumaticaOffset });
  return all;
}

/** The device's answers to every query, read while it may be offline. */
async function deviceAnswers(device: Device): Promise<Unmapped[]> {
  const answers: Unmapped[] = [];
  for (const query of queries()) answers.push(await device.api.call("unmapped", { query }));
  return answers;
}

async function expectServerAnswers(server: Server, answers: Unmapped[]) {
  const all = queries();
  for (const [at, query] of all.entries())
    expect({ query, ...answers[at] }).toEqual({ query, ...(await server.call("unmapped", { query })) });
}

function found<T extends { sku: string }>(sku: string, products: T[]): T {
  const product = products.find((candidate) => candidate.sku === sku);
  if (!product) throw new Error(`no unmapped product ${sku}`);
  return product;
}

const skus = (answer: Unmapped) => [...answer.shopify, ...answer.acumatica].map((product) => product.sku);

describe("the unmapped products on the device", () => {
  it("answers every search, order and page as the server does, through offline mapping edits and the feeds, without the unmapped feed", async () => {
    const edge = await createTestApp();
    const { userId, api: server, token } = await registerSubscriber(edge);
    await pull(edge, userId, { shopify: SHOPIFY_SKUS, acumatica: ERP_SKUS });
    const everything = { query: { limit: "100" } };
    const start = await server.call("unmapped", everything);
    const variantOf = (sku: string, list = start) => found(sku, list.shopify);
    const itemOf = (sku: string, list = start) => found(sku, list.acumatica);
    const kept = await server.call("manualMap", {
      body: {
        shopifyVariantId: variantOf("sku-001").variantId,
        acumaticaProductId: itemOf("SKU-001").acumaticaId,
      },
    });
    await server.call("manualMap", {
      body: {
        shopifyVariantId: variantOf("Shirt-B").variantId,
        acumaticaProductId: itemOf("b-erp").acumaticaId,
      },
    });

    const database = { name: `mirror-unmapped-${crypto.randomUUID()}`, indexedDB, IDBKeyRange };
    const { services: device, network, calls } = deviceApp(edge, token, database);
    await device.auth.restore();
    await fill(device);
    await expectServerAnswers(server, await deviceAnswers(device));

    // Offline: one pair mapped (both products leave the list at once), one mapping deleted (its
    // products come back), both pending in the outbox.
    network.online = false;
    await device.api.call("manualMap", {
      body: {
        shopifyVariantId: variantOf("dup-7").variantId,
        acumaticaProductId: itemOf("erp-10").acumaticaId,
      },
    });
    await device.api.call("deleteMapping", { params: { id: kept._id } });
    const pending = await deviceAnswers(device);
    const shown = await device.api.call("unmapped", everything);
    const shopifySkus = shown.shopify.map((product) => product.sku);
    const erpSkus = shown.acumatica.map((product) => product.sku);
    expect(shopifySkus).not.toContain("dup-7");
    expect(erpSkus).not.toContain("erp-10");
    expect(shopifySkus).toContain("sku-001");
    expect(erpSkus).toContain("SKU-001");
    expect(await device.outbox.waiting()).toBe(2);

    // The server, once the edits reach it, answers what the device showed while they were pending.
    network.online = true;
    await device.outbox.drain();
    expect(await device.outbox.waiting()).toBe(0);
    await expectServerAnswers(server, pending);
    await expectServerAnswers(server, await deviceAnswers(device));

    // A pull renames, removes and adds products; another device maps a pair and deletes a mapping.
    await pull(edge, userId, {
      shopify: [...SHOPIFY_SKUS, "new-dup-7"].map((sku) =>
        sku === "SKU-002" ? null : sku === "Sock-b" ? "SOCK-B-RENAMED" : sku,
      ),
      acumatica: [...ERP_SKUS, "erp-new"].map((sku) => (sku === "ERP-3" ? null : sku)),
    });
    const now = await server.call("unmapped", everything);
    await server.call("manualMap", {
      body: {
        shopifyVariantId: variantOf("Dup-70", now).variantId,
        acumaticaProductId: itemOf("ERP-1", now).acumaticaId,
      },
    });
    const mappings = await server.call("mappingHistory", { query: { limit: "100" } });
    const shirt = mappings.mappings.find((mapping: Mapping) => mapping.shopifyDetails.sku === "Shirt-B");
    await server.call("deleteMapping", { params: { id: shirt?._id ?? "" } });
    await expectServerAnswers(server, await deviceAnswers(device));
    // The catalog's own SKU order (ties by stored order) follows from the one the list above held.
    for (const sortDirection of ["asc", "desc"] as const) {
      const query = { sortBy: "sku" as const, sortDirection, search: "dup", limit: "10" };
      expect(await device.api.call("shopifyProducts", { query })).toEqual(
        await server.call("shopifyProducts", { query }),
      );
    }

    // Offline again, the list still answers, from what the feeds brought.
    network.online = false;
    await expectServerAnswers(server, await deviceAnswers(device));
    expect(calls.filter((call) => call.includes("/unmapped"))).toEqual([]);
  });
});

/** The schema an installed app had before the unmapped products were worked out on the device. */
function previousSchema(name: string) {
  const old = new Dexie(name, { indexedDB, IDBKeyRange });
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
  old.version(3).stores({ mirrorIndexes: "list", shopifyProducts: "_id", acumaticaProducts: "_id" });
  return old;
}

describe("an app upgraded from the schema with an unmapped table", () => {
  it("drops the table and replays an edit queued before, restoring its mapping when the server refuses it", async () => {
    const edge = await createTestApp();
    const { userId, api: server, token } = await registerSubscriber(edge);
    await pull(edge, userId, { shopify: ["ALPHA", "BETA"], acumatica: ["ERP-A", "ERP-B", "ERP-C"] });
    const start = await server.call("unmapped", { query: { limit: "100" } });
    const [beta, alpha] = start.shopify;
    const [erpC, erpB, erpA] = start.acumatica;
    if (!alpha || !beta || !erpA || !erpB || !erpC) throw new Error("catalogs not pulled");
    const edited = await server.call("manualMap", {
      body: { shopifyVariantId: alpha.variantId, acumaticaProductId: erpA.acumaticaId },
    });
    await server.call("manualMap", {
      body: { shopifyVariantId: beta.variantId, acumaticaProductId: erpB.acumaticaId },
    });

    // The mirror filled, then moved into a database at version 3, with what the previous app kept:
    // the unmapped table and its state, and an offline edit of the first mapping to BETA / ERP-C
    // whose snapshots name rows of that table.
    const filled = { name: `mirror-filled-${crypto.randomUUID()}`, indexedDB, IDBKeyRange };
    await fill(deviceApp(edge, token, filled).services);
    const current = createDatabase(filled);
    const copied = await Promise.all(
      (["shopifyProducts", "acumaticaProducts", "mappings", "mirrorState"] as const).map(
        async (name) => [name, await current.table(name).toArray()] as const,
      ),
    );
    current.close();
    const previous = { ...filled, name: `mirror-v3-${crypto.randomUUID()}` };
    const old = previousSchema(previous.name);
    for (const [name, rows] of copied) await old.table(name).bulkPut(rows);
    const unmappedRow = (system: string, product: { _id: string; sku: string }, externalId: string) => ({
      _id: product._id,
      system,
      externalId,
      sku: product.sku,
      skuKey: product.sku.toLowerCase(),
    });
    await old
      .table("unmapped")
      .bulkPut([
        unmappedRow("shopify", alpha, alpha.variantId),
        unmappedRow("acumatica", erpA, erpA.acumaticaId),
      ]);
    await old.table("mirrorState").put({
      list: "unmapped",
      version: 1,
      complete: true,
      saved: 2,
      total: 2,
      lastSynced: null,
      revision: 1,
    });
    const before = await old.table("mappings").get(edited._id);
    await old.table("mappings").put({
      ...before,
      shopifyDetails: { _id: beta._id, variantId: beta.variantId, sku: beta.sku, missing: false },
      acumaticaDetails: { _id: erpC._id, acumaticaId: erpC.acumaticaId, sku: erpC.sku, missing: false },
      pending: true,
    });
    await old.table("outbox").add({
      userId,
      endpoint: "updateMapping",
      input: {
        params: { id: edited._id },
        body: { shopifyVariantId: beta.variantId, acumaticaProductId: erpC.acumaticaId },
      },
      label: "Edit mapping ALPHA / ERP-A",
      localId: null,
      before: [
        { list: "mappings", id: edited._id, row: before },
        { list: "unmapped", id: alpha._id, row: null },
        { list: "unmapped", id: erpA._id, row: null },
        { list: "unmapped", id: erpC._id, row: unmappedRow("acumatica", erpC, erpC.acumaticaId) },
      ],
      createdAt: Date.now(),
    });
    old.close();

    const { services: device } = deviceApp(edge, token, previous);
    await device.auth.restore();
    const upgraded = createDatabase(previous);
    await upgraded.open();
    expect(upgraded.backendDB().objectStoreNames.contains("unmapped")).toBe(false);
    expect(await upgraded.mirrorState.get("unmapped" as never)).toBeUndefined();

    // BETA is the second mapping's: the server refuses the edit, and the first mapping is back.
    await device.outbox.drain();
    expect(await device.outbox.waiting()).toBe(0);
    expect(await upgraded.mappings.get(edited._id)).toEqual(before);
    const query = { limit: "100" };
    expect(await device.api.call("unmapped", { query })).toEqual(await server.call("unmapped", { query }));
    expect(skus(await device.api.call("unmapped", { query }))).toEqual(["ERP-C"]);
    upgraded.close();
  });
});
