/**
 * Catalog pull benchmark, real time over real HTTP: the sandbox and the edge (edge/main.ts, as
 * `npm start` runs it) each in their own process, so the peak RSS below is the edge's alone.
 * Figures only, nothing is asserted.
 *   (1) Shopify: 50,000 variants, standard throttle profile (2,000 points, 100/s) -> bulk export;
 *   (2) Acumatica: 50,000+ items, licence of 4 concurrent requests and 300 per minute.
 * Optional (3) `--paged-variants n` (n below 2,500): a paged Shopify pull of n variants, where the
 * throttle bucket is the limit (about n * 5 points at 100 per s).
 *
 * The floor of a pull is what the outside system and its limits take on their own: the same reads
 * with nothing stored (at 50,000 rows neither rate limit binds, so the limits alone imply far less).
 *
 * Run: node_modules/.bin/deno run --config deno.json -A bench/catalog-pull.ts [--variants 50000] [--rounds 7] [--paged-variants 2000]
 */
import { readAcumaticaCatalog } from "../edge/src/connectors/acumatica/catalog-reader.ts";
import { createConnectors } from "../edge/src/connectors/connectors.ts";
import { createBulkSlots } from "../edge/src/connectors/shopify/bulk-slots.ts";
import { readShopifyCatalog } from "../edge/src/connectors/shopify/catalog-reader.ts";
import { realClock } from "../edge/src/connectors/transport.ts";
import { openDatabase } from "../edge/src/db/client.ts";
import { SANDBOX_DEMO } from "../shared/src/sandbox-demo.ts";
import {
  benchEdgeEnv,
  followJob,
  freePort,
  mb,
  numberArg,
  type ResidentMemory,
  sampleProcessRss,
  seconds,
  startProcess,
} from "./bench-support.ts";

const VARIANTS = numberArg("variants", 50_000);
const PAGED_VARIANTS = numberArg("paged-variants", 0);
const ROUNDS = numberArg("rounds", 7);
const STANDARD = { maximumAvailable: 2_000, restoreRate: 100 };
const LICENCE = { maxConcurrent: 4, requestsPerMinute: 300 };

const sandboxPort = freePort();
const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
const sandbox = await startProcess(
  "sandbox/main.ts",
  { SANDBOX_PORT: String(sandboxPort), SANDBOX_SIZE: "300" },
  `${sandboxUrl}/__control/state`,
);
const dataDir = await Deno.makeTempDir({ prefix: "stockbridge-bench-" });
const stops: (() => Promise<void>)[] = [];

try {
  const control = async (path: string, body?: unknown) => {
    const response = await fetch(`${sandboxUrl}/__control/${path}`, {
      method: body === undefined ? "GET" : path === "faults" ? "PUT" : "POST",
      headers: { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`control ${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  const started = Date.now();
  await control("reset", { size: VARIANTS });
  console.log(`sandbox seeded with ${VARIANTS} variants in ${seconds(Date.now() - started)}`);
  await control("faults", { shopify: { throttleProfile: "standard" }, acumatica: LICENCE });

  // The edge as `npm start` runs it, in its own process: its peak RSS is the edge's alone.
  const edgePort = freePort();
  const origin = `http://127.0.0.1:${edgePort}`;
  const edgeEnv = benchEdgeEnv({ port: edgePort, dataDir, sandboxUrl });
  const edge = await startProcess("edge/main.ts", edgeEnv, `${origin}/api/health`);
  stops.push(() => edge.stop());
  // The bench's own connection to the edge's database, for set-up only (a subscription, clearing a
  // catalog between rounds).
  const db = openDatabase(`file:${dataDir}/stockbridge.db`);
  await db.execute("PRAGMA busy_timeout = 5000");
  const call = async (method: string, path: string, token?: string, body?: unknown) => {
    const response = await fetch(`${origin}/api${path}`, {
      method,
      headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await response.json();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json.data;
  };
  const { token, user } = await call("POST", "/auth/register", undefined, {
    name: "Bench User",
    email: "bench@example.com",
    password: "Passw0rd",
  });
  await db.execute({
    sql: `INSERT INTO subscriptions (user_id, subscription_id, customer_id, plan_id, status, updated_at)
          VALUES (?, 'sub_bench', 'cus_bench', 'price_bench', 'active', ?)`,
    args: [user._id, new Date().toISOString()],
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

  async function pull(system: "shopify" | "acumatica") {
    const before = await control("state");
    const rss = sampleProcessRss(edge.pid);
    const t0 = performance.now();
    const { job } = await call("POST", `/${system}/products/sync`, token);
    // Followed as the screens follow a job: its event stream, which ends with the job done (a poll
    // would add up to its interval to the wall time; the floor has no such wait).
    const done = await followJob(origin, token, job._id, (progress) => {
      if (Deno.args.includes("--phases"))
        console.log(
          `  ${((performance.now() - t0) / 1000).toFixed(1)} s  ${progress.phase}  (${progress.done} rows)`,
        );
    });
    const wallMs = performance.now() - t0;
    const peak = rss.stop();
    const after = await control("state");
    if (done.status !== "succeeded") throw new Error(`${system} pull failed: ${done.message}`);
    return { job: done, wallMs, peak, before: before[system], after: after[system] };
  }

  // The same reads with nothing written: what Shopify, Acumatica and the network take on their own.
  const connectors = createConnectors({
    fetch: (input, init) => fetch(input, init),
    clock: realClock,
    sandboxUrl,
  });
  const rawShopify = async () => {
    const t0 = performance.now();
    const client = connectors.shopify({ ...SANDBOX_DEMO.shopify });
    await readShopifyCatalog(client, {
      fetch: connectors.fetch,
      clock: realClock,
      bulkThreshold: 2_500,
      bulkSlots: createBulkSlots(db, () => new Date()).forStore(SANDBOX_DEMO.shopify.storeName),
      onRows: async () => {},
    });
    return performance.now() - t0;
  };
  const rawAcumatica = async () => {
    const t0 = performance.now();
    const info = {
      instanceUri: `${sandboxUrl}${SANDBOX_DEMO.acumatica.instancePath}`,
      endpointName: SANDBOX_DEMO.acumatica.endpointName,
      apiVersion: SANDBOX_DEMO.acumatica.apiVersion,
      username: SANDBOX_DEMO.acumatica.username,
      password: SANDBOX_DEMO.acumatica.password,
      company: SANDBOX_DEMO.acumatica.company,
    };
    await connectors.acumatica(info, (api) =>
      readAcumaticaCatalog(api, info.apiVersion, {
        pageSize: 1_000,
        parallelPages: 2,
        onRows: async () => {},
      }),
    );
    return performance.now() - t0;
  };

  // A fresh licence minute and unchanged data (same seed): Acumatica's licence delays every request
  // past 150 in a minute, and the reads, pulls and floors below make about 60 each.
  const freshMinute = async () => {
    await control("reset", { size: VARIANTS });
    await control("faults", { shopify: { throttleProfile: "standard" }, acumatica: LICENCE });
  };
  // A pull's floor is read just before it (which also warms the sandbox, so the pull is not the one
  // to pay for its first answers) and just after; it is their mean. Timings on this shared machine
  // wander by a third from run to run, so each kind of pull (into an empty catalog, or again over a
  // stored one) is measured ROUNDS times and the round with the median ratio is reported in full.
  const againstFloor = async (
    system: "shopify" | "acumatica",
    read: () => Promise<number>,
    catalog: "empty" | "kept",
  ) => {
    const rounds = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      if (catalog === "empty") await forgetCatalog(system);
      const before = await read();
      await freshMinute();
      const run = await pull(system);
      await freshMinute();
      const after = await read();
      await freshMinute();
      const floorMs = (before + after) / 2;
      rounds.push({ run, floorMs, reads: [before, after], ratio: run.wallMs / floorMs });
    }
    const byRatio = [...rounds].sort((a, b) => a.ratio - b.ratio);
    return {
      ...byRatio[Math.floor(byRatio.length / 2)]!,
      ratios: rounds.map((round) => round.ratio),
      // Memory is reported at its worst, not its median.
      peak: rounds
        .map((round) => round.run.peak)
        .reduce((worst, peak) => (peak.rss > worst.rss ? peak : worst)),
    };
  };
  const forgetCatalog = async (system: "shopify" | "acumatica") => {
    await db.batch(
      [
        { sql: `DELETE FROM ${system}_products WHERE user_id = ?`, args: [user._id] },
        { sql: "DELETE FROM catalog_state WHERE user_id = ? AND system = ?", args: [user._id, system] },
      ],
      "write",
    );
  };
  const memory = (peak: ResidentMemory) =>
    `${mb(peak.rss)} (${mb(peak.anonymous)} anonymous, ${mb(peak.files)} mapped files: the runtime, its libraries, the database)`;
  const ratios = (values: number[]) => values.map((value) => `${value.toFixed(2)}x`).join(", ");

  // (1) Shopify, bulk export.
  const shopifyMeasured = await againstFloor("shopify", rawShopify, "empty");
  const shopify = shopifyMeasured.run;
  const shopifyRawMs = shopifyMeasured.floorMs;
  const points = shopify.after.pointsSpent - shopify.before.pointsSpent;
  const shopifyFloorMs =
    (Math.max(0, points - STANDARD.maximumAvailable) / STANDARD.restoreRate) * 1000 + 500;
  const r = shopify.job.result;
  console.log(
    `\nShopify pull: ${r.total} variants with SKU (+${r.skippedWithoutSku} without), mode ${r.mode}, standard profile`,
  );
  console.log(`  wall time            ${seconds(shopify.wallMs)}`);
  console.log(
    `  calls                ${shopify.after.calls - shopify.before.calls} GraphQL + 1 result download`,
  );
  console.log(
    `  points               ${points} (throttled answers: ${shopify.after.throttled - shopify.before.throttled})`,
  );
  console.log(
    `  waited on limits     ${seconds(Number(r.waitedMs))} bucket pacing and back-off; ${seconds(Number(r.exportWaitMs))} waiting for the export`,
  );
  console.log(
    `  limits alone imply   ${seconds(shopifyFloorMs)} (points beyond the 2,000 bucket at 100/s, plus the export's 0.5 s)`,
  );
  console.log(
    `  floor                ${seconds(shopifyRawMs)} (the same reads with nothing stored: limits, export, download, parse; ${shopifyMeasured.reads.map(seconds).join(" before, ")} after)`,
  );
  console.log(
    `  pull / floor         ${(shopify.wallMs / shopifyRawMs).toFixed(2)}x, the median of ${ratios(shopifyMeasured.ratios)} (target: at most 1.5x)`,
  );
  console.log(`  peak RSS (edge)       ${memory(shopifyMeasured.peak)} (the highest of the rounds)`);

  // (2) Acumatica.
  const acumaticaMeasured = await againstFloor("acumatica", rawAcumatica, "empty");
  const acumatica = acumaticaMeasured.run;
  const acumaticaRawMs = acumaticaMeasured.floorMs;
  const calls = acumatica.after.calls - acumatica.before.calls;
  // The licence delays requests once half the per-minute allowance is used in a minute.
  const acumaticaFloorMs =
    (Math.max(0, calls - LICENCE.requestsPerMinute / 2) * 60_000) / LICENCE.requestsPerMinute;
  const a = acumatica.job.result;
  console.log(
    `\nAcumatica pull: ${a.total} items (${a.stockItems} stock, ${a.nonStockItems} non-stock, ${a.quantityRows} warehouse rows), licence 4 concurrent / 300 per min`,
  );
  console.log(`  wall time            ${seconds(acumatica.wallMs)}`);
  console.log(
    `  calls                ${calls} (login, endpoint check, 1 quantity inquiry, pages of 1,000, logout)`,
  );
  console.log(
    `  waited on limits     ${seconds(Number(a.waitedMs))} client back-off; licence delayed ${acumatica.after.delayed - acumatica.before.delayed} requests, peak ${acumatica.after.runningPeak} running`,
  );
  console.log(
    `  limits alone imply   ${seconds(acumaticaFloorMs)} (requests beyond 150 in a minute at 300/min)`,
  );
  console.log(
    `  floor                ${seconds(acumaticaRawMs)} (the same calls with nothing stored: limits, answers, parse; ${acumaticaMeasured.reads.map(seconds).join(" before, ")} after)`,
  );
  console.log(
    `  pull / floor         ${(acumatica.wallMs / acumaticaRawMs).toFixed(2)}x, the median of ${ratios(acumaticaMeasured.ratios)} (target: at most 1.5x)`,
  );
  console.log(`  peak RSS (edge)       ${memory(acumaticaMeasured.peak)} (the highest of the rounds)`);
  console.log(`  sessions left open   ${acumatica.after.loginsOpen}`);

  // The usual case after the first day: pulling again when nothing changed (rows kept in place).
  const again = {
    shopify: await againstFloor("shopify", rawShopify, "kept"),
    acumatica: await againstFloor("acumatica", rawAcumatica, "kept"),
  };
  console.log("\nSecond pulls (catalogs already stored, nothing changed upstream)");
  for (const [system, measured] of Object.entries(again)) {
    const { added, updated, unchanged, removed } = measured.run.job.result;
    console.log(
      `  ${system.padEnd(10)} wall ${seconds(measured.run.wallMs)}, floor ${seconds(measured.floorMs)}: ${measured.ratio.toFixed(2)}x, the median of ${ratios(measured.ratios)}; peak RSS ${memory(measured.peak)} (highest); ${added} added, ${updated} updated, ${unchanged} unchanged, ${removed} removed`,
    );
  }

  // (3) Optional: a paged Shopify pull, where the bucket sets the pace (stores below the edge's bulk
  // threshold of 2,500 variants are read in pages).
  if (PAGED_VARIANTS > 0) {
    await control("reset", { size: PAGED_VARIANTS });
    await control("faults", { shopify: { throttleProfile: "standard" }, acumatica: LICENCE });
    const paged = await pull("shopify");
    const result = paged.job.result;
    const spent = paged.after.pointsSpent - paged.before.pointsSpent;
    const floor = (Math.max(0, result.points - STANDARD.maximumAvailable) / STANDARD.restoreRate) * 1000;
    console.log(`\nShopify paged pull: ${result.total} variants, mode ${result.mode}`);
    console.log(
      `  wall time ${seconds(paged.wallMs)}, calls ${result.calls}, points ${result.points} (sandbox counted ${spent}), throttled ${result.throttled}`,
    );
    console.log(
      `  waited on limits ${seconds(result.waitedMs)}, floor from limits ${seconds(floor)}, ratio ${(paged.wallMs / floor).toFixed(2)}x, peak RSS ${memory(paged.peak)}`,
    );
  }
  db.close();
} finally {
  for (const stop of stops) await stop();
  await sandbox.stop();
  await Deno.remove(dataDir, { recursive: true }).catch(() => {});
}
