import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningSandbox, startSandbox, validateShopifyOperation } from "@stockbridge/sandbox";
import { SANDBOX_DEMO } from "@stockbridge/shared";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../db/client.ts";
import { migrate } from "../db/migrate.ts";
import { AcumaticaError } from "./acumatica/failures.ts";
import { withAcumaticaSession } from "./acumatica/session.ts";
import { streamArrayItems } from "./json-array-stream.ts";
import {
  BULK_OPERATION_BY_ID_QUERY,
  CURRENT_BULK_OPERATION_QUERY,
  hasBulkOperationById,
} from "./shopify/bulk-operations.ts";
import { BULK_SLOT_LEASE_MS, createBulkSlots } from "./shopify/bulk-slots.ts";
import { RUN_BULK_QUERY, VARIANT_COUNT_QUERY, variantPageQuery } from "./shopify/catalog-queries.ts";
import { createShopifyClient, ShopifyError } from "./shopify/graphql-client.ts";
import { LOCATIONS_QUERY } from "./shopify/locations.ts";
import { readLines } from "./stream-text.ts";
import type { ConnectorClock, FetchLike } from "./transport.ts";

let running: RunningSandbox | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function sandbox() {
  running = await startSandbox({ size: 300 });
  const clock = running.sandbox.clock;
  const sandboxClock: ConnectorClock = {
    now: () => clock.now().getTime(),
    sleep: async (milliseconds) => {
      clock.advance(milliseconds);
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
  return {
    ...running,
    clock: sandboxClock,
    shopify: running.sandbox.systems.shopify,
    acumatica: running.sandbox.systems.acumatica,
  };
}

function shopifyClient(
  origin: string,
  clock: ConnectorClock,
  options: { fetch?: FetchLike; accessToken?: string } = {},
) {
  return createShopifyClient({
    storeName: SANDBOX_DEMO.shopify.storeName,
    accessToken: options.accessToken ?? SANDBOX_DEMO.shopify.accessToken,
    apiVersion: "2025-04",
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    originFor: (store) => `${origin}/shopify/${store}`,
    clock,
  });
}

const EXPENSIVE =
  "query Expensive { productVariants(first: 250) { nodes { id product { id } inventoryItem { id } } } }";

describe("createShopifyClient", () => {
  it("sends the token to the store's GraphQL endpoint and records the version Shopify served", async () => {
    const { origin, clock } = await sandbox();
    const client = shopifyClient(origin, clock);
    expect(client.endpoint).toBe(`${origin}/shopify/stockbridge-demo/admin/api/2025-04/graphql.json`);
    const data = await client.request<{ shop: { myshopifyDomain: string } }>("{ shop { myshopifyDomain } }");
    expect(data.shop.myshopifyDomain).toBe("stockbridge-demo.myshopify.com");
    expect(client.servedVersion).toBe("2026-01");
    expect(client.stats).toMatchObject({ calls: 1, throttled: 0 });
    expect(client.throttleStatus()).toMatchObject({ maximumAvailable: 2000, restoreRate: 100 });
  });

  it("paces a call that would not fit the bucket instead of spending a THROTTLED round trip", async () => {
    const { origin, clock, shopify } = await sandbox();
    shopify.configure({ throttleProfile: "legacy" });
    const client = shopifyClient(origin, clock);
    for (let call = 0; call < 4; call += 1) await client.request(EXPENSIVE);
    expect(shopify.state().throttled).toBe(0);
    expect(client.stats.waitedMs).toBeGreaterThan(10_000);
  });

  it.each([200, 429] as const)(
    "absorbs THROTTLED answers sent with HTTP %i when another app drained the bucket",
    async (status) => {
      const { origin, clock, shopify } = await sandbox();
      shopify.configure({ throttleProfile: "legacy", throttleStatusCode: status });
      const ours = shopifyClient(origin, clock);
      const other = shopifyClient(origin, clock);
      await ours.request(EXPENSIVE);
      await clock.sleep(20_000); // our picture: the bucket is full again
      await other.request(EXPENSIVE); // ...but another app on the same store spends it
      const answer = await ours.request<{ productVariants: { nodes: unknown[] } }>(EXPENSIVE);
      expect(answer.productVariants.nodes).toHaveLength(250);
      expect(ours.stats.throttled).toBe(1);
      expect(shopify.state().throttled).toBe(1);
    },
  );

  it("retries 5xx answers with back-off, then gives up with a clear reason", async () => {
    const { origin, clock, shopify } = await sandbox();
    let calls = 0;
    const flaky: FetchLike = async (input, init) => {
      calls += 1;
      shopify.configure({ errorRate: calls <= 2 ? 1 : 0 });
      return fetch(input, init);
    };
    const client = shopifyClient(origin, clock, { fetch: flaky });
    await client.request("{ shop { id } }");
    expect(client.stats.retries).toBe(2);

    shopify.configure({ errorRate: 1 });
    const down = shopifyClient(origin, clock);
    const error = await down.request("{ shop { id } }").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ShopifyError);
    expect((error as ShopifyError).message).toMatch(
      /^Shopify is unavailable \(HTTP 50[23] after 5 attempts\)$/,
    );
  });

  it("maps a refused token to kind unauthorized", async () => {
    const { origin, clock } = await sandbox();
    const error = await shopifyClient(origin, clock, { accessToken: "shpat_nope" })
      .request("{ shop { id } }")
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: "unauthorized", code: "UPSTREAM_FAILED", system: "Shopify" });
  });

  it("says when the network fails", async () => {
    const { clock } = await sandbox();
    const error = await shopifyClient("http://127.0.0.1:9", clock)
      .request("{ shop { id } }")
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: "unreachable" });
    expect((error as Error).message).toMatch(/^Shopify could not be reached \(/);
  });
});

describe("the catalog queries", () => {
  it.each(["2024-07", "2024-10", "2025-01", "2026-01", "2026-04"])(
    "are valid on Admin %s (the count from 2024-10 on)",
    (version) => {
      for (const query of [
        LOCATIONS_QUERY,
        variantPageQuery(2),
        variantPageQuery(0),
        RUN_BULK_QUERY,
        CURRENT_BULK_OPERATION_QUERY,
      ]) {
        expect(validateShopifyOperation(version, query)).toEqual([]);
      }
      // A bulk operation is followed by its id only where the served version has the field.
      expect(validateShopifyOperation(version, BULK_OPERATION_BY_ID_QUERY).length === 0).toBe(
        hasBulkOperationById(version),
      );
      expect(validateShopifyOperation(version, VARIANT_COUNT_QUERY)).toEqual(
        version === "2024-07" ? ["Field 'productVariantsCount' doesn't exist on type 'QueryRoot'"] : [],
      );
    },
  );
});

describe("Shopify bulk operation slots", () => {
  /** Two instances of the app: two connections to one database file. */
  async function twoInstances() {
    const dir = mkdtempSync(join(tmpdir(), "stockbridge-bulk-slots-"));
    const url = `file:${join(dir, "app.db")}`;
    const first = openDatabase(url);
    await migrate(first);
    const second = openDatabase(url);
    let now = Date.parse("2026-11-21T10:00:00Z");
    const clock = {
      now: () => new Date(now),
      advance: (ms: number) => {
        now += ms;
      },
    };
    const cleanup = () => {
      first.close();
      second.close();
      rmSync(dir, { recursive: true, force: true });
    };
    return { a: createBulkSlots(first, clock.now), b: createBulkSlots(second, clock.now), clock, cleanup };
  }

  it("grants no more slots per store than the limit when instances claim at once, and counts stores apart", async () => {
    const { a, b, cleanup } = await twoInstances();
    try {
      const claims = await Promise.all(
        Array.from({ length: 8 }, (_, index) => (index % 2 === 0 ? a : b).forStore("acme").claim("QUERY", 5)),
      );
      expect(claims.filter((slot) => slot !== null)).toHaveLength(5);
      expect(await a.forStore("ACME").claim("QUERY", 5)).toBeNull();
      expect(await b.forStore("acme").claim("MUTATION", 5)).not.toBeNull();
      expect(await b.forStore("other-store").claim("QUERY", 1)).not.toBeNull();
    } finally {
      cleanup();
    }
  });

  it("frees a slot on release, and one whose holder stopped renewing after the lease", async () => {
    const { a, b, clock, cleanup } = await twoInstances();
    try {
      const held = await a.forStore("acme").claim("QUERY", 1);
      expect(await b.forStore("acme").claim("QUERY", 1)).toBeNull();
      await held!.release();
      const renewed = await b.forStore("acme").claim("QUERY", 1);
      clock.advance(BULK_SLOT_LEASE_MS - 1);
      await renewed!.renew();
      clock.advance(BULK_SLOT_LEASE_MS - 1);
      expect(await a.forStore("acme").claim("QUERY", 1)).toBeNull();
      clock.advance(2);
      expect(await a.forStore("acme").claim("QUERY", 1)).not.toBeNull();
    } finally {
      cleanup();
    }
  });
});

describe("withAcumaticaSession", () => {
  const connection = (origin: string, overrides: Record<string, string> = {}) => ({
    instanceUri: `${origin}/acumatica`,
    endpointName: "Default",
    apiVersion: "23.200.001",
    username: SANDBOX_DEMO.acumatica.username,
    password: SANDBOX_DEMO.acumatica.password,
    company: SANDBOX_DEMO.acumatica.company,
    ...overrides,
  });
  const plainFetch: FetchLike = (input, init) => fetch(input, init);

  it("logs out even when the work throws", async () => {
    const { origin, clock, acumatica } = await sandbox();
    const error = await withAcumaticaSession(
      connection(origin),
      async (api) => {
        await api.get("StockItem", { $top: 1 });
        throw new Error("boom");
      },
      { fetch: plainFetch, clock },
    ).catch((caught: unknown) => caught);
    expect((error as Error).message).toBe("boom");
    expect(acumatica.state()).toMatchObject({ logins: 1, logouts: 1, loginsOpen: 0 });
  });

  it("keeps its requests in flight within the configured limit", async () => {
    const { origin, clock, acumatica } = await sandbox();
    acumatica.configure({ latencyMs: 20 });
    await withAcumaticaSession(
      connection(origin),
      (api) =>
        Promise.all(
          Array.from({ length: 8 }, (_, page) =>
            api.get("StockItem", { $top: 5, $skip: page * 5, $select: "InventoryID" }),
          ),
        ),
      { fetch: plainFetch, clock, maxConcurrent: 2 },
    );
    expect(acumatica.state().runningPeak).toBe(2);
  });

  it("retries declined and failed requests, then logs out", async () => {
    const { origin, clock, acumatica } = await sandbox();
    let calls = 0;
    const flaky: FetchLike = async (input, init) => {
      calls += 1;
      if (String(input).includes("/StockItem") && calls < 6) {
        return new Response(
          JSON.stringify({
            message:
              "The request has been declined by the license limits: more than 20 requests are waiting in the queue.",
          }),
          { status: 429 },
        );
      }
      return fetch(input, init);
    };
    const items = await withAcumaticaSession(
      connection(origin),
      (api) => api.get<unknown[]>("StockItem", { $top: 3 }),
      { fetch: flaky, clock },
    );
    expect(items).toHaveLength(3);
    expect(acumatica.state()).toMatchObject({ loginsOpen: 0, logouts: 1 });
  });

  it("logs in again when the session expired in the middle of the work", async () => {
    const { origin, clock, acumatica } = await sandbox();
    await withAcumaticaSession(
      connection(origin),
      async (api) => {
        await api.get("StockItem", { $top: 1 });
        await clock.sleep(11 * 60_000); // idle past the 10-minute timeout
        await api.get("StockItem", { $top: 1 });
      },
      { fetch: plainFetch, clock },
    );
    expect(acumatica.state()).toMatchObject({ logins: 2, logouts: 1, sessionsExpired: 1, loginsOpen: 0 });
  });

  it("names a failed login and holds no seat afterwards", async () => {
    const { origin, clock, acumatica } = await sandbox();
    const error = await withAcumaticaSession(connection(origin, { password: "nope" }), async () => 1, {
      fetch: plainFetch,
      clock,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AcumaticaError);
    expect(error).toMatchObject({ kind: "invalid-credentials", message: "invalid credentials" });
    expect(acumatica.state()).toMatchObject({ loginFailures: 1, loginsOpen: 0 });
  });
});

describe("streamed bodies", () => {
  const chunked = (text: string, size: number) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        const bytes = new TextEncoder().encode(text);
        for (let at = 0; at < bytes.length; at += size) controller.enqueue(bytes.slice(at, at + size));
        controller.close();
      },
    });
  const rows = [
    { InventoryID: { value: 'A"}{[' }, QtyOnHand: { value: 1.5 } },
    { InventoryID: { value: "\\B]" }, nested: [{ x: "}" }] },
    { InventoryID: { value: "Ünïcode ✓" } },
  ];
  const body = JSON.stringify({
    id: "x",
    StorageDetails: rows,
    WarehouseID: { value: "StorageDetails" },
    custom: {},
  });

  it.each([1, 3, 64, 100_000])(
    "reads the objects of one array property in chunks of %i bytes",
    async (size) => {
      const items: unknown[] = [];
      for await (const item of streamArrayItems(chunked(body, size), "StorageDetails")) items.push(item);
      expect(items).toEqual(rows);
    },
  );

  it.each([1, 5, 100_000])(
    "reads the objects of an answer that is itself a list in chunks of %i bytes",
    async (size) => {
      const items: unknown[] = [];
      for await (const item of streamArrayItems(chunked(` \n${JSON.stringify(rows)}`, size), null))
        items.push(item);
      expect(items).toEqual(rows);
      const none: unknown[] = [];
      for await (const item of streamArrayItems(chunked("[]", size), null)) none.push(item);
      expect(none).toEqual([]);
    },
  );

  it("refuses an answer that is not a list when the answer itself is read as one", async () => {
    const read = async (text: string) => {
      for await (const _ of streamArrayItems(chunked(text, 3), null)) {
        // consume
      }
    };
    await expect(read(body)).rejects.toBeInstanceOf(SyntaxError);
    await expect(read("")).rejects.toBeInstanceOf(SyntaxError);
    await expect(read(JSON.stringify(rows).slice(0, 40))).rejects.toBeInstanceOf(TypeError);
  });

  it("says so when the answer is cut off inside the list", async () => {
    const read = async () => {
      for await (const _ of streamArrayItems(chunked(body.slice(0, 60), 7), "StorageDetails")) {
        // consume
      }
    };
    await expect(read()).rejects.toBeInstanceOf(TypeError);
  });

  it("reads JSON lines across chunk boundaries", async () => {
    const lines: string[] = [];
    for await (const line of readLines(chunked('{"a":1}\n{"b":"x\\ny"}\r\n\n{"c":3}', 4))) lines.push(line);
    expect(lines.map((line) => JSON.parse(line))).toEqual([{ a: 1 }, { b: "x\ny" }, { c: 3 }]);
  });
});
