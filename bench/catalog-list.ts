/**
 * List endpoint benchmark: the edge (edge/main.ts) in its own Deno process on a libSQL file with
 * 100,000 Shopify products for the measured user (and as many for another user), 32 concurrent
 * clients over real HTTP. Figures only, nothing is asserted.
 *
 * Run: node_modules/.bin/deno run --config deno.json -A bench/catalog-list.ts [--rows 100000] [--clients 32] [--seconds 5]
 */
import { createCatalogRepo } from "../edge/src/catalog/repo.ts";
import { createSearchCache } from "../edge/src/catalog/search-cache.ts";
import type { ShopifyVariantRow } from "../edge/src/connectors/shopify/catalog-reader.ts";
import { openDatabase } from "../edge/src/db/client.ts";
import { catalogRow, freePort, numberArg, padded, percentile, startProcess } from "./bench-support.ts";

const ROWS = numberArg("rows", 100_000);
const CLIENTS = numberArg("clients", 32);
const SECONDS = numberArg("seconds", 5);
const SORTS = ["sku", "price", "compareAtPrice", "available", "onHandInventory", "lastSynced"];

const port = freePort();
const origin = `http://127.0.0.1:${port}`;
const dataDir = await Deno.makeTempDir({ prefix: "stockbridge-list-bench-" });
const server = await startProcess(
  "edge/main.ts",
  {
    PORT: String(port),
    DATA_DIR: dataDir,
    WEB_DIST: `${dataDir}/no-web`,
    JWT_SECRET: "bench-secret-that-is-long-enough-0123456789",
    ENCRYPTION_KEYS: `bench:${btoa(String.fromCharCode(...new Uint8Array(32).fill(7)))}`,
    PASSWORD_ITERATIONS: "1000",
    STRIPE_SECRET_KEY: "sk_test_bench",
    STRIPE_API_URL: "http://127.0.0.1:9",
  },
  `${origin}/api/health`,
);

try {
  const register = async (email: string) => {
    const response = await fetch(`${origin}/api/auth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Bench User", email, password: "Passw0rd" }),
    });
    const { data } = await response.json();
    return data as { token: string; user: { _id: string } };
  };
  const measured = await register("lists@example.com");
  const neighbour = await register("neighbour@example.com");

  const db = openDatabase(`file:${dataDir}/stockbridge.db`);
  await db.execute("PRAGMA busy_timeout = 5000");
  const repo = createCatalogRepo(db, createSearchCache());
  const seeded = performance.now();
  for (const user of [measured, neighbour]) {
    await db.execute({
      sql: `INSERT INTO subscriptions (user_id, subscription_id, customer_id, plan_id, status, updated_at)
            VALUES (?, ?, ?, 'price_bench', 'active', ?)`,
      args: [user.user._id, `sub_${user.user._id}`, `cus_${user.user._id}`, new Date().toISOString()],
    });
    const job = `seed-${user.user._id}`;
    for (let start = 0; start < ROWS; start += 1_000) {
      const rows: ShopifyVariantRow[] = [];
      for (let n = start; n < Math.min(ROWS, start + 1_000); n += 1) rows.push(catalogRow(n));
      await repo.stageShopify({ jobId: job, userId: user.user._id, rows, newId: () => crypto.randomUUID() });
    }
    // As a pull does: the swap, then its rows' search entries.
    await repo.swap("shopify", { jobId: job, userId: user.user._id, syncedAt: new Date().toISOString() });
    await repo.indexSearch("shopify", user.user._id);
  }
  console.log(
    `seeded ${ROWS} products for each of 2 users in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
  );
  db.close();

  const scenarios: { name: string; query: () => Record<string, string> }[] = [
    { name: "default list (lastSynced desc), pages 1-100", query: () => ({ page: page(100) }) },
    { name: "sort by any column, either way, pages 1-100", query: () => ({ ...sort(), page: page(100) }) },
    {
      name: "sort by any column, any page (deep OFFSET)",
      query: () => ({ ...sort(), page: page(ROWS / 10) }),
    },
    {
      name: "search, a new narrow SKU fragment each time",
      query: () => ({ search: padded(random(ROWS)).slice(1), page: "1" }),
    },
    {
      name: "search, 50 fragments of ~100 matches, sorted",
      query: () => ({ search: padded(random(50) * 1_000).slice(0, 4), ...sort(), page: page(5) }),
    },
    {
      name: "search, broad terms (25-100% of rows)",
      query: () => ({ search: pick(["sku-0", "-m", "5", "-xl"]), page: page(100), ...sort() }),
    },
  ];

  // The first list of each sort order after a pull reads and sorts the whole catalog once (there is
  // no index per sort column); every later page of that order is a slice of the remembered one.
  const firsts: string[] = [];
  for (const sortBy of SORTS) {
    const t0 = performance.now();
    const response = await fetch(`${origin}/api/shopify/products?${new URLSearchParams({ sortBy })}`, {
      headers: { Authorization: `Bearer ${measured.token}` },
    });
    await response.arrayBuffer();
    firsts.push(`${sortBy} ${(performance.now() - t0).toFixed(0)} ms`);
  }
  console.log(`\nfirst page of each sort order after the pull (one client): ${firsts.join(", ")}`);

  console.log(
    `\nGET /api/shopify/products, ${ROWS.toLocaleString("en-US")} rows per user, ${CLIENTS} concurrent clients, ${SECONDS} s each`,
  );
  console.log("scenario                                          p50      p95      p99   req/s");
  for (const scenario of scenarios) {
    await run(scenario.query, 1); // warm the path (not the search cache: terms are random)
    const result = await run(scenario.query, SECONDS);
    const sorted = result.latencies.sort((a, b) => a - b);
    const ms = (value: number) => `${value.toFixed(1)} ms`.padStart(8);
    console.log(
      `${scenario.name.padEnd(48)} ${ms(percentile(sorted, 0.5))} ${ms(percentile(sorted, 0.95))} ${ms(percentile(sorted, 0.99))} ${String(Math.round(sorted.length / result.seconds)).padStart(7)}`,
    );
    if (result.failures > 0) console.log(`  (${result.failures} answers were not 200)`);
  }

  async function run(query: () => Record<string, string>, seconds: number) {
    const latencies: number[] = [];
    let failures = 0;
    const until = performance.now() + seconds * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (performance.now() < until) {
          const t0 = performance.now();
          const response = await fetch(`${origin}/api/shopify/products?${new URLSearchParams(query())}`, {
            headers: { Authorization: `Bearer ${measured.token}` },
          });
          await response.arrayBuffer();
          latencies.push(performance.now() - t0);
          if (response.status !== 200) failures += 1;
        }
      }),
    );
    return { latencies, failures, seconds: (performance.now() - started) / 1000 };
  }
} finally {
  await server.stop();
  await Deno.remove(dataDir, { recursive: true }).catch(() => {});
}

function random(below: number): number {
  return Math.floor(Math.random() * below);
}
function page(max: number): string {
  return String(1 + random(max));
}
function pick<T>(values: T[]): T {
  return values[random(values.length)]!;
}
function sort() {
  return { sortBy: pick(SORTS), sortDirection: pick(["asc", "desc"]) };
}
