import { describe, expect, it } from "vitest";
import { shopifyPerTest } from "../../testing/shopify-harness.ts";
import { validateShopifyOperation } from "./index.ts";

const start = shopifyPerTest();

const SHOP = "{ shop { name } }";

describe("API version fall-forward", () => {
  it("serves an expired version as the oldest supported one and names it in X-Shopify-API-Version", async () => {
    const { post } = await start({ start: new Date("2026-11-20T12:00:00Z") });
    for (const requested of ["2024-07", "2025-01", "2025-04"]) {
      const response = await post({ query: SHOP, version: requested });
      expect(response.status).toBe(200);
      expect(response.headers.get("X-Shopify-API-Version")).toBe("2026-01");
    }
    const current = await post({ query: SHOP, version: "2026-07" });
    expect(current.headers.get("X-Shopify-API-Version")).toBe("2026-07");
  });

  it("serves a version as itself while it is supported at the configured release date", async () => {
    const { post, shopify } = await start({ releaseDate: new Date("2025-03-01T00:00:00Z") });
    const response = await post({ query: SHOP, version: "2025-01" });
    expect(response.headers.get("X-Shopify-API-Version")).toBe("2025-01");
    shopify.configure({ releaseDate: "2025-08-01T00:00:00Z" });
    const later = await post({ query: SHOP, version: "2024-07" });
    expect(later.headers.get("X-Shopify-API-Version")).toBe("2024-10");
  });

  it("answers a field the served version lacks with HTTP 200 and errors[]", async () => {
    const { post } = await start({ releaseDate: new Date("2024-08-15T00:00:00Z") });
    const response = await post({ query: "{ productVariantsCount { count } }", version: "2024-07" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      errors: [
        {
          message: "Field 'productVariantsCount' doesn't exist on type 'QueryRoot'",
          locations: [{ line: 1, column: 3 }],
          extensions: { code: "undefinedField", typeName: "QueryRoot", fieldName: "productVariantsCount" },
        },
      ],
    });
    const newer = await post({ query: "{ productVariantsCount { count } }", version: "2024-10" });
    expect(newer.headers.get("X-Shopify-API-Version")).toBe("2024-10");
    expect((await newer.json()).data.productVariantsCount.count).toBeGreaterThan(0);
  });

  it("serves each version with Shopify's own schema of that version", async () => {
    const { post } = await start({ releaseDate: new Date("2026-11-20T12:00:00Z") });
    const introspect = `{ __type(name: "InventoryQuantityInput") { inputFields(includeDeprecated: true) { name isDeprecated } } }`;
    const fieldsOf = async (version: string) => {
      const response = await post({ query: introspect, version });
      const body = (await response.json()) as {
        data: { __type: { inputFields: { name: string; isDeprecated: boolean }[] } };
      };
      return [response.headers.get("X-Shopify-API-Version"), body.data.__type.inputFields];
    };
    const field = (name: string, isDeprecated = false) => expect.objectContaining({ name, isDeprecated });
    // 2026-01 deprecates compareQuantity beside the new changeFromQuantity; 2026-04 drops it.
    expect(await fieldsOf("2026-01")).toEqual([
      "2026-01",
      expect.arrayContaining([field("changeFromQuantity"), field("compareQuantity", true)]),
    ]);
    for (const version of ["2026-04", "2026-07", "2026-10"]) {
      const [served, fields] = await fieldsOf(version);
      expect(served).toBe(version);
      expect(fields).toContainEqual(field("changeFromQuantity"));
      expect(fields).not.toContainEqual(field("compareQuantity", true));
      expect(fields).not.toContainEqual(field("compareQuantity"));
    }
  });

  it("serves 2025-10 with its schema: compareQuantity deprecated, changeFromQuantity not there yet", async () => {
    const { post } = await start({ releaseDate: new Date("2025-11-20T12:00:00Z") });
    const response = await post({
      query: `{ __type(name: "InventoryQuantityInput") { inputFields(includeDeprecated: true) { name isDeprecated } } }`,
      version: "2025-10",
    });
    expect(response.headers.get("X-Shopify-API-Version")).toBe("2025-10");
    const names = (await response.json()).data.__type.inputFields.map(
      (field: { name: string; isDeprecated: boolean }) =>
        `${field.name}${field.isDeprecated ? " (deprecated)" : ""}`,
    );
    expect(names.sort()).toEqual([
      "compareQuantity (deprecated)",
      "inventoryItemId",
      "locationId",
      "quantity",
    ]);
  });

  it("answers 404 for a version string Shopify has never released", async () => {
    const { post } = await start();
    expect((await post({ query: SHOP, version: "2024-13" })).status).toBe(404);
    expect((await post({ query: SHOP, version: "2031-01" })).status).toBe(404);
  });
});

describe("deprecation notices", () => {
  const REASON = "X-Shopify-API-Deprecated-Reason";

  it("names, from 2025-04 on, what a call uses that the served version's schema deprecates", async () => {
    const { post } = await start();
    const plain = await post({ query: "{ shop { name } }", version: "2026-01" });
    expect(plain.headers.get(REASON)).toBeNull();

    const bulk = await post({ query: "{ currentBulkOperation(type: QUERY) { id } }", version: "2026-01" });
    expect(bulk.status).toBe(200);
    expect(bulk.headers.get(REASON)).toBe("QueryRoot.currentBulkOperation");

    // Deprecated input fields count in variables too (compareQuantity beside changeFromQuantity in 2026-01).
    const write = await post({
      query: `mutation($input: InventorySetQuantitiesInput!) { inventorySetQuantities(input: $input) { userErrors { code } } }`,
      variables: {
        input: {
          name: "available",
          reason: "correction",
          ignoreCompareQuantity: true,
          quantities: [
            {
              inventoryItemId: "gid://shopify/InventoryItem/0",
              locationId: "gid://shopify/Location/0",
              quantity: 1,
            },
          ],
        },
      },
      version: "2026-01",
    });
    expect(write.headers.get(REASON)).toBe("InventorySetQuantitiesInput.ignoreCompareQuantity");
  });

  it("sends the generic deprecation link before 2025-04", async () => {
    const { post } = await start({ releaseDate: new Date("2024-08-15T00:00:00Z") });
    const response = await post({ query: "{ location { id isPrimary } }", version: "2024-07" });
    expect(response.headers.get(REASON)).toBe(
      "https://shopify.dev/api/usage/versioning#deprecation-practices",
    );
    const plain = await post({ query: "{ location { id } }", version: "2024-07" });
    expect(plain.headers.get(REASON)).toBeNull();
  });
});

describe("authentication and stores", () => {
  it("answers a bad token with 401 and Shopify's string body", async () => {
    const { post, client } = await start();
    const response = await post({ query: SHOP, token: "shpat_wrong" });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      errors: "[API] Invalid API key or access token (unrecognized login or wrong password)",
    });
    const { errors } = await client({ accessToken: "shpat_wrong" }).request(SHOP);
    expect(errors?.networkStatusCode).toBe(401);
  });

  it("answers an unknown store with 404 Not Found", async () => {
    const { post, client } = await start();
    const response = await post({ query: SHOP, store: "someone-else" });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ errors: "Not Found" });
    const { errors } = await client({ store: "someone-else" }).request(SHOP);
    expect(errors?.networkStatusCode).toBe(404);
  });

  it("answers a body without a query with 400", async () => {
    const { origin } = await start();
    const response = await fetch(`${origin}/shopify/stockbridge-demo/admin/api/2026-01/graphql.json`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-Shopify-Access-Token": "shpat_sandbox_demo_0123456789abcdef",
      },
      body: "{}",
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ errors: { query: "Required parameter missing or invalid" } });
  });
});

describe("validateShopifyOperation", () => {
  it("returns nothing for an operation valid in that version", () => {
    expect(validateShopifyOperation("2024-10", "{ productVariantsCount { count } }")).toEqual([]);
  });

  it("names what the version does not accept", () => {
    expect(validateShopifyOperation("2024-07", "{ productVariantsCount { count } }")).toEqual([
      "Field 'productVariantsCount' doesn't exist on type 'QueryRoot'",
    ]);
    const setWithCompare = `mutation { inventorySetQuantities(input: { name: "available", reason: "correction",
      quantities: [{ inventoryItemId: "gid://shopify/InventoryItem/1", locationId: "gid://shopify/Location/1", quantity: 1, compareQuantity: 0 }] }) { userErrors { code } } }`;
    expect(validateShopifyOperation("2026-01", setWithCompare)).toEqual([]);
    expect(validateShopifyOperation("2026-04", setWithCompare)).toEqual([
      "InputObject 'InventoryQuantityInput' doesn't accept argument 'compareQuantity'",
    ]);
    expect(validateShopifyOperation("2025-13", SHOP)).toEqual([
      'Unknown Shopify Admin API version "2025-13".',
    ]);
  });
});
