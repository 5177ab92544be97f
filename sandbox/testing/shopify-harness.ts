import { type AdminApiClient, createAdminApiClient } from "@shopify/admin-api-client";
import { SANDBOX_DEMO } from "@stockbridge/shared/sandbox-demo";
import type { SandboxClock } from "../src/clock.ts";
import { type DemoCatalog, generateCatalog } from "../src/seed/catalog.ts";
import { startSandbox } from "../src/serve-node.ts";
import type { Simulator } from "../src/simulator.ts";
import { cleanupAfterEach } from "./per-test.ts";

export const STORE = SANDBOX_DEMO.shopify.storeName;
export const TOKEN = SANDBOX_DEMO.shopify.accessToken;

export interface ShopifyHarness {
  origin: string;
  clock: SandboxClock;
  shopify: Simulator;
  catalog: DemoCatalog;
  /** The official client, pointed at the sandbox through `customFetchApi` (it forces https otherwise). */
  client(options?: {
    apiVersion?: string;
    accessToken?: string;
    store?: string;
    retries?: number;
  }): AdminApiClient;
  /** A raw call, for status codes and headers the client hides. */
  post(options: {
    query: string;
    variables?: unknown;
    version?: string;
    token?: string;
    store?: string;
  }): Promise<Response>;
  advanceSeconds(seconds: number): void;
  close(): Promise<void>;
}

/**
 * Starts the whole sandbox over real HTTP with a stopped clock at 2026-11-20 unless told otherwise
 * (so 2024-07 … 2025-10 fall forward to 2026-01) and a small catalog.
 */
export async function startShopify(
  options: { size?: number; seed?: number; releaseDate?: Date; start?: Date } = {},
): Promise<ShopifyHarness> {
  const clock = stoppedClock(options.start ?? new Date("2026-11-20T12:00:00Z"));
  const running = await startSandbox({
    clock,
    seed: options.seed ?? 42,
    size: options.size ?? 60,
    shopifyReleaseDate: options.releaseDate,
  });
  const origin = running.origin;
  // The same deterministic catalog the sandbox seeded itself with.
  const catalog = generateCatalog({ seed: options.seed ?? 42, size: options.size ?? 60 });
  const rewrite = (url: string) => url.replace(/^https:\/\/([^./]+)\.myshopify\.com/, `${origin}/shopify/$1`);
  return {
    origin,
    clock,
    shopify: running.sandbox.systems.shopify,
    catalog,
    client: (clientOptions = {}) =>
      createAdminApiClient({
        storeDomain: `${clientOptions.store ?? STORE}.myshopify.com`,
        apiVersion: clientOptions.apiVersion ?? "2026-01",
        accessToken: clientOptions.accessToken ?? TOKEN,
        retries: clientOptions.retries ?? 0,
        customFetchApi: (url, init) => fetch(rewrite(url), init),
        logger: () => {},
      }),
    post: ({ query, variables, version = "2026-01", token = TOKEN, store = STORE }) =>
      fetch(`${origin}/shopify/${store}/admin/api/${version}/graphql.json`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Shopify-Access-Token": token },
        body: JSON.stringify({ query, variables }),
      }),
    advanceSeconds: (seconds) => clock.advance(seconds * 1000),
    close: running.close,
  };
}

/** For a test file: answers `start()`, a sandbox (see startShopify) closed after the test that started it. */
export function shopifyPerTest(): (options?: Parameters<typeof startShopify>[0]) => Promise<ShopifyHarness> {
  const onCleanup = cleanupAfterEach();
  return async (options) => {
    const harness = await startShopify(options);
    onCleanup(harness.close);
    return harness;
  };
}

/**
 * A clock that moves only when told: bucket refills and bulk completions then follow the test's
 * `advanceSeconds`, never the machine's speed.
 */
function stoppedClock(start: Date): SandboxClock {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance(milliseconds) {
      now += milliseconds;
    },
    set(date) {
      now = date.getTime();
    },
  };
}

/** Every seeded variant, flattened with its product (tests pick their own cases from it). */
export function seededVariants(catalog: DemoCatalog) {
  return catalog.shopify.products.flatMap((product) =>
    product.variants.map((variant) => ({ product, variant })),
  );
}

export function variantGid(id: number) {
  return `gid://shopify/ProductVariant/${id}`;
}

export function itemGid(id: number) {
  return `gid://shopify/InventoryItem/${id}`;
}

export function locationGid(id: number) {
  return `gid://shopify/Location/${id}`;
}

export function productGid(id: number) {
  return `gid://shopify/Product/${id}`;
}
