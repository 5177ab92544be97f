/**
 * Unmapped products under load: the edge (edge/main.ts) in its own Deno process on a libSQL file
 * with 100,000 Shopify variants and 100,000 Acumatica items for one user (1,000 of them mapped).
 * 16 calls of GET /api/mapping/unmapped at once while one client asks /api/health over and over:
 * how long health waits is how long the unmapped calls hold the event loop. Figures only.
 *
 * Run: node_modules/.bin/deno run --config deno.json -A bench/mapping-unmapped.ts [--rows 100000] [--calls 16]
 */
import { openDatabase } from "../edge/src/db/client.ts";
import { freePort, numberArg, percentile, startProcess } from "./bench-support.ts";

const ROWS = numberArg("rows", 100_000);
const CALLS = numberArg("calls", 16);
const MAPPED = Math.min(1_000, ROWS);

const port = freePort();
const origin = `http://127.0.0.1:${port}`;
const dataDir = await Deno.makeTempDir({ prefix: "stockbridge-unmapped-bench-" });
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
  const response = await fetch(`${origin}/api/auth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name: "Bench User", email: "unmapped@example.com", password: "Passw0rd" }),
  });
  const { data: user } = (await response.json()) as { data: { token: string; user: { _id: string } } };
  const seeded = performance.now();
  await seed(user.user._id);
  console.log(
    `seeded ${ROWS.toLocaleString("en-US")} variants and items (${MAPPED} pairs mapped) in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
  );

  const middle = Math.floor(ROWS / 2);
  const scenarios: { name: string; query: (call: number) => Record<string, string> }[] = [
    { name: "no parameters", query: () => ({}) },
    {
      name: "limit 100, 16 pages around the middle",
      query: (call) => ({
        limit: "100",
        shopifyOffset: String(middle + call * 100),
        acumaticaOffset: String(middle - call * 100),
      }),
    },
    {
      name: "limit 100, search '12', page 5",
      query: () => ({ limit: "100", search: "12", shopifyOffset: "400", acumaticaOffset: "400" }),
    },
  ];

  console.log(`\n${CALLS} parallel GET /api/mapping/unmapped, /api/health asked in a loop meanwhile`);
  console.log(
    "scenario                                   unmapped p50/max        bytes each   health p50/max (n)",
  );
  for (const scenario of scenarios) {
    await round(scenario.query); // warm the path
    const result = await round(scenario.query);
    const ms = (value: number) => `${value.toFixed(0)} ms`;
    const calls = result.calls.sort((a, b) => a - b);
    const health = result.health.sort((a, b) => a - b);
    console.log(
      `${scenario.name.padEnd(42)} ${`${ms(percentile(calls, 0.5))} / ${ms(calls.at(-1) ?? 0)}`.padEnd(22)} ${result.bytes.toLocaleString("en-US").padStart(11)}   ${ms(percentile(health, 0.5))} / ${ms(health.at(-1) ?? 0)} (${health.length})`,
    );
    if (result.failures > 0) console.log(`  (${result.failures} answers were not 200)`);
  }

  async function round(query: (call: number) => Record<string, string>) {
    let running = true;
    const health: number[] = [];
    const poller = (async () => {
      while (running) {
        const t0 = performance.now();
        const answer = await fetch(`${origin}/api/health`);
        await answer.arrayBuffer();
        health.push(performance.now() - t0);
      }
    })();
    let failures = 0;
    let bytes = 0;
    const calls = await Promise.all(
      Array.from({ length: CALLS }, async (_, call) => {
        const t0 = performance.now();
        const answer = await fetch(`${origin}/api/mapping/unmapped?${new URLSearchParams(query(call))}`, {
          headers: { Authorization: `Bearer ${user.token}` },
        });
        bytes = (await answer.arrayBuffer()).byteLength;
        if (answer.status !== 200) failures += 1;
        return performance.now() - t0;
      }),
    );
    running = false;
    await poller;
    return { calls, health, bytes, failures };
  }
} finally {
  await server.stop();
  await Deno.remove(dataDir, { recursive: true }).catch(() => {});
}

/** The catalogs as a pull leaves them (SKU-000001.., ERP-000001..), and the first pairs mapped. */
async function seed(userId: string) {
  const db = openDatabase(`file:${dataDir}/stockbridge.db`);
  await db.execute("PRAGMA busy_timeout = 5000");
  const numbers = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)";
  const now = new Date().toISOString();
  await db.batch(
    [
      {
        sql: `INSERT INTO subscriptions (user_id, subscription_id, customer_id, plan_id, status, updated_at)
              VALUES (?, 'sub_bench', 'cus_bench', 'price_bench', 'active', ?)`,
        args: [userId, now],
      },
      {
        sql: `${numbers}
              INSERT INTO shopify_products (id, user_id, variant_id, product_id, inventory_item_id, title, sku, sku_key,
                price_cents, compare_at_price_cents, is_physical, tracked, location_id, available, on_hand, locations_json)
              SELECT lower(hex(randomblob(16))), ?, 'gid://shopify/ProductVariant/' || i, 'gid://shopify/Product/' || i,
                'gid://shopify/InventoryItem/' || i, 'Product ' || i, printf('SKU-%06d', i), printf('sku-%06d', i),
                1000, NULL, 1, 1, 'gid://shopify/Location/70001', 5, 5, '[]'
              FROM n`,
        args: [ROWS, userId],
      },
      {
        sql: `${numbers}
              INSERT INTO acumatica_products (id, user_id, acumatica_id, sku, sku_key, description, default_price_cents,
                msrp_cents, available, on_hand, available_for_shipping, is_stock_item)
              SELECT lower(hex(randomblob(16))), ?, printf('ERP-%06d', i), printf('ERP-%06d', i), printf('erp-%06d', i),
                'Item ' || i, 1000, NULL, 5, 5, 5, 1
              FROM n`,
        args: [ROWS, userId],
      },
      {
        sql: `${numbers}
              INSERT INTO mappings (id, user_id, shopify_variant_id, shopify_sku, acumatica_id, acumatica_sku, mapping_type,
                created_at, updated_at)
              SELECT lower(hex(randomblob(16))), ?, 'gid://shopify/ProductVariant/' || i, printf('SKU-%06d', i),
                printf('ERP-%06d', i), printf('ERP-%06d', i), 'exact-sku', ?, ?
              FROM n`,
        args: [MAPPED, userId, now, now],
      },
    ],
    "write",
  );
  db.close();
}
