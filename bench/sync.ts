/**
 * Sync engine benchmark against the sandbox over real HTTP and real time (no simulated clock):
 * 10,000 mapped pairs, Shopify's standard throttle profile, an Acumatica licence of 4 concurrent /
 * 300 requests per minute.
 *   (1) full sync, every price, compare-at and quantity different;
 *   (2) the same again: nothing to write;
 *   (3) full sync with 5% of calls failing transiently, then a rerun that must converge.
 * Beside it, a naive strategy (per item: read, then write) measured on a sample and extrapolated.
 *
 * The sandbox runs in its own process (as the real services would be elsewhere), so the memory
 * figure is the engine's process alone.
 *
 * Run: npm run bench -- sync   (or node_modules/.bin/deno run --config deno.json -A bench/sync.ts
 *      [--pairs 10000] [--naive-sample 40] [--trace 1])
 */

import {
  type DemoCatalog,
  generateCatalog,
  type SeedErpItem,
  type SeedProduct,
  type SeedVariant,
  stableGuid,
} from "@stockbridge/sandbox";
import { SANDBOX_DEMO } from "@stockbridge/shared";
import { newAcumaticaStats } from "../edge/src/connectors/acumatica/session.ts";
import { type Connectors, createConnectors } from "../edge/src/connectors/connectors.ts";
import { createBulkSlots } from "../edge/src/connectors/shopify/bulk-slots.ts";
import type { ShopifyClientStats } from "../edge/src/connectors/shopify/graphql-client.ts";
import { realClock } from "../edge/src/connectors/transport.ts";
import { openDatabase } from "../edge/src/db/client.ts";
import { migrate } from "../edge/src/db/migrate.ts";
import { createHeldRepo } from "../edge/src/history/held-repo.ts";
import { createHistoryRepo } from "../edge/src/history/repo.ts";
import { createSettingsRepo } from "../edge/src/settings/repo.ts";
import { createSyncConnectors } from "../edge/src/sync/connectors.ts";
import { createSyncEngine, type RunSyncResult } from "../edge/src/sync/engine.ts";
import { createSyncRepo } from "../edge/src/sync/repo.ts";
import { freePort, sampleRss, startProcess } from "./bench-support.ts";
import { runNaive } from "./naive-sync.ts";

const SEED = 42;
const args = new Map<string, string>();
for (let i = 0; i < Deno.args.length; i += 2)
  args.set(Deno.args[i]!.replace(/^--/, ""), Deno.args[i + 1] ?? "");
const PAIRS = Number(args.get("pairs") ?? 10_000);
const NAIVE_SAMPLE = Number(args.get("naive-sample") ?? 40);
const USER = "bench-user";
const LICENCE = { maxConcurrent: 4, requestsPerMinute: 300 };
const STANDARD = { maximumAvailable: 2000, restoreRate: 100 };

interface Pair {
  product: SeedProduct;
  variant: SeedVariant;
  item: SeedErpItem;
}

/** Pairs where the ERP's price, MSRP and available quantity all differ from the store's. */
function changedPairs(catalog: DemoCatalog): Pair[] {
  const erp = new Map(catalog.acumatica.items.map((item) => [item.inventoryId, item]));
  const primary = catalog.shopify.locations[0]!.id;
  return catalog.shopify.products.flatMap((product) =>
    product.variants.flatMap((variant) => {
      const item = variant.sku ? erp.get(variant.sku) : undefined;
      const level = variant.levels.find((l) => l.locationId === primary);
      if (!item?.isStockItem || !level || !variant.tracked || variant.isBundle) return [];
      const available = item.warehouses.reduce((sum, w) => sum + w.available, 0);
      const differs =
        item.defaultPriceCents !== variant.priceCents &&
        item.msrpCents !== variant.compareAtPriceCents &&
        available !== level.available;
      return differs ? [{ product, variant, item }] : [];
    }),
  );
}

function sizeFor(pairs: number): { size: number; catalog: DemoCatalog; chosen: Pair[] } {
  for (let size = Math.ceil(pairs * 1.15); ; size = Math.ceil(size * 1.1)) {
    const catalog = generateCatalog({ seed: SEED, size });
    const chosen = changedPairs(catalog);
    if (chosen.length >= pairs) return { size, catalog, chosen: chosen.slice(0, pairs) };
  }
}

async function main() {
  const { size, catalog, chosen } = sizeFor(PAIRS);
  console.log(
    `Seeding the sandbox: ${size} variants, ${catalog.acumatica.items.length} ERP items; mapping ${chosen.length} pairs.`,
  );
  const port = freePort();
  const origin = `http://127.0.0.1:${port}`;
  const sandbox = await startProcess(
    "sandbox/main.ts",
    { SANDBOX_PORT: String(port), SANDBOX_SEED: String(SEED), SANDBOX_SIZE: String(size) },
    `${origin}/__control/state`,
  );
  const control = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${origin}/__control/${path}`, {
      method,
      headers: { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok)
      throw new Error(`sandbox control ${path}: HTTP ${response.status} ${await response.text()}`);
    return (await response.json()) as { shopify: Record<string, number>; acumatica: Record<string, number> };
  };
  const faults = (settings: { shopify?: Record<string, unknown>; acumatica?: Record<string, unknown> }) =>
    control("PUT", "faults", settings);
  await faults({ shopify: { throttleProfile: "standard" }, acumatica: LICENCE });

  const db = openDatabase(":memory:");
  await migrate(db);
  await seedDatabase(db, chosen);

  const acumaticaStats = newAcumaticaStats();
  let shopifyStats: ShopifyClientStats | null = null;
  const base = createConnectors({
    fetch: (input, init) => fetch(input, init),
    clock: realClock,
    sandboxUrl: origin,
    acumaticaConcurrency: LICENCE.maxConcurrent,
  });
  const connectors: Connectors = {
    ...base,
    shopify: (credentials, overrides = {}) => {
      const client = base.shopify(credentials, overrides);
      shopifyStats = client.stats;
      return client;
    },
    acumatica: (connection, fn, overrides = {}) =>
      base.acumatica(connection, fn, { stats: acumaticaStats, ...overrides }),
  };
  const credentials = {
    shopifyCredentials: async () => ({ ...SANDBOX_DEMO.shopify }),
    acumaticaCredentials: async () => ({
      instanceUri: `${origin}${SANDBOX_DEMO.acumatica.instancePath}`,
      endpointName: SANDBOX_DEMO.acumatica.endpointName,
      apiVersion: SANDBOX_DEMO.acumatica.apiVersion,
      username: SANDBOX_DEMO.acumatica.username,
      password: SANDBOX_DEMO.acumatica.password,
      company: SANDBOX_DEMO.acumatica.company,
    }),
  };
  const engine = createSyncEngine({
    repo: createSyncRepo(db),
    history: createHistoryRepo(db),
    held: createHeldRepo(db),
    settings: createSettingsRepo(db),
    connectors: createSyncConnectors({
      credentials,
      connectors,
      bulkSlots: createBulkSlots(db, () => new Date()),
    }),
    now: () => new Date(),
    newId: () => crypto.randomUUID(),
  });
  const syncOptions = { price: true, quantity: true };

  async function measure(label: string, run: () => Promise<RunSyncResult>) {
    const before = await control("GET", "state");
    const acumaticaBefore = { ...acumaticaStats };
    const baseline = Deno.memoryUsage().rss;
    const memory = sampleRss();
    const started = performance.now();
    const result = await run();
    const seconds = (performance.now() - started) / 1000;
    const peak = memory.stop();
    const after = await control("GET", "state");
    const stats = shopifyStats!;
    const writes = countWrites(result);
    const shopifyFloor = floorPoints(chosen.length) / STANDARD.restoreRate;
    const acumaticaFloor = minimalAcumaticaCalls(catalog) / (LICENCE.requestsPerMinute / 60);
    const floor = Math.max(shopifyFloor, acumaticaFloor);
    const surfaced = result.results.filter((r) => /THROTTLED|Throttled/.test(r.reason ?? "")).length;
    console.log(`\n${label}`);
    console.log(
      `  wall time            ${seconds.toFixed(2)} s   (floor ${floor.toFixed(2)} s, ratio ${(seconds / floor).toFixed(2)}x)`,
    );
    console.log(
      `  outcome              ${result.status}; success ${result.counts.success}, failed ${result.counts.failure}, skipped ${result.counts.skipped} of ${result.results.length}`,
    );
    console.log(
      `  Shopify              ${stats.calls} calls (${stats.retries} retried), ${stats.points} points actual / ${stats.requestedPoints} requested; sandbox: ${delta(after.shopify, before.shopify, "calls")} calls, ${delta(after.shopify, before.shopify, "throttled")} THROTTLED absorbed, ${surfaced} surfaced, ${delta(after.shopify, before.shopify, "errorsInjected")} faults injected`,
    );
    console.log(
      `  Shopify writes       ${delta(after.shopify, before.shopify, "mutations")} mutation calls (incl. bulk launches), ${delta(after.shopify, before.shopify, "bulkOperations")} bulk operations; fields written: ${writes.price} prices, ${writes.compareAt} compare-at, ${writes.quantity} quantities`,
    );
    console.log(
      `  Acumatica            ${acumaticaStats.calls - acumaticaBefore.calls} calls (${acumaticaStats.retries - acumaticaBefore.retries} retried, logins ${acumaticaStats.logins - acumaticaBefore.logins}, logouts ${acumaticaStats.logouts - acumaticaBefore.logouts}); sandbox: ${delta(after.acumatica, before.acumatica, "delayed")} delayed, ${delta(after.acumatica, before.acumatica, "declined")} declined, ${delta(after.acumatica, before.acumatica, "injectedErrors")} faults injected, ${after.acumatica.loginsOpen} sessions open`,
    );
    console.log(
      `  floor                Shopify ${floorPoints(chosen.length)} points / ${STANDARD.restoreRate} per s = ${shopifyFloor.toFixed(2)} s; Acumatica ${minimalAcumaticaCalls(catalog)} calls / ${LICENCE.requestsPerMinute} per min = ${acumaticaFloor.toFixed(2)} s`,
    );
    console.log(
      `  peak memory (RSS)    ${(peak / 1024 / 1024).toFixed(0)} MB (${(baseline / 1024 / 1024).toFixed(0)} MB before the run)`,
    );
    return { result, seconds, floor };
  }

  const trace = args.has("trace") ? traced() : undefined;
  const first = await measure("(1) full sync, every price, compare-at and quantity changed", () =>
    engine.runSync({ userId: USER, scope: "all", syncOptions, trigger: "manual", onProgress: trace }),
  );
  await measure("(2) the same again: nothing changed", () =>
    engine.runSync({ userId: USER, scope: "all", syncOptions, trigger: "manual" }),
  );

  // Back to the seeded store and ERP (everything differs again); a reset restores the ERP's default licence.
  await control("POST", "reset", { seed: SEED, size });
  await faults({
    shopify: { throttleProfile: "standard", errorRate: 0.05 },
    acumatica: { ...LICENCE, errorRate: 0.05 },
  });
  const third = await measure("(3) full sync with 5% of calls failing transiently", () =>
    engine.runSync({ userId: USER, scope: "all", syncOptions, trigger: "manual" }),
  );
  const accounted = third.result.counts.success + third.result.counts.failure + third.result.counts.skipped;
  console.log(`  accounted for        ${accounted} of ${chosen.length} mappings`);
  const rerun = await measure("(3b) rerun, faults still on", () =>
    engine.runSync({ userId: USER, scope: "all", syncOptions, trigger: "manual" }),
  );
  await faults({ shopify: { errorRate: 0 }, acumatica: { errorRate: 0 } });
  const check = await engine.runSync({
    userId: USER,
    scope: "all",
    syncOptions,
    trigger: "manual",
    dryRun: true,
  });
  const equal = check.results.filter((r) => r.outcome === "unchanged").length;
  console.log(
    `  converged            rerun failures ${rerun.result.counts.failure}; Shopify equal to the ERP for ${equal} of ${check.results.length} mappings`,
  );

  console.log(
    `\nNaive strategy (per item: ERP read + quantity inquiry, Shopify read, price write, quantity write), sample of ${NAIVE_SAMPLE}`,
  );
  await control("POST", "reset", { seed: SEED, size });
  await faults({ shopify: { throttleProfile: "standard" }, acumatica: LICENCE });
  const naive = await runNaive({
    origin,
    pairs: chosen.slice(0, NAIVE_SAMPLE),
    locationId: catalog.shopify.locations[0]!.id,
  });
  const perItemPoints = naive.shopifyPoints / NAIVE_SAMPLE;
  const perItemCalls = naive.acumaticaCalls / NAIVE_SAMPLE;
  const naiveFloor = Math.max(
    (perItemPoints * chosen.length) / STANDARD.restoreRate,
    (perItemCalls * chosen.length) / (LICENCE.requestsPerMinute / 60),
  );
  const naiveLinear = (naive.seconds / NAIVE_SAMPLE) * chosen.length;
  const naiveEstimate = Math.max(naiveFloor, naiveLinear);
  console.log(
    `  sample               ${naive.seconds.toFixed(2)} s; Shopify ${naive.shopifyCalls} calls, ${naive.shopifyPoints} points; Acumatica ${naive.acumaticaCalls} calls`,
  );
  console.log(
    `  at ${chosen.length} pairs      ${(perItemPoints * chosen.length).toFixed(0)} Shopify points, ${(perItemCalls * chosen.length).toFixed(0)} Acumatica calls -> at least ${(naiveEstimate / 60).toFixed(1)} min (rate-limit floor ${(naiveFloor / 60).toFixed(1)} min, linear ${(naiveLinear / 60).toFixed(1)} min)`,
  );
  console.log(`  speed-up             ${(naiveEstimate / first.seconds).toFixed(0)}x for (1)`);

  await sandbox.stop();
  Deno.exit(0);
}

/** Cost of the minimal Shopify calls for a full sync of n pairs: location 1, bulk read 10 + a poll, bulk price write 20 + a poll, ceil(n/250) quantity calls of 10. */
function floorPoints(n: number): number {
  return 1 + 11 + 21 + Math.ceil(n / 250) * 10;
}

/** Login, StockItem and NonStockItem pages of 1,000, one StorageDetailsInquiry (logout is outside the licence queue). */
function minimalAcumaticaCalls(catalog: DemoCatalog): number {
  const stock = catalog.acumatica.items.filter((item) => item.isStockItem).length;
  const nonStock = catalog.acumatica.items.length - stock;
  return 1 + Math.floor(stock / 1000) + 1 + Math.floor(nonStock / 1000) + 1 + 1;
}

/** `--trace 1`: when each phase of a run starts, for finding where the time goes. */
function traced() {
  const started = performance.now();
  return ({ phase }: { phase: string }) =>
    console.log(`    ${((performance.now() - started) / 1000).toFixed(2)} s  ${phase}`);
}

function countWrites(result: RunSyncResult) {
  const counts = { price: 0, compareAt: 0, quantity: 0 };
  for (const r of result.results) {
    if (r.outcome !== "succeeded") continue;
    for (const change of r.changes) {
      if (change.field === "price") counts.price += 1;
      else if (change.field === "compareAtPrice") counts.compareAt += 1;
      else counts.quantity += 1;
    }
  }
  return counts;
}

function delta(after: Record<string, number>, before: Record<string, number>, key: string): number {
  return (after[key] ?? 0) - (before[key] ?? 0);
}

async function seedDatabase(db: ReturnType<typeof openDatabase>, pairs: Pair[]) {
  const stamp = "2026-11-01T00:00:00.000Z";
  await db.execute({
    sql: "INSERT INTO users (id, name, email, email_normalized, password_hash, password_changed_at, created_at, updated_at) VALUES (?, 'Bench', 'bench@example.com', 'bench@example.com', 'x', ?, ?, ?)",
    args: [USER, stamp, stamp, stamp],
  });
  await db.execute({
    sql: "INSERT INTO settings (user_id, acumatica_quantity, shopify_quantity, sync_price, sync_msrp, updated_at) VALUES (?, 'Available', 'Available', 1, 1, ?)",
    args: [USER, stamp],
  });
  const statements = pairs.flatMap(({ product, variant, item }, index) => {
    const variantGid = `gid://shopify/ProductVariant/${variant.id}`;
    const noteId = stableGuid(`${SEED}:item:stock:${item.inventoryId}`);
    const sku = variant.sku ?? "";
    const created = new Date(Date.parse(stamp) + index).toISOString();
    return [
      {
        sql: `INSERT INTO shopify_products (id, user_id, variant_id, product_id, inventory_item_id, title, sku, sku_key, price_cents, compare_at_price_cents,
                is_physical, tracked, location_id, available, on_hand, locations_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, 1, NULL, 0, 0, '[]')`,
        args: [
          crypto.randomUUID(),
          USER,
          variantGid,
          `gid://shopify/Product/${product.id}`,
          `gid://shopify/InventoryItem/${variant.inventoryItemId}`,
          product.title,
          sku,
          sku.toLowerCase(),
          variant.priceCents,
          variant.compareAtPriceCents,
        ],
      },
      {
        sql: `INSERT INTO acumatica_products (id, user_id, acumatica_id, sku, sku_key, description, default_price_cents, msrp_cents, is_stock_item)
              VALUES (?, ?, ?, ?, ?, ?, 0, NULL, 1)`,
        args: [
          crypto.randomUUID(),
          USER,
          noteId,
          item.inventoryId,
          item.inventoryId.toLowerCase(),
          item.description,
        ],
      },
      {
        sql: `INSERT INTO mappings (id, user_id, shopify_variant_id, shopify_sku, acumatica_id, acumatica_sku, mapping_type, created_at, updated_at)
              VALUES (?, ?, ?, ?, ?, ?, 'exact-sku', ?, ?)`,
        args: [crypto.randomUUID(), USER, variantGid, sku, noteId, item.inventoryId, created, created],
      },
    ];
  });
  for (let start = 0; start < statements.length; start += 600)
    await db.batch(statements.slice(start, start + 600), "write");
}

await main();
