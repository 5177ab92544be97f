/**
 * Sync engine benchmark, real time over real HTTP: the sandbox and the edge (edge/main.ts, as
 * `npm start` runs it) each in their own process; every sync goes through `POST /api/mapping/sync`
 * and is followed as the screens follow it (the job's event stream). Figures only, nothing asserted.
 *
 * For each N of changed mappings (price, compare-at and quantity all differ; standard throttle
 * profile, 2,000 points restoring 100/s; an Acumatica licence of 4 concurrent / 300 per minute):
 *   - a full sync, from a freshly seeded sandbox each run (so every run has N changes and a fresh
 *     licence minute), reading every mapping (`reconcile`: a reseeded sandbox moved no change
 *     dates); then the same again with nothing changed, reading only what changed since; then
 *     (N >= 100) 1 % of the ERP's stock changed, read the same way, against the floor of that 1 %;
 *   - each figure the median of `--runs` runs (3), with the machine's load (`uptime`) beside it;
 *   - peak RSS of the edge process, sampled from outside (/proc) as the pull bench does; the edge
 *     is restarted for each N and before the runs that read only changes, so a figure is not an
 *     earlier run's high-water mark;
 *   - the floor: the cheapest minimal call set's (points - the 2,000 starting bucket) / 100 per s,
 *     or the bulk operations' time the sandbox imposes (500 ms each, the read before the write),
 *     whichever is larger, plus Acumatica's licence floor (requests past 150 in a minute, at 5/s);
 *     and never below three Shopify round trips in a row (locations, read, write), measured here,
 *     or a small N would have a floor of 0 s;
 *   - correctness: after the runs of a size, the bench reads Shopify itself (its own bulk export,
 *     none of the engine's code) and counts mappings whose price, compare-at and quantity equal
 *     the ERP's.
 * Then t(N) is flagged wherever it exceeds 1.1 x t(next larger N) (a cliff), and a typical per-SKU
 * tool (naive-sync.ts: three calls per SKU) is run in full against the same sandbox at `--naive` sizes.
 *
 * Default: N = 10, 100, 500, 999, 1,000, 2,000, 10,000, 50,000 and the per-SKU tool at 500 and 2,000
 * (3 runs each; roughly 35 minutes, most of it the per-SKU tool, which the bucket paces at about
 * 17 points per SKU). `--quick`: N up to 2,000 and the per-SKU tool at 500 only (about 6 minutes).
 * 100,000 is not in the default: the sandbox's catalogs stop at 100,000 variants, fewer of them changed.
 *
 * Run: npm run bench -- sync   (or node_modules/.bin/deno run --config deno.json -A bench/sync.ts
 *      [--quick] [--sizes 10,100,500] [--runs 3] [--naive 500,2000] [--naive-runs 3] [--phases])
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
import { openDatabase } from "../edge/src/db/client.ts";
import {
  benchEdgeEnv,
  followJob,
  freePort,
  load,
  mb,
  median,
  type ResidentMemory,
  sampleProcessRss,
  startProcess,
} from "./bench-support.ts";
import { runPerSku } from "./naive-sync.ts";

const SEED = 42;
const QUICK = Deno.args.includes("--quick");
const listArg = (name: string, fallback: number[]) => {
  const index = Deno.args.indexOf(`--${name}`);
  if (index === -1) return fallback;
  return (Deno.args[index + 1] ?? "").split(",").filter(Boolean).map(Number);
};
const SIZES = listArg(
  "sizes",
  QUICK ? [10, 100, 500, 999, 1_000, 2_000] : [10, 100, 500, 999, 1_000, 2_000, 10_000, 50_000],
);
const RUNS = listArg("runs", [3])[0]!;
const NAIVE = listArg("naive", QUICK ? [500] : [500, 2_000]);
const NAIVE_RUNS = listArg("naive-runs", [3])[0]!;
const PHASES = Deno.args.includes("--phases");
const LICENCE = { maxConcurrent: 4, requestsPerMinute: 300 };
const STANDARD = { maximumAvailable: 2_000, restoreRate: 100 };
/** What the sandbox makes every bulk operation take (its `bulkOperationDelayMs`, default). */
const BULK_DELAY_S = 0.5;
const SYNC_OPTIONS = { price: true, quantity: true };

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
      const differs =
        item.defaultPriceCents !== variant.priceCents &&
        item.msrpCents !== variant.compareAtPriceCents &&
        erpAvailable(item) !== level.available;
      return differs ? [{ product, variant, item }] : [];
    }),
  );
}

function erpAvailable(item: SeedErpItem): number {
  return Math.max(
    0,
    item.warehouses.reduce((sum, w) => sum + w.available, 0),
  );
}

function sizeFor(pairs: number): { size: number; catalog: DemoCatalog; chosen: Pair[] } {
  // The sandbox's catalogs stop at 100,000 variants (98,298 of them changed at seed 42).
  const grown = (size: number) => Math.min(100_000, Math.ceil(size));
  for (let size = grown(Math.max(20, pairs * 1.15)); ; size = grown(size * 1.1)) {
    const catalog = generateCatalog({ seed: SEED, size });
    const chosen = changedPairs(catalog);
    if (chosen.length >= pairs) return { size, catalog, chosen: chosen.slice(0, pairs) };
    if (size >= 100_000)
      throw new Error(`the sandbox holds at most 100,000 variants: ${pairs} changed mappings do not fit`);
  }
}

const sandboxPort = freePort();
const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
const sandbox = await startProcess(
  "sandbox/main.ts",
  { SANDBOX_PORT: String(sandboxPort), SANDBOX_SEED: String(SEED), SANDBOX_SIZE: "300" },
  `${sandboxUrl}/__control/state`,
);
const dataDir = await Deno.makeTempDir({ prefix: "stockbridge-sync-bench-" });
const edgePort = freePort();
const origin = `http://127.0.0.1:${edgePort}`;
const edgeEnv = benchEdgeEnv({ port: edgePort, dataDir, sandboxUrl });
let edge = await startProcess("edge/main.ts", edgeEnv, `${origin}/api/health`);

async function control(method: string, path: string, body?: unknown) {
  const response = await fetch(`${sandboxUrl}/__control/${path}`, {
    method,
    headers: { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`sandbox control ${path}: HTTP ${response.status} ${await response.text()}`);
  return response.json();
}
type Counters = Record<string, number>;
const shopifyState = async (): Promise<Counters> => (await control("GET", "state")).shopify;
const acumaticaState = async (): Promise<Counters> => (await control("GET", "state")).acumatica;
async function seedSandbox(size: number) {
  await control("POST", "reset", { seed: SEED, size });
  await control("PUT", "faults", { shopify: { throttleProfile: "standard" }, acumatica: LICENCE });
}

async function call(method: string, path: string, token?: string, body?: unknown) {
  const response = await fetch(`${origin}/api${path}`, {
    method,
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json.data;
}

// Set-up through the API where there is one (the connections), the bench's own database
// connection for the rest: a subscription, settings, and N mappings at a time.
const db = openDatabase(`file:${dataDir}/stockbridge.db`);
await db.execute("PRAGMA busy_timeout = 5000");
const { token, user } = await call("POST", "/auth/register", undefined, {
  name: "Bench User",
  email: "bench@example.com",
  password: "Passw0rd",
});
const userId: string = user._id;
const stamp = new Date().toISOString();
await db.execute({
  sql: `INSERT INTO subscriptions (user_id, subscription_id, customer_id, plan_id, status, updated_at)
        VALUES (?, 'sub_bench', 'cus_bench', 'price_bench', 'active', ?)`,
  args: [userId, stamp],
});
await call("POST", "/users/shopify", token, { ...SANDBOX_DEMO.shopify });
await call("POST", "/users/acumatica", token, {
  name: "Sandbox ERP",
  apiVersion: SANDBOX_DEMO.acumatica.apiVersion,
  instanceUri: `${sandboxUrl}${SANDBOX_DEMO.acumatica.instancePath}`,
  endpointName: SANDBOX_DEMO.acumatica.endpointName,
  username: SANDBOX_DEMO.acumatica.username,
  password: SANDBOX_DEMO.acumatica.password,
  company: SANDBOX_DEMO.acumatica.company,
});
// Price and MSRP synced, available -> available; the safety limits off (every price moves by design).
await db.execute({
  sql: `INSERT INTO settings (user_id, acumatica_quantity, shopify_quantity, sync_price, sync_msrp, max_price_change_percent, max_zeroed_percent, updated_at)
        VALUES (?, 'Available', 'Available', 1, 1, 0, 0, ?)
        ON CONFLICT (user_id) DO UPDATE SET acumatica_quantity = 'Available', shopify_quantity = 'Available', sync_price = 1, sync_msrp = 1,
          max_price_change_percent = 0, max_zeroed_percent = 0`,
  args: [userId, stamp],
});

async function mapPairs(pairs: Pair[]) {
  await db.batch(
    ["mappings", "shopify_products", "acumatica_products"].map((table) => ({
      sql: `DELETE FROM ${table} WHERE user_id = ?`,
      args: [userId],
    })),
    "write",
  );
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
          userId,
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
          userId,
          noteId,
          item.inventoryId,
          item.inventoryId.toLowerCase(),
          item.description,
        ],
      },
      {
        sql: `INSERT INTO mappings (id, user_id, shopify_variant_id, shopify_sku, acumatica_id, acumatica_sku, mapping_type, created_at, updated_at)
              VALUES (?, ?, ?, ?, ?, ?, 'exact-sku', ?, ?)`,
        args: [crypto.randomUUID(), userId, variantGid, sku, noteId, item.inventoryId, created, created],
      },
    ];
  });
  for (let start = 0; start < statements.length; start += 3_000)
    await db.batch(statements.slice(start, start + 3_000), "write");
}

interface Run {
  seconds: number;
  load: string;
  peak: ResidentMemory;
  /** success (of it unchanged) / failure / skipped, as execution history counts them. */
  counts: string;
  shopify: Counters;
  acumaticaCalls: number;
}

async function restartEdge() {
  await edge.stop();
  edge = await startProcess("edge/main.ts", edgeEnv, `${origin}/api/health`);
}

/** Waits until Shopify's bucket is full again, as a scheduled run finds it (the full run emptied it). */
async function fullBucket() {
  const { maximumAvailable = 0, currentlyAvailable = 0, restoreRate = 100 } = await shopifyState();
  const missing = maximumAvailable - currentlyAvailable;
  if (missing > 0) await new Promise((resolve) => setTimeout(resolve, (missing / restoreRate) * 1000 + 100));
}

/**
 * One `POST /api/mapping/sync` of every mapping, followed to its end. `reconcile`: every mapping is
 * read (a reseeded sandbox changed without moving its change dates, as no real store does).
 */
async function syncOnce(options: { reconcile: boolean }): Promise<Run> {
  const shopifyBefore = await shopifyState();
  const acumaticaBefore = await acumaticaState();
  const loadAt = load();
  const rss = sampleProcessRss(edge.pid);
  const t0 = performance.now();
  const { job } = await call("POST", "/mapping/sync", token, {
    syncOptions: SYNC_OPTIONS,
    reconcile: options.reconcile,
  });
  const done = await followJob(origin, token, job._id, (progress) => {
    if (PHASES) console.log(`      ${((performance.now() - t0) / 1000).toFixed(2)} s  ${progress.phase}`);
  });
  const seconds = (performance.now() - t0) / 1000;
  const peak = rss.stop();
  if (done.status !== "succeeded") throw new Error(`sync job ${done.status}: ${done.message}`);
  const shopifyAfter = await shopifyState();
  const acumaticaAfter = await acumaticaState();
  const shopify: Counters = {};
  for (const key of ["calls", "pointsSpent", "throttled", "bulkOperations", "mutations"])
    shopify[key] = (shopifyAfter[key] ?? 0) - (shopifyBefore[key] ?? 0);
  return {
    seconds,
    load: loadAt,
    peak,
    counts: `${done.result.success} succeeded (${done.result.unchanged} already in line), ${done.result.failure} failed, ${done.result.skipped} skipped${done.result.holdReasons?.length ? `, HELD: ${done.result.holdReasons.join("; ")}` : ""}`,
    shopify,
    acumaticaCalls: (acumaticaAfter.calls ?? 0) - (acumaticaBefore.calls ?? 0),
  };
}

/** Median time of `{ shop { currencyCode } }` calls after a few to warm up: one Shopify round trip here. */
async function roundTrip(): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 10; i += 1) {
    const t0 = performance.now();
    const response = await fetch(
      `${sandboxUrl}/shopify/${SANDBOX_DEMO.shopify.storeName}/admin/api/${SANDBOX_DEMO.shopify.apiVersion}/graphql.json`,
      {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "X-Shopify-Access-Token": SANDBOX_DEMO.shopify.accessToken,
        },
        body: JSON.stringify({ query: "{ shop { currencyCode } }" }),
      },
    );
    await response.json();
    times.push((performance.now() - t0) / 1000);
  }
  return median(times.slice(5));
}

/**
 * The floor of a full sync of `pairs` (see the header): the cheapest of reading by `nodes` batches
 * or one bulk export, and writing prices per product or by one bulk mutation.
 */
function floorOf(pairs: Pair[], catalog: DemoCatalog, rtt: number, changes = { prices: true }) {
  const n = pairs.length;
  const products = new Set(pairs.map((pair) => pair.product.id)).size;
  const common = 1 + 1 + Math.ceil(n / 250) * 10; // locations, shop currency, quantity calls of 250
  const reads = [
    { name: "nodes read", points: n * 5, bulk: 0 },
    { name: "bulk read", points: 10 + 1, bulk: 1 },
  ];
  const writes = changes.prices
    ? [
        { name: "price calls", points: products * 10, bulk: 0 },
        { name: "bulk price write", points: 10 + 10 + 1, bulk: 1 },
      ]
    : [{ name: "quantities only", points: 0, bulk: 0 }];
  let best = { seconds: Number.POSITIVE_INFINITY, points: 0, strategy: "", binds: "" };
  for (const read of reads)
    for (const write of writes) {
      const points = common + read.points + write.points;
      const bucket = Math.max(0, points - STANDARD.maximumAvailable) / STANDARD.restoreRate;
      const bulk = (read.bulk + write.bulk) * BULK_DELAY_S;
      const seconds = Math.max(bucket, bulk, 3 * rtt);
      const binds = seconds === bucket ? "bucket" : seconds === bulk ? "bulk operations" : "round trips";
      if (seconds < best.seconds) best = { seconds, points, strategy: `${read.name} + ${write.name}`, binds };
    }
  // Acumatica's minimal calls: login, StockItem and NonStockItem pages of 1,000, the quantity
  // inquiry, the base currency, logout. The licence delays only past half its per-minute allowance.
  const stock = catalog.acumatica.items.filter((item) => item.isStockItem).length;
  const erpCalls =
    1 + Math.ceil(stock / 1000) + Math.ceil((catalog.acumatica.items.length - stock) / 1000) + 3;
  const licence = (Math.max(0, erpCalls - LICENCE.requestsPerMinute / 2) * 60) / LICENCE.requestsPerMinute;
  return { ...best, seconds: best.seconds + licence, licence, erpCalls, products };
}

/**
 * 1 % of the mappings' ERP stock changed (through the sandbox's control API, which dates the change
 * as Acumatica does), then a run that reads only what changed; against the floor of writing that
 * 1 %'s quantities alone.
 */
async function onePercentChanged(size: { chosen: Pair[]; catalog: DemoCatalog; rtt: number }) {
  const few = size.chosen.slice(0, Math.ceil(size.chosen.length / 100));
  const runs: Run[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    await fullBucket();
    for (const { item } of few) {
      const warehouse = item.warehouses[0]!;
      const available = warehouse.available + run + 1;
      await control("POST", "acumatica/quantities", {
        inventoryId: item.inventoryId,
        warehouseId: warehouse.warehouseId,
        onHand: available,
        available,
        availableForShipment: 0,
      });
    }
    runs.push(await syncOnce({ reconcile: false }));
  }
  const floor = floorOf(few, size.catalog, size.rtt, { prices: false });
  const t = median(runs.map((r) => r.seconds));
  const m = medianRun(runs);
  // The last run left each changed item's first warehouse RUNS above its seeded quantity.
  const changed = new Set(few.map(({ item }) => item.inventoryId));
  const equal = await inLine(few, size.catalog.shopify.locations[0]!.id, (item) =>
    changed.has(item.inventoryId) ? erpAvailable(item) + RUNS : erpAvailable(item),
  );
  console.log(
    `  1 % changed   ${secondsText(t)} median of ${runs.map((r) => `${secondsText(r.seconds)} (load ${r.load})`).join(", ")} for ${few.length} stock changes; ${m.counts}; Shopify ${m.shopify.calls} calls, ${m.shopify.pointsSpent} points, Acumatica ${m.acumaticaCalls} requests; floor ${secondsText(floor.seconds)} (${floor.strategy}, binds: ${floor.binds}); ratio ${(t / floor.seconds).toFixed(2)}x; peak RSS edge ${memoryText(worst(runs))}; read back: ${equal} of ${few.length} equal to the ERP`,
  );
}

/**
 * The bench's own read of Shopify (a bulk export it launches, follows and parses itself): how many
 * of the pairs hold the ERP's price, compare-at price and available quantity at the primary location.
 */
async function inLine(
  pairs: Pair[],
  locationId: number,
  available: (item: SeedErpItem) => number = erpAvailable,
): Promise<number> {
  const endpoint = `${sandboxUrl}/shopify/${SANDBOX_DEMO.shopify.storeName}/admin/api/${SANDBOX_DEMO.shopify.apiVersion}/graphql.json`;
  const gql = async (query: string, variables: Record<string, unknown> = {}) => {
    const response = await fetch(endpoint, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-Shopify-Access-Token": SANDBOX_DEMO.shopify.accessToken,
      },
      body: JSON.stringify({ query, variables }),
    });
    return response.json();
  };
  const query = `{ productVariants { edges { node { id price compareAtPrice inventoryItem {
    inventoryLevel(locationId: "gid://shopify/Location/${locationId}") { quantities(names: ["available"]) { quantity } } } } } } }`;
  const launched = await gql(
    `mutation ($q: String!) { bulkOperationRunQuery(query: $q) { bulkOperation { id } userErrors { message } } }`,
    { q: query },
  );
  const id = launched.data?.bulkOperationRunQuery?.bulkOperation?.id;
  if (!id) throw new Error(`verification export refused: ${JSON.stringify(launched)}`);
  let url: string | null = null;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const state = await gql("{ currentBulkOperation(type: QUERY) { id status url } }");
    const current = state.data?.currentBulkOperation;
    if (current?.status === "COMPLETED") {
      url = current.url;
      break;
    }
    if (current?.status !== "RUNNING" && current?.status !== "CREATED")
      throw new Error(`verification export ended ${current?.status}`);
  }
  const seen = new Map<string, { price: string; compareAtPrice: string | null; available: number | null }>();
  const text = url ? await (await fetch(url)).text() : "";
  for (const line of text.split("\n")) {
    if (!line) continue;
    const node = JSON.parse(line);
    seen.set(node.id, {
      price: node.price,
      compareAtPrice: node.compareAtPrice,
      available: node.inventoryItem?.inventoryLevel?.quantities?.[0]?.quantity ?? null,
    });
  }
  const money = (cents: number) => (cents / 100).toFixed(2);
  let equal = 0;
  for (const { variant, item } of pairs) {
    const held = seen.get(`gid://shopify/ProductVariant/${variant.id}`);
    if (!held) continue;
    const compareAt = item.msrpCents ? money(item.msrpCents) : null;
    if (
      Number(held.price).toFixed(2) === money(item.defaultPriceCents) &&
      (held.compareAtPrice === null ? null : Number(held.compareAtPrice).toFixed(2)) === compareAt &&
      held.available === available(item)
    )
      equal += 1;
  }
  return equal;
}

const secondsText = (value: number) => `${value.toFixed(2)} s`;
const memoryText = (peak: ResidentMemory) => `${mb(peak.rss)} (${mb(peak.anonymous)} anon)`;
const worst = (runs: Run[]) => runs.map((run) => run.peak).reduce((a, b) => (b.rss > a.rss ? b : a));
const medianRun = (runs: Run[]) =>
  [...runs].sort((a, b) => a.seconds - b.seconds)[Math.floor(runs.length / 2)]!;

console.log(
  `Sync bench: sizes ${SIZES.join(", ")}; ${RUNS} runs each; per-SKU tool at ${NAIVE.join(", ") || "none"} (${NAIVE_RUNS} runs). Load ${load()}.`,
);
const sweep: { n: number; seconds: number }[] = [];
try {
  for (const n of SIZES) {
    const { size, catalog, chosen } = sizeFor(n);
    await restartEdge();
    await mapPairs(chosen);
    await seedSandbox(size);
    const rtt = await roundTrip();
    const floor = floorOf(chosen, catalog, rtt);
    const full: Run[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      await seedSandbox(size);
      full.push(await syncOnce({ reconcile: true }));
    }
    // A fresh edge for the runs that read only what changed: its peak is theirs, not the full runs'
    // (a process keeps the memory it once took). The watermark is in the database.
    await restartEdge();
    const quiet: Run[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      await fullBucket();
      // Reads only what changed since the full run: nothing.
      quiet.push(await syncOnce({ reconcile: false }));
    }
    const equal = await inLine(chosen, catalog.shopify.locations[0]!.id);
    const t = median(full.map((run) => run.seconds));
    sweep.push({ n, seconds: t });
    const m = medianRun(full);
    console.log(`\nN = ${n} changed mappings (store of ${size} variants, ${floor.products} products)`);
    console.log(
      `  full sync     ${secondsText(t)} median of ${full.map((r) => `${secondsText(r.seconds)} (load ${r.load})`).join(", ")}`,
    );
    console.log(
      `  floor         ${secondsText(floor.seconds)} (${floor.strategy}: ${floor.points} points; binds: ${floor.binds}; Acumatica ${floor.erpCalls} calls, licence +${secondsText(floor.licence)}; round trip ${(rtt * 1000).toFixed(1)} ms); ratio ${(t / floor.seconds).toFixed(2)}x`,
    );
    console.log(
      `  median run    ${m.counts}; Shopify ${m.shopify.calls} calls, ${m.shopify.pointsSpent} points, ${m.shopify.throttled} THROTTLED, ${m.shopify.bulkOperations} bulk ops, ${m.shopify.mutations} mutations; Acumatica ${m.acumaticaCalls} requests`,
    );
    console.log(`  peak RSS edge ${memoryText(worst(full))} (highest of the full runs)`);
    const q = medianRun(quiet);
    console.log(
      `  no change     ${secondsText(median(quiet.map((r) => r.seconds)))} median of ${quiet.map((r) => `${secondsText(r.seconds)} (load ${r.load})`).join(", ")}; reads only changes: Shopify ${q.shopify.calls} calls, ${q.shopify.pointsSpent} points, Acumatica ${q.acumaticaCalls} requests (${(q.shopify.calls ?? 0) + q.acumaticaCalls} calls); ${q.counts}; peak RSS edge ${memoryText(worst(quiet))}`,
    );
    console.log(`  Shopify read back by the bench: ${equal} of ${chosen.length} mappings equal to the ERP`);
    if (n >= 100) {
      await restartEdge();
      await onePercentChanged({ chosen, catalog, rtt });
    }
  }

  console.log("\nt(N), flagged where t(N) > 1.1 x t(next larger N)");
  const sorted = [...sweep].sort((a, b) => a.n - b.n);
  sorted.forEach((entry, index) => {
    const next = sorted[index + 1];
    const cliff = next && entry.seconds > 1.1 * next.seconds;
    console.log(
      `  ${String(entry.n).padStart(7)}  ${secondsText(entry.seconds).padStart(9)}${cliff ? `  CLIFF: ${(entry.seconds / next.seconds).toFixed(2)}x t(${next.n})` : ""}`,
    );
  });

  for (const n of NAIVE) {
    const { size, catalog, chosen } = sizeFor(n);
    const engine = sweep.find((entry) => entry.n === n);
    const runs: { seconds: number; load: string; calls: number; points: number; throttled: number }[] = [];
    for (let run = 0; run < NAIVE_RUNS; run += 1) {
      await seedSandbox(size);
      const loadAt = load();
      const result = await runPerSku({
        origin: sandboxUrl,
        pairs: chosen.map(({ variant, item }) => ({
          sku: variant.sku ?? "",
          inventoryId: item.inventoryId,
          acumaticaId: stableGuid(`${SEED}:item:stock:${item.inventoryId}`),
        })),
        locationId: catalog.shopify.locations[0]!.id,
      });
      runs.push({
        seconds: result.seconds,
        load: loadAt,
        calls: result.shopifyCalls,
        points: result.shopifyPoints,
        throttled: result.throttled,
      });
    }
    const t = median(runs.map((run) => run.seconds));
    const m = [...runs].sort((a, b) => a.seconds - b.seconds)[Math.floor(runs.length / 2)]!;
    console.log(
      `\nPer-SKU tool, ${n} SKUs (look-up by SKU, read the inventory item, set its quantity; quantities only)`,
    );
    console.log(
      `  wall time     ${secondsText(t)} median of ${runs.map((r) => `${secondsText(r.seconds)} (load ${r.load})`).join(", ")}`,
    );
    console.log(`  Shopify       ${m.calls} calls, ${m.points} points, ${m.throttled} THROTTLED`);
    console.log(
      engine
        ? `  engine        ${secondsText(engine.seconds)} for the same ${n} (prices and quantities): ${(t / engine.seconds).toFixed(0)}x faster`
        : `  engine        not measured at ${n} (add it to --sizes for the ratio)`,
    );
  }
} finally {
  db.close();
  await edge.stop();
  await sandbox.stop();
  await Deno.remove(dataDir, { recursive: true }).catch(() => {});
}
Deno.exit(0);
