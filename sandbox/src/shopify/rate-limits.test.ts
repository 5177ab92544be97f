import { describe, expect, it } from "vitest";
import { shopifyPerTest } from "../../testing/shopify-harness.ts";

const start = shopifyPerTest();

interface Cost {
  requestedQueryCost: number;
  actualQueryCost: number | null;
  throttleStatus: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
}

async function costOf(response: Response): Promise<Cost> {
  const body = (await response.json()) as { extensions: { cost: Cost } };
  return body.extensions.cost;
}

/** 2 + 250 x (variant 1 + product 1 + inventoryItem 1) = 752 requested points. */
const HEAVY = "{ productVariants(first: 250) { nodes { id product { id } inventoryItem { id } } } }";

describe("calculated query cost", () => {
  it("reports requested and actual cost and the standard bucket on every answer", async () => {
    const { post } = await start();
    const cost = await costOf(await post({ query: "{ shop { name } }" }));
    expect(cost).toEqual({
      requestedQueryCost: 1,
      actualQueryCost: 1,
      throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 1999, restoreRate: 100 },
    });
  });

  it("sizes connections by first and refunds down to what was returned", async () => {
    const { post } = await start();
    const response = await post({
      query: `{ productVariants(first: 50, query: "sku:SKU-00001-S") { edges { cursor node { id inventoryItem { id } } } pageInfo { hasNextPage } } }`,
    });
    const cost = await costOf(response);
    expect(cost.requestedQueryCost).toBe(2 + 50 * 2);
    expect(cost.actualQueryCost).toBe(2 + 1 * 2);
    expect(cost.throttleStatus.currentlyAvailable).toBe(2000 - 4);
  });

  it("charges 10 points for a mutation", async () => {
    const { post } = await start();
    const cost = await costOf(
      await post({
        query: `mutation { stagedUploadsCreate(input: [{ resource: BULK_MUTATION_VARIABLES, filename: "v.jsonl", mimeType: "text/jsonl", httpMethod: POST }]) { userErrors { message } } }`,
      }),
    );
    expect(cost).toMatchObject({ requestedQueryCost: 10, actualQueryCost: 10 });
  });

  it("refuses a query over 1000 points with MAX_COST_EXCEEDED and debits nothing", async () => {
    const { post, shopify } = await start();
    const response = await post({
      query:
        "{ productVariants(first: 250) { nodes { id inventoryItem { inventoryLevels(first: 10) { nodes { id } } } } } }",
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      errors: { message: string; extensions: Record<string, unknown> }[];
    };
    expect(body.errors[0]!.message).toMatch(
      /^Query cost is 3502, which exceeds the single query max cost limit \(1000\)\./,
    );
    expect(body.errors[0]!.extensions).toEqual({
      code: "MAX_COST_EXCEEDED",
      cost: 3502,
      maxCost: 1000,
      documentation: "https://shopify.dev/api/usage/rate-limits",
    });
    expect(shopify.state()).toMatchObject({ currentlyAvailable: 2000, maxCostExceeded: 1 });
  });

  it("charges a costlier store's multiplier on requested and actual cost, up to MAX_COST_EXCEEDED", async () => {
    const { post, shopify } = await start();
    shopify.configure({ costMultiplier: 1.5 });

    const cost = await costOf(
      await post({ query: "{ productVariants(first: 100) { nodes { id product { id } } } }" }),
    );
    const refused = (await (await post({ query: HEAVY })).json()) as {
      errors: { extensions: Record<string, unknown> }[];
    };

    expect(cost.requestedQueryCost).toBe(Math.ceil((2 + 100 * 2) * 1.5));
    expect(await costOf(await post({ query: "{ shop { name } }" }))).toMatchObject({
      requestedQueryCost: 2,
      actualQueryCost: 2,
    });
    expect(refused.errors[0]!.extensions).toMatchObject({
      code: "MAX_COST_EXCEEDED",
      cost: 1128,
      maxCost: 1000,
    });
  });
});

describe("leaky bucket", () => {
  it("answers THROTTLED with HTTP 200 once the bucket is short, then succeeds after it refills", async () => {
    const { post, shopify, advanceSeconds } = await start({ size: 300 });
    shopify.configure({ throttleProfile: "legacy" });

    const first = await post({ query: HEAVY });
    expect((await costOf(first)).throttleStatus).toEqual({
      maximumAvailable: 1000,
      currentlyAvailable: 248,
      restoreRate: 50,
    });

    const throttled = await post({ query: HEAVY });
    expect(throttled.status).toBe(200);
    expect(await throttled.json()).toEqual({
      errors: [
        {
          message: "Throttled",
          extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" },
        },
      ],
      extensions: {
        cost: {
          requestedQueryCost: 752,
          actualQueryCost: null,
          throttleStatus: { maximumAvailable: 1000, currentlyAvailable: 248, restoreRate: 50 },
        },
      },
    });

    advanceSeconds(Math.ceil((752 - 248) / 50));
    const retried = await post({ query: HEAVY });
    expect((await retried.json()).data.productVariants.nodes).toHaveLength(250);
    expect(shopify.state()).toMatchObject({ throttled: 1, currentlyAvailable: 248 + 11 * 50 - 752 });
  });

  it("surfaces THROTTLED to the official client as graphQLErrors, without retrying", async () => {
    const { client, shopify } = await start({ size: 300 });
    shopify.configure({ throttleProfile: "legacy" });
    const shopifyClient = client({ retries: 2 });
    await shopifyClient.request(HEAVY);
    const { errors, data } = await shopifyClient.request(HEAVY);
    expect(data).toBeUndefined();
    expect(errors?.graphQLErrors?.[0]?.extensions?.code).toBe("THROTTLED");
    expect(shopify.state()).toMatchObject({ calls: 2, throttled: 1 });
  });

  it("can answer THROTTLED with 429 and a Retry-After for clients that only read the status", async () => {
    const { post, shopify } = await start({ size: 300 });
    shopify.configure({ throttleProfile: "legacy", throttleStatusCode: 429 });
    await post({ query: HEAVY });
    const throttled = await post({ query: HEAVY });
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get("Retry-After")).toBe("11.0");
    expect((await throttled.json()).errors[0].extensions.code).toBe("THROTTLED");
  });

  it("gives Shopify Plus its larger bucket and faster restore", async () => {
    const { post, shopify } = await start();
    shopify.configure({ throttleProfile: "plus" });
    const body = (await (await post({ query: "{ shop { plan { displayName shopifyPlus } } }" })).json()) as {
      data: unknown;
      extensions: { cost: Cost };
    };
    expect(body.data).toEqual({ shop: { plan: { displayName: "Shopify Plus", shopifyPlus: true } } });
    expect(body.extensions.cost.throttleStatus).toMatchObject({ maximumAvailable: 20000, restoreRate: 1000 });
  });
});

describe("faults and settings", () => {
  it("answers injected errors with a transient 5xx and timeouts with 504", async () => {
    const { post, shopify } = await start();
    shopify.configure({ errorRate: 1 });
    // Which of the two the edge sends is random; each must come in its own shape.
    const transient = await post({ query: "{ shop { name } }" });
    expect([
      { status: 503, retryAfter: "1", json: true },
      { status: 502, retryAfter: null, json: false },
    ]).toContainEqual({
      status: transient.status,
      retryAfter: transient.headers.get("Retry-After"),
      json: transient.headers.get("content-type")?.includes("application/json") ?? false,
    });
    shopify.configure({ errorRate: 0, timeoutRate: 1, timeoutMs: 5 });
    expect((await post({ query: "{ shop { name } }" })).status).toBe(504);
    shopify.configure({ timeoutRate: 0 });
    expect((await post({ query: "{ shop { name } }" })).status).toBe(200);
    expect(shopify.state()).toMatchObject({ errorsInjected: 1, timeoutsInjected: 1 });
  });

  it("rejects a bad setting naming the field, and changes nothing", async () => {
    const { shopify } = await start();
    expect(() => shopify.configure({ throttleProfile: "gold" })).toThrow(/throttleProfile/);
    expect(() => shopify.configure({ errorRate: 0.5, throttleStatusCode: 418 })).toThrow(
      /throttleStatusCode/,
    );
    expect(() => shopify.configure({ releaseDate: "soon" })).toThrow(/releaseDate/);
    expect(() => shopify.configure({ burstSize: 3 })).toThrow(/burstSize/);
    expect(() => shopify.configure({ costMultiplier: 0.5 })).toThrow(
      /costMultiplier must be a number from 1 to 20/,
    );
    expect(shopify.state()).toMatchObject({ throttleProfile: "standard" });
  });

  it("is configured and read through the sandbox control API", async () => {
    const { origin, post } = await start();
    const put = (body: unknown) =>
      fetch(`${origin}/__control/faults`, { method: "PUT", body: JSON.stringify(body) });
    const refused = await put({ shopify: { errorRate: 2 } });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toMatch(/errorRate/);
    expect((await put({ shopify: { throttleProfile: "plus" } })).status).toBe(200);
    await post({ query: "{ shop { name } }" });
    const state = (await (await fetch(`${origin}/__control/state`)).json()) as {
      shopify: Record<string, unknown>;
    };
    expect(state.shopify).toMatchObject({ calls: 1, maximumAvailable: 20000, throttleProfile: "plus" });
  });

  it("counts calls, points, mutations and the versions served", async () => {
    const { post, shopify } = await start();
    await post({ query: "{ shop { name } }", version: "2025-04" });
    await post({ query: "{ shop { name } }", version: "2026-04" });
    expect(shopify.state()).toMatchObject({
      calls: 2,
      pointsSpent: 2,
      mutations: 0,
      servedVersions: { "2026-01": 1, "2026-04": 1 },
    });
  });
});
