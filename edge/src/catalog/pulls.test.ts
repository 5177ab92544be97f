import { generateCatalog } from "@stockbridge/sandbox";
import { ApiError, SANDBOX_DEMO } from "@stockbridge/shared";
import { afterEach, describe, expect, it } from "vitest";
import {
  type ConnectedApp,
  type ConnectedAppOptions,
  createConnectedApp,
} from "../../testing/connectors-harness.ts";

let app: ConnectedApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function connected(options: ConnectedAppOptions = {}) {
  app = await createConnectedApp(options);
  await app.connectShopify();
  await app.connectAcumatica();
  return app;
}

async function pull(target: ConnectedApp, system: "shopify" | "acumatica") {
  const { job } = await target.api.call(
    system === "shopify" ? "syncShopifyProducts" : "syncAcumaticaProducts",
  );
  return target.waitForJob(job._id);
}

async function allShopify(target: ConnectedApp) {
  const first = await target.api.call("shopifyProducts", {
    query: { limit: "100", sortBy: "sku", sortDirection: "asc" },
  });
  const products = [...first.products];
  for (let page = 2; page <= first.totalPages; page += 1) {
    products.push(
      ...(
        await target.api.call("shopifyProducts", {
          query: { limit: "100", page: String(page), sortBy: "sku", sortDirection: "asc" },
        })
      ).products,
    );
  }
  return products;
}

async function allAcumatica(target: ConnectedApp) {
  const first = await target.api.call("acumaticaProducts", {
    query: { limit: "100", sortBy: "sku", sortDirection: "asc" },
  });
  const products = [...first.products];
  for (let page = 2; page <= first.totalPages; page += 1) {
    products.push(
      ...(
        await target.api.call("acumaticaProducts", {
          query: { limit: "100", page: String(page), sortBy: "sku", sortDirection: "asc" },
        })
      ).products,
    );
  }
  return products;
}

describe("Shopify catalog pull", () => {
  it("reads every variant with an SKU in cost-sized pages, with every location's quantities", async () => {
    const target = await connected({ size: 300 });
    const job = await pull(target, "shopify");
    const seed = generateCatalog({ seed: 42, size: 300 }).shopify;
    const variants = seed.products.flatMap((product) =>
      product.variants.map((variant) => ({ product, variant })),
    );
    const withSku = variants.filter(({ variant }) => variant.sku);

    expect(job).toMatchObject({ status: "succeeded", message: "Products synchronized successfully" });
    expect(job.result).toMatchObject({
      mode: "paged",
      total: withSku.length,
      added: withSku.length,
      skippedWithoutSku: variants.length - withSku.length,
    });
    expect(Number(job.result?.calls)).toBeGreaterThanOrEqual(4); // location, count, two pages at least
    // Waits no longer than the points spent beyond the bucket take to restore: the last page is
    // sized to the variants left, not charged a full page's cost the emptied bucket takes 10 s to hold.
    const { pointsSpent, maximumAvailable, restoreRate } = target.shopify.state();
    const unavoidableMs =
      (Math.max(0, Number(pointsSpent) - Number(maximumAvailable)) / Number(restoreRate)) * 1000;
    expect(Number(job.result?.throttled)).toBe(0);
    expect(Number(job.result?.waitedMs)).toBeLessThanOrEqual(unavoidableMs + 100);

    const products = await allShopify(target);
    expect(products).toHaveLength(withSku.length);
    const { product, variant } = withSku.find(
      ({ variant }) => variant.compareAtPriceCents !== null && variant.levels.length > 1,
    )!;
    const level = variant.levels.find((candidate) => candidate.locationId === 70_001)!;
    const second = variant.levels.find((candidate) => candidate.locationId === 70_002)!;
    const row = products.find(
      (candidate) => candidate.variantId === `gid://shopify/ProductVariant/${variant.id}`,
    );
    expect(row).toMatchObject({
      sku: variant.sku,
      productId: `gid://shopify/Product/${product.id}`,
      inventoryItemId: `gid://shopify/InventoryItem/${variant.inventoryItemId}`,
      price: variant.priceCents / 100,
      compareAtPrice: variant.compareAtPriceCents! / 100,
      isPhysicalProduct: true,
      tracked: variant.tracked,
      // The primary location first (the columns the spec shows), then the other active ones.
      inventoryLocations: [
        {
          locationId: "gid://shopify/Location/70001",
          name: "Main Warehouse",
          available: level.available,
          onHandInventory: level.available + level.committed + level.unavailable,
        },
        {
          locationId: "gid://shopify/Location/70002",
          name: "Downtown Store",
          available: second.available,
          onHandInventory: second.available + second.committed + second.unavailable,
        },
      ],
    });
    const primaryOnly = withSku.find(({ variant }) => variant.tracked && variant.levels.length === 1)!;
    expect(
      products.find((candidate) => candidate.sku === primaryOnly.variant.sku)?.inventoryLocations,
    ).toEqual([expect.objectContaining({ locationId: "gid://shopify/Location/70001" })]);
    const service = withSku.find(({ variant }) => !variant.requiresShipping)!;
    expect(products.find((candidate) => candidate.sku === service.variant.sku)).toMatchObject({
      isPhysicalProduct: false,
      inventoryLocations: [],
    });
  });

  it("reads a large store with one bulk query and gets the same catalog", async () => {
    const target = await connected({ size: 300, tuning: { shopifyBulkThreshold: 100 } });
    const job = await pull(target, "shopify");
    expect(job.result).toMatchObject({ mode: "bulk", total: 288, skippedWithoutSku: 12 });
    expect(target.shopify.state()).toMatchObject({ bulkOperations: 1, throttled: 0 });
    const bulk = await allShopify(target);

    await target.sandbox.systems.shopify.configure({});
    const paged = await createConnectedApp({ size: 300 });
    try {
      await paged.connectShopify();
      await pull(paged, "shopify");
      const strip = (rows: typeof bulk) =>
        rows
          .map(({ _id, lastSynced, ...rest }) => rest)
          .sort((a, b) => a.variantId.localeCompare(b.variantId));
      expect(strip(bulk)).toEqual(strip(await allShopify(paged)));
    } finally {
      await paged.close();
    }
  });

  it("pages instead when the store already runs as many bulk queries as its version allows (another app's)", async () => {
    const target = await connected({ size: 300, tuning: { shopifyBulkThreshold: 100 } });
    // Five exports started outside Stockbridge, still running: 2026-01 allows no sixth.
    target.shopify.configure({ bulkOperationDelayMs: 3_600_000 });
    const graphql = `${target.origin}/shopify/${SANDBOX_DEMO.shopify.storeName}/admin/api/2026-01/graphql.json`;
    for (let index = 0; index < 5; index += 1) {
      const response = await fetch(graphql, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "X-Shopify-Access-Token": SANDBOX_DEMO.shopify.accessToken,
        },
        body: JSON.stringify({
          query:
            'mutation { bulkOperationRunQuery(query: "{ products { edges { node { id } } } }") { bulkOperation { id } userErrors { message } } }',
        }),
      });
      expect((await response.json()).data.bulkOperationRunQuery.userErrors).toEqual([]);
    }

    const job = await pull(target, "shopify");

    expect(job).toMatchObject({ status: "succeeded", result: { mode: "paged", total: 288 } });
    expect(target.shopify.state()).toMatchObject({ bulkOperationsRefused: 1 });
  });

  it("reads every page of a store whose queries cost more than the documented rules, learning the page size from MAX_COST_EXCEEDED", async () => {
    const target = await connected({ size: 300 });
    target.shopify.configure({ costMultiplier: 1.6 });

    const job = await pull(target, "shopify");

    const seed = generateCatalog({ seed: 42, size: 300 }).shopify.products.flatMap(
      (product) => product.variants,
    );
    expect(job).toMatchObject({ status: "succeeded", result: { mode: "paged" } });
    expect(job.result?.total).toBe(seed.filter((variant) => variant.sku).length);
    expect(target.shopify.state().maxCostExceeded).toBe(1);
  });

  it("absorbs throttling: paces by the bucket and waits out THROTTLED answers without failing", async () => {
    let calls = 0;
    let othersThrottled = 0;
    const target = await connected({
      size: 600,
      deps: {
        // Another app spends the store's bucket between our calls, so some of ours are THROTTLED.
        fetch: async (input, init) => {
          calls += 1;
          if (calls % 3 === 0 && (await drainBucket(String(input)))) othersThrottled += 1;
          return fetch(input, init);
        },
      },
    });
    target.shopify.configure({ throttleProfile: "legacy", throttleStatusCode: 429 });
    const job = await pull(target, "shopify");
    expect(job.status).toBe("succeeded");
    const seed = generateCatalog({ seed: 42, size: 600 }).shopify.products.flatMap(
      (product) => product.variants,
    );
    expect(job.result?.total).toBe(seed.filter((variant) => variant.sku).length);
    const state = target.shopify.state();
    const ours = Number(state.throttled) - othersThrottled;
    expect(ours).toBeGreaterThan(0);
    expect(Number(job.result?.throttled)).toBe(ours);
    expect(Number(job.result?.waitedMs)).toBeGreaterThan(0);
  });

  it("leaves the previous catalog intact when Shopify fails mid-pull", async () => {
    let calls = 0;
    const target = await connected({
      size: 300,
      deps: {
        fetch: async (input, init) => {
          calls += 1;
          // The second pull's first page arrives; from its second page on, Shopify answers 5xx every time.
          if (app && calls > 7) app.shopify.configure({ errorRate: 1 });
          return fetch(input, init);
        },
      },
    });
    expect((await pull(target, "shopify")).status).toBe("succeeded");
    const before = await allShopify(target);
    const failed = await pull(target, "shopify");
    expect(failed.status).toBe("failed");
    expect(failed.message).toMatch(
      /^Failed to sync Shopify products: Shopify is unavailable \(HTTP 50[23] after 5 attempts\)$/,
    );
    expect(await allShopify(target)).toEqual(before);
    const staged = await target.db.execute("SELECT count(*) AS n FROM catalog_staging");
    expect(Number(staged.rows[0]?.n)).toBe(0);
  });
});

describe("Acumatica catalog pull", () => {
  it("reads stock and non-stock items in pages, quantities summed over warehouses, and logs out", async () => {
    const target = await connected({
      size: 300,
      tuning: { acumaticaPageSize: 50, acumaticaParallelPages: 3 },
    });
    const job = await pull(target, "acumatica");
    const items = generateCatalog({ seed: 42, size: 300 }).acumatica.items;
    expect(job.status).toBe("succeeded");
    expect(job.result).toMatchObject({
      total: items.length,
      stockItems: items.filter((item) => item.isStockItem).length,
      // One quantity row per stock item and warehouse, read once (not once per retry or page).
      quantityRows: items.reduce((rows, item) => rows + item.warehouses.length, 0),
    });

    const products = await allAcumatica(target);
    expect(products).toHaveLength(items.length);
    const stock = items.find((item) => item.isStockItem && item.warehouses.length === 3)!;
    const sum = (pick: (w: (typeof stock.warehouses)[number]) => number) =>
      stock.warehouses.reduce((total, w) => total + pick(w), 0);
    expect(products.find((row) => row.sku === stock.inventoryId)).toMatchObject({
      isStockItem: true,
      description: stock.description,
      defaultPrice: stock.defaultPriceCents / 100,
      msrp: stock.msrpCents / 100,
      available: sum((w) => w.available),
      onHandInventory: sum((w) => w.onHand),
      availableForShipping: sum((w) => w.availableForShipment),
      // And per warehouse, for the location mapping.
      warehouses: stock.warehouses
        .map((w) => ({
          warehouseId: w.warehouseId,
          available: w.available,
          onHandInventory: w.onHand,
          availableForShipping: w.availableForShipment,
        }))
        .sort((a, b) => a.warehouseId.localeCompare(b.warehouseId)),
    });
    const service = items.find((item) => !item.isStockItem)!;
    expect(products.find((row) => row.sku === service.inventoryId)).toMatchObject({
      isStockItem: false,
      msrp: service.msrpCents / 100,
      available: null,
      onHandInventory: null,
      availableForShipping: null,
      warehouses: [],
    });
    // The pull keeps the ERP's warehouses for Settings.
    expect(await target.api.call("acumaticaWarehouses")).toEqual([
      { id: "RETAIL", description: "Retail warehouse" },
      { id: "RETURNS", description: "Returns (not for shipping)" },
      { id: "WHOLESALE", description: "Wholesale warehouse" },
    ]);

    const state = target.acumatica.state();
    // login, GET /entity, one inquiry for every quantity, the pages, the warehouse list, logout:
    // never one call per item.
    const pages =
      Math.ceil(Number(state.stockItems) / 50) + 1 + Math.ceil(Number(state.nonStockItems) / 50) + 1;
    expect(state.calls).toBeLessThanOrEqual(3 + pages + 3 + 1 + 1);
    expect(state).toMatchObject({ logins: 1, logouts: 1, loginsOpen: 0 });
  });

  it("adds the pulled SKUs to the search index right after the job, and finds them by SKU before and after", async () => {
    const target = await connected({ size: 300 });
    const job = await pull(target, "acumatica");
    expect(job.status).toBe("succeeded");
    const sku = generateCatalog({ seed: 42, size: 300 }).acumatica.items[7]!.inventoryId;
    const search = async () =>
      (await target.api.call("acumaticaProducts", { query: { search: sku.slice(1).toLowerCase() } }))
        .products;
    expect((await search()).map((row) => row.sku)).toContain(sku);
    const mark = async () =>
      (await target.db.execute("SELECT unindexed_from FROM catalog_state WHERE system = 'acumatica'")).rows[0]
        ?.unindexed_from;
    const deadline = Date.now() + 5_000;
    while ((await mark()) !== null && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await mark()).toBeNull();
    const entries = await target.db.execute("SELECT count(*) AS n FROM acumatica_products_sku_search");
    expect(Number(entries.rows[0]?.n)).toBe(Number(job.result?.total));
    expect((await search()).map((row) => row.sku)).toContain(sku);
  });

  it("writes the search entries a stopped process left unwritten at the next cron tick", async () => {
    const target = await connected({ size: 300 });
    const job = await pull(target, "acumatica");
    expect(job.status).toBe("succeeded");
    const entries = async () =>
      Number((await target.db.execute("SELECT count(*) AS n FROM acumatica_products_sku_search")).rows[0]?.n);
    const marked = async () =>
      Number(
        (await target.db.execute("SELECT count(*) AS n FROM catalog_state WHERE unindexed_from IS NOT NULL"))
          .rows[0]?.n,
      );
    const deadline = Date.now() + 5_000;
    while ((await marked()) > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    // As if the process had stopped between the swap and its follow-up.
    await target.db.batch(
      [
        "INSERT INTO acumatica_products_sku_search (acumatica_products_sku_search) VALUES ('delete-all')",
        "UPDATE catalog_state SET unindexed_from = 0 WHERE system = 'acumatica'",
      ],
      "write",
    );
    expect(await entries()).toBe(0);
    await target.app.tick();
    expect(await marked()).toBe(0);
    expect(await entries()).toBe(Number(job.result?.total));
  });

  it("reads 20.200.001, where non-stock items have no MSRP and the inquiry columns have older names", async () => {
    const target = await connected({ size: 300 });
    await target.connectAcumatica({ apiVersion: "20.200.001" });
    expect((await pull(target, "acumatica")).status).toBe("succeeded");
    const products = await allAcumatica(target);
    expect(products.find((row) => !row.isStockItem)?.msrp).toBeNull();
    const stock = generateCatalog({ seed: 42, size: 300 }).acumatica.items.find((item) => item.isStockItem)!;
    expect(products.find((row) => row.sku === stock.inventoryId)?.onHandInventory).toBe(
      stock.warehouses.reduce((total, w) => total + w.onHand, 0),
    );
  });

  it("adds, updates and removes rows on the next pull, keeping the ids of rows that stay", async () => {
    const target = await connected({ size: 300 });
    await pull(target, "acumatica");
    const before = new Map((await allAcumatica(target)).map((row) => [row.acumaticaId, row._id]));
    target.sandbox.reset(42, 200);
    const moved = generateCatalog({ seed: 42, size: 200 }).acumatica.items.find((item) => item.isStockItem)!;
    target.acumatica.setQuantities({
      inventoryId: moved.inventoryId,
      warehouseId: "RETAIL",
      onHand: 1_000,
      available: 900,
      availableForShipment: 800,
    });
    target.clock.advance(60_000);
    const job = await pull(target, "acumatica");
    const after = await allAcumatica(target);
    const kept = after.filter((row) => before.has(row.acumaticaId));
    expect(job.result).toMatchObject({
      total: after.length,
      added: after.length - kept.length,
      removed: before.size - kept.length,
    });
    expect(Number(job.result?.updated)).toBeGreaterThanOrEqual(1);
    expect(Number(job.result?.updated) + Number(job.result?.unchanged)).toBe(kept.length);
    expect(Number(job.result?.removed)).toBeGreaterThan(0);
    for (const row of kept) expect(row._id).toBe(before.get(row.acumaticaId));
    const others = moved.warehouses.filter((w) => w.warehouseId !== "RETAIL");
    expect(after.find((row) => row.sku === moved.inventoryId)).toMatchObject({
      onHandInventory: 1_000 + others.reduce((total, w) => total + w.onHand, 0),
      available: 900 + others.reduce((total, w) => total + w.available, 0),
    });
    expect(new Set(after.map((row) => row.lastSynced))).toEqual(new Set(["2026-11-21T10:01:00.000Z"]));
  });

  it("leaves the previous catalog intact and logs out when the ERP fails mid-pull", async () => {
    let pages = 0;
    const target = await connected({
      size: 300,
      tuning: { acumaticaPageSize: 100, acumaticaParallelPages: 1 },
      deps: {
        fetch: async (input, init) => {
          // The second pull reads one StockItem page, then the ERP fails every call.
          if (String(input).includes("/StockItem?")) pages += 1;
          if (pages > 4) app?.acumatica.configure({ errorRate: 1 });
          return fetch(input, init);
        },
      },
    });
    await pull(target, "acumatica");
    const before = await allAcumatica(target);
    const failed = await pull(target, "acumatica");
    expect(failed.status).toBe("failed");
    expect(failed.message).toMatch(/^Failed to sync Acumatica products: /);
    expect(await allAcumatica(target)).toEqual(before);
    expect(target.acumatica.state()).toMatchObject({ loginsOpen: 0, logouts: 2 });
  });
});

describe("catalog pull jobs", () => {
  it("answers 409 while a pull of the same system is running, and allows the other system", async () => {
    const target = await connected({ size: 300 });
    const { job } = await target.api.call("syncShopifyProducts");
    const second = await target.api.call("syncShopifyProducts").catch((error: unknown) => error);
    expect(second).toBeInstanceOf(ApiError);
    expect(second).toMatchObject({ status: 409, message: "A Shopify product pull is already running" });
    const { job: other } = await target.api.call("syncAcumaticaProducts");
    await target.waitForJob(job._id);
    await target.waitForJob(other._id);
  });

  it("resumes a pull whose process stopped once its lease ran out, and finishes it here", async () => {
    const target = await connected({ size: 300 });
    await insertStoppedPull(target, { id: "crashed", attempts: 1 });
    // Until its lease runs out the stopped pull is live: a second one is refused and names it.
    const blocked = await target.api.call("syncShopifyProducts").catch((error: unknown) => error);
    expect(blocked).toMatchObject({ status: 409, jobId: "crashed" });

    target.clock.advance(2 * 60_000);
    // Whoever reads it takes it over: it runs again here instead of being declared dead.
    expect(await target.api.call("job", { params: { id: "crashed" } })).toMatchObject({ status: "running" });
    const resumed = await target.waitForJob("crashed");
    expect(resumed.status).toBe("succeeded");
    const { total } = await target.api.call("shopifyProducts");
    expect(total).toBeGreaterThan(0);
    expect(total).toBe(resumed.result?.total);
  });

  it("resumes an Acumatica pull from its checkpoint: the pages its stopped attempt kept are not read again", async () => {
    const target = await connected({
      size: 300,
      tuning: { acumaticaPageSize: 50, acumaticaParallelPages: 1 },
    });
    const full = await target.waitForJob((await target.api.call("syncAcumaticaProducts")).job._id);
    const stock = Number(full.result?.stockItems);
    expect(stock).toBeGreaterThan(100);
    // A pull that stopped after keeping its first page of stock items. Its staged rows are left out
    // here, so what the resumed pull reads shows in the catalog: everything but that first page.
    await target.db.execute({
      sql: `INSERT INTO jobs (id, user_id, kind, status, phase, lease_until, created_at, started_at, owner, attempts, checkpoint_json)
            VALUES ('stopped', ?, 'acumatica-pull', 'running', 'Reading Acumatica stock items', ?, ?, ?, 'stopped-instance', 1, ?)`,
      args: [
        target.user.user._id,
        "2026-11-21T10:01:00.000Z",
        "2026-11-21T09:59:00.000Z",
        "2026-11-21T09:59:00.000Z",
        JSON.stringify({ entity: "StockItem", pages: 1, stockItems: 50, nonStockItems: 0 }),
      ],
    });
    target.clock.advance(2 * 60_000);

    await target.api.call("job", { params: { id: "stopped" } });
    const resumed = await target.waitForJob("stopped");
    expect(resumed).toMatchObject({
      status: "succeeded",
      result: { stockItems: stock, nonStockItems: full.result?.nonStockItems },
    });
    const { total } = await target.api.call("acumaticaProducts");
    expect(total).toBe(Number(full.result?.total) - 50);
  });

  it("resumes a paged Shopify pull after the last page its stopped attempt kept", async () => {
    const target = await connected({ size: 300 });
    const full = await target.waitForJob((await target.api.call("syncShopifyProducts")).job._id);
    expect(full.result).toMatchObject({ mode: "paged" });
    const saved = await target.db.execute({
      sql: "SELECT checkpoint_json FROM jobs WHERE id = ?",
      args: [full._id],
    });
    const checkpoint = JSON.parse(String(saved.rows[0]?.checkpoint_json)) as { variants: number };
    // The last checkpoint is the cursor before the last page: everything before it counts as kept.
    expect(checkpoint).toMatchObject({ mode: "paged", after: expect.any(String) });
    expect(checkpoint.variants).toBeGreaterThan(0);
    await target.db.execute({
      sql: `INSERT INTO jobs (id, user_id, kind, status, phase, lease_until, created_at, started_at, owner, attempts, checkpoint_json)
            VALUES ('stopped', ?, 'shopify-pull', 'running', 'Reading Shopify variants', ?, ?, ?, 'stopped-instance', 1, ?)`,
      args: [
        target.user.user._id,
        "2026-11-21T10:01:00.000Z",
        "2026-11-21T09:59:00.000Z",
        "2026-11-21T09:59:00.000Z",
        JSON.stringify(checkpoint),
      ],
    });
    target.clock.advance(2 * 60_000);

    await target.api.call("job", { params: { id: "stopped" } });
    const resumed = await target.waitForJob("stopped");
    expect(resumed).toMatchObject({ status: "succeeded", result: { total: expect.any(Number) } });
    // Only the last page was read again (its staged rows are what the swap kept here).
    const { total } = await target.api.call("shopifyProducts");
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThan(Number(full.result?.total));
  });

  it("fails a pull whose process stopped on its last attempt, and lets a new pull start", async () => {
    const target = await connected({ size: 300 });
    await insertStoppedPull(target, { id: "crashed", attempts: 3 });
    target.clock.advance(2 * 60_000);
    expect(await target.api.call("job", { params: { id: "crashed" } })).toMatchObject({
      status: "failed",
      message: "The server stopped while this job was running",
    });
    const { job } = await target.api.call("syncShopifyProducts");
    expect((await target.waitForJob(job._id)).status).toBe("succeeded");
  });

  it("says which connection is missing before starting", async () => {
    app = await createConnectedApp();
    const error = await app.api.call("syncAcumaticaProducts").catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      status: 404,
      message: "No Acumatica connection is saved yet: save it in Settings first.",
    });
  });
});

/** A pull some instance claimed `attempts` times and stopped running at 10:00 (lease to 10:01). */
async function insertStoppedPull(target: ConnectedApp, job: { id: string; attempts: number }) {
  await target.db.execute({
    sql: `INSERT INTO jobs (id, user_id, kind, status, phase, lease_until, created_at, started_at, owner, attempts)
          VALUES (?, ?, 'shopify-pull', 'running', 'Reading Shopify variants', ?, ?, ?, 'stopped-instance', ?)`,
    args: [
      job.id,
      target.user.user._id,
      "2026-11-21T10:01:00.000Z",
      "2026-11-21T09:59:00.000Z",
      "2026-11-21T09:59:00.000Z",
      job.attempts,
    ],
  });
}

/** Spends the store's whole bucket with one expensive query, as another app would. */
/** Another app's costly query on the same store; answers whether the sandbox throttled it. */
async function drainBucket(endpoint: string): Promise<boolean> {
  if (!endpoint.includes("/graphql.json")) return false;
  const query = "{ productVariants(first: 250) { nodes { id product { id } inventoryItem { id } } } }";
  const response = await fetch(endpoint, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-Shopify-Access-Token": "shpat_sandbox_demo_0123456789abcdef",
    },
    body: JSON.stringify({ query }),
  });
  return JSON.stringify(await response.json()).includes("THROTTLED");
}
