import type { ShopifyVariantRow } from "../edge/src/connectors/shopify/catalog-reader.ts";

/**
 * Helpers shared by the catalog benchmarks (not a benchmark itself: it exports). Deno APIs are
 * allowed here: benchmarks are entry points run by `npm run bench`, like main.ts files.
 */
export const DENO = new URL("../node_modules/.bin/deno", import.meta.url).pathname;
export const ROOT = new URL("../", import.meta.url).pathname;

/** A free loopback port (bound, then released). */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** Starts a Deno program in its own process and waits until `readyUrl` answers. */
export async function startProcess(entry: string, env: Record<string, string>, readyUrl: string) {
  const child = new Deno.Command(DENO, {
    args: ["run", "--config", `${ROOT}deno.json`, "-A", entry],
    cwd: ROOT,
    env,
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const response = await fetch(readyUrl);
      await response.body?.cancel();
      if (response.status < 500) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${entry} did not answer at ${readyUrl}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    pid: child.pid,
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch {
        // already gone
      }
      await child.status;
    },
  };
}

/** The edge's environment as the benches run it: `npm start`'s, on its own data folder and the sandbox. */
export function benchEdgeEnv(options: { port: number; dataDir: string; sandboxUrl: string }) {
  return {
    PORT: String(options.port),
    DATA_DIR: options.dataDir,
    WEB_DIST: `${options.dataDir}/no-web`,
    JWT_SECRET: "bench-secret-that-is-long-enough-0123456789",
    PASSWORD_ITERATIONS: "1000",
    ENCRYPTION_KEYS: `bench:${btoa(String.fromCharCode(...new Uint8Array(32).fill(7)))}`,
    SANDBOX_URL: options.sandboxUrl,
    STRIPE_SECRET_KEY: "sk_test_bench",
    STRIPE_API_URL: "http://127.0.0.1:9",
  };
}

/** Samples this process's resident memory every 25 ms; `stop()` answers the peak in bytes. */
export function sampleRss() {
  let peak = Deno.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, Deno.memoryUsage().rss);
  }, 25);
  return {
    stop(): number {
      clearInterval(timer);
      return Math.max(peak, Deno.memoryUsage().rss);
    },
  };
}

/** A process's resident memory: all of it, its anonymous part (heaps), and its mapped file pages. */
export interface ResidentMemory {
  rss: number;
  anonymous: number;
  files: number;
}

/**
 * Samples another process's resident memory (/proc status, Linux) every 25 ms; `stop()` answers the
 * sample with the highest VmRSS, in bytes, with its split: anonymous memory (heaps) and file pages
 * (the runtime's binary and libraries, and the memory-mapped database: pages the kernel can drop).
 */
export function sampleProcessRss(pid: number) {
  const read = (): ResidentMemory => {
    const status = Deno.readTextFileSync(`/proc/${pid}/status`);
    const kb = (field: string) =>
      Number(new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, "m").exec(status)?.[1] ?? 0) * 1024;
    return { rss: kb("VmRSS"), anonymous: kb("RssAnon"), files: kb("RssFile") };
  };
  let peak = read();
  const sample = () => {
    const now = read();
    if (now.rss > peak.rss) peak = now;
  };
  const timer = setInterval(sample, 25);
  return {
    stop(): ResidentMemory {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

export function percentile(sorted: number[], share: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;
}

/** `--name value` from the command line, as a number. */
export function numberArg(name: string, fallback: number): number {
  const index = Deno.args.indexOf(`--${name}`);
  const value = index === -1 ? undefined : Number(Deno.args[index + 1]);
  return value !== undefined && Number.isFinite(value) ? value : fallback;
}

export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const SIZES = ["S", "M", "L", "XL"];

/**
 * The catalog benchmarks' rows, as a pull stages them: four sizes per product, some compare-at
 * prices, untracked and non-physical variants, and every seventh without a stock level.
 */
export function catalogRow(n: number): ShopifyVariantRow {
  const sku = `SKU-${padded(n)}-${SIZES[n % SIZES.length]}`;
  const priceCents = 500 + ((n * 7_919) % 12_000);
  return {
    variantId: `gid://shopify/ProductVariant/${40_000_000 + n}`,
    productId: `gid://shopify/Product/${30_000_000 + Math.floor(n / 4)}`,
    inventoryItemId: `gid://shopify/InventoryItem/${50_000_000 + n}`,
    title: `Product ${Math.floor(n / 4)} - ${SIZES[n % SIZES.length]}`,
    sku,
    priceCents,
    compareAtPriceCents: n % 3 === 0 ? priceCents + 500 : null,
    isPhysical: n % 29 !== 0,
    tracked: n % 13 !== 0,
    locationId: n % 7 === 0 ? null : "gid://shopify/Location/70001",
    available: n % 7 === 0 ? null : (n * 31) % 80,
    onHand: n % 7 === 0 ? null : ((n * 31) % 80) + (n % 5),
    levels:
      n % 7 === 0
        ? []
        : [
            {
              locationId: "gid://shopify/Location/70001",
              name: "Main Warehouse",
              available: (n * 31) % 80,
              onHand: ((n * 31) % 80) + (n % 5),
            },
          ],
  };
}

/** A row number as its SKU spells it (six digits). */
export function padded(n: number): string {
  return String(n).padStart(6, "0");
}

/** The machine's load averages as `uptime` prints them (1, 5 and 15 minutes). */
export function load(): string {
  return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Reads `GET /api/jobs/:id/events` until its `done` event, as the screens follow a job (a poll
 * would add up to its interval to a wall time); answers the job it carries.
 */
export async function followJob(
  origin: string,
  token: string,
  jobId: string,
  onProgress: (progress: { phase: string; done: number }) => void = () => {},
  // biome-ignore lint/suspicious/noExplicitAny: a job as the API answers it, read by benchmarks only
): Promise<any> {
  const response = await fetch(`${origin}/api/jobs/${jobId}/events`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  if (!response.ok || !response.body) throw new Error(`job events: ${response.status}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  let phase = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`job ${jobId}: the event stream ended before the job did`);
      buffered += value;
      let end = buffered.indexOf("\n\n");
      while (end >= 0) {
        const event = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const name = event.match(/^event: (.*)$/m)?.[1];
        const data = event.match(/^data: (.*)$/m)?.[1];
        if (data) {
          const job = JSON.parse(data);
          if (name === "done") return job;
          if (job.progress.phase !== phase) {
            phase = job.progress.phase;
            onProgress(job.progress);
          }
        }
        end = buffered.indexOf("\n\n");
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
