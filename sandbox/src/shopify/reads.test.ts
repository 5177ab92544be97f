import { describe, expect, it } from "vitest";
import { seededVariants, shopifyPerTest, variantGid } from "../../testing/shopify-harness.ts";

const start = shopifyPerTest();

interface VariantPage {
  productVariants: {
    pageInfo: {
      hasNextPage: boolean;
      hasPreviousPage: boolean;
      endCursor: string | null;
      startCursor: string | null;
    };
    nodes: { id: string; sku: string | null }[];
  };
}

const PAGE = `query Page($first: Int, $after: String, $last: Int, $before: String, $query: String) {
  productVariants(first: $first, after: $after, last: $last, before: $before, query: $query) {
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    nodes { id sku }
  }
}`;

describe("productVariants", () => {
  it("pages through every variant in id order with first/after", async () => {
    const { client, catalog } = await start({ size: 60 });
    const shopify = client();
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const response: { data?: VariantPage; errors?: unknown } = await shopify.request<VariantPage>(PAGE, {
        variables: { first: 25, after },
      });
      expect(response.errors).toBeUndefined();
      const page = response.data!.productVariants;
      seen.push(...page.nodes.map((node) => node.id));
      pages += 1;
      expect(page.pageInfo.hasPreviousPage).toBe(after !== null);
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    const expected = seededVariants(catalog)
      .map(({ variant }) => variant.id)
      .sort((a, b) => a - b)
      .map(variantGid);
    expect(seen).toEqual(expected);
    expect(pages).toBe(Math.ceil(expected.length / 25));
  });

  it("pages backwards with last/before", async () => {
    const { client } = await start();
    const shopify = client();
    const { data: tail } = await shopify.request<VariantPage>(PAGE, { variables: { last: 3 } });
    const { data: before } = await shopify.request<VariantPage>(PAGE, {
      variables: { last: 2, before: tail!.productVariants.pageInfo.startCursor },
    });
    const { data: head } = await shopify.request<VariantPage>(PAGE, { variables: { first: 200 } });
    const all = head!.productVariants.nodes.map((node) => node.id);
    expect(tail!.productVariants.nodes.map((node) => node.id)).toEqual(all.slice(-3));
    expect(before!.productVariants.nodes.map((node) => node.id)).toEqual(all.slice(-5, -3));
    expect(before!.productVariants.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
  });

  it("filters by sku case-insensitively, with a trailing wildcard and OR", async () => {
    const { client, catalog } = await start();
    const withSku = seededVariants(catalog).filter(({ variant }) => variant.sku?.startsWith("SKU-"));
    const target = withSku[0]!.variant;
    const shopify = client();

    const exact = await shopify.request<VariantPage>(PAGE, {
      variables: { first: 10, query: `sku:${target.sku!.toLowerCase()}` },
    });
    expect(exact.data!.productVariants.nodes).toEqual([{ id: variantGid(target.id), sku: target.sku }]);

    const prefix = target.sku!.slice(0, "SKU-00001".length);
    const wildcard = await shopify.request<VariantPage>(PAGE, {
      variables: { first: 10, query: `sku:${prefix}*` },
    });
    const expected = withSku
      .filter(({ variant }) => variant.sku!.startsWith(prefix))
      .map(({ variant }) => variant.sku);
    expect(wildcard.data!.productVariants.nodes.map((node) => node.sku)).toEqual(expected);

    const other = withSku.at(-1)!.variant;
    const either = await shopify.request<VariantPage>(PAGE, {
      variables: { first: 10, query: `sku:${target.sku} OR sku:'${other.sku}'` },
    });
    expect(either.data!.productVariants.nodes.map((node) => node.sku)).toEqual([target.sku, other.sku]);
  });

  it("finds both variants sharing a duplicated SKU", async () => {
    const { client } = await start();
    const { data } = await client().request<{
      productVariants: { nodes: { inventoryItem: { duplicateSkuCount: number } }[] };
    }>(
      `{ productVariants(first: 5, query: "sku:DUP-SHOP-1") { nodes { inventoryItem { duplicateSkuCount } } } }`,
    );
    expect(data!.productVariants.nodes).toEqual([
      { inventoryItem: { duplicateSkuCount: 1 } },
      { inventoryItem: { duplicateSkuCount: 1 } },
    ]);
  });

  it("returns only variants updated after an updated_at filter", async () => {
    const { client, catalog, clock, advanceSeconds } = await start();
    const { product, variant } = seededVariants(catalog)[3]!;
    const since = clock
      .now()
      .toISOString()
      .replace(/\.\d{3}Z$/, "Z");
    const shopify = client();
    const before = await shopify.request<VariantPage>(PAGE, {
      variables: { first: 50, query: `updated_at:>'${since}'` },
    });
    expect(before.data!.productVariants.nodes).toEqual([]);

    const update = await shopify.request(
      `mutation($productId: ID!, $variants: [ProductVariantsBulkInput!]!) {
        productVariantsBulkUpdate(productId: $productId, variants: $variants) { userErrors { code message } }
      }`,
      {
        variables: {
          productId: `gid://shopify/Product/${product.id}`,
          variants: [{ id: variantGid(variant.id), price: "1.00" }],
        },
      },
    );
    expect(update.errors).toBeUndefined();
    advanceSeconds(1);

    const after = await shopify.request<VariantPage>(PAGE, {
      variables: { first: 50, query: `updated_at:>=${since}` },
    });
    expect(after.data!.productVariants.nodes.map((node) => node.id)).toEqual([variantGid(variant.id)]);
  });

  it("asks for a page size when neither first nor last is given", async () => {
    const { client } = await start();
    const { errors } = await client().request(`{ productVariants { nodes { id } } }`);
    expect(errors?.graphQLErrors?.[0]?.message).toBe("you must provide one of first or last");
  });
});

describe("productVariantsCount", () => {
  it("counts every variant: its query has no supported search fields, as every Admin schema says", async () => {
    const { client, catalog } = await start();
    const { data } = await client().request<{ all: { count: number }; untracked: { count: number } }>(
      `{ all: productVariantsCount { count precision } untracked: productVariantsCount(query: "managed:false") { count } }`,
    );
    expect(data!.all).toEqual({ count: seededVariants(catalog).length, precision: "EXACT" });
    expect(data!.untracked.count).toBe(seededVariants(catalog).length);
  });
});

describe("inventory levels", () => {
  it("reports quantities by name, with on_hand = available + committed + unavailable", async () => {
    const { client, catalog } = await start();
    const { variant } = seededVariants(catalog).find(({ variant }) =>
      variant.levels.some((l) => l.unavailable > 0),
    )!;
    const level = variant.levels.find((candidate) => candidate.unavailable > 0)!;
    const { data } = await client().request<{
      inventoryItem: { inventoryLevel: { quantities: { name: string; quantity: number }[] } };
    }>(
      `query($item: ID!, $location: ID!) { inventoryItem(id: $item) { inventoryLevel(locationId: $location) {
        quantities(names: ["available", "committed", "reserved", "on_hand", "incoming"]) { name quantity } } } }`,
      {
        variables: {
          item: `gid://shopify/InventoryItem/${variant.inventoryItemId}`,
          location: `gid://shopify/Location/${level.locationId}`,
        },
      },
    );
    expect(data!.inventoryItem.inventoryLevel.quantities).toEqual([
      { name: "available", quantity: level.available },
      { name: "committed", quantity: level.committed },
      { name: "reserved", quantity: level.unavailable },
      { name: "on_hand", quantity: level.available + level.committed + level.unavailable },
      { name: "incoming", quantity: 0 },
    ]);
  });

  it("tells physical, untracked and service items apart and has no level where an item is not stocked", async () => {
    const { client, catalog } = await start({ size: 120 });
    const variants = seededVariants(catalog).map(({ variant }) => variant);
    const untracked = variants.find((variant) => !variant.tracked && variant.requiresShipping)!;
    const service = variants.find((variant) => !variant.requiresShipping)!;
    const notStocked = variants.find((variant) => variant.requiresShipping && variant.levels.length === 0)!;
    const location = catalog.shopify.locations[0]!.id;
    const { data } = await client().request<{ nodes: { inventoryItem: Record<string, unknown> }[] }>(
      `query($ids: [ID!]!, $location: ID!) { nodes(ids: $ids) { ... on ProductVariant {
        inventoryItem { tracked requiresShipping inventoryLevel(locationId: $location) { id } } } } }`,
      {
        variables: {
          ids: [untracked, service, notStocked].map((v) => variantGid(v.id)),
          location: `gid://shopify/Location/${location}`,
        },
      },
    );
    expect(data!.nodes.map((node) => node.inventoryItem)).toEqual([
      { tracked: false, requiresShipping: true, inventoryLevel: expect.any(Object) },
      { tracked: false, requiresShipping: false, inventoryLevel: null },
      { tracked: true, requiresShipping: true, inventoryLevel: null },
    ]);
  });

  it("rejects a quantity name Shopify does not have", async () => {
    const { client } = await start();
    const { errors } = await client().request(
      `{ productVariants(first: 1) { nodes { inventoryItem { inventoryLevels(first: 1) { nodes { quantities(names: ["sellable"]) { quantity } } } } } } }`,
    );
    expect(errors?.graphQLErrors?.[0]?.message).toMatch(/'sellable' is not a valid quantity name/);
  });
});

describe("nodes", () => {
  it("answers null for ids that name nothing and an error for malformed ids", async () => {
    const { client, catalog } = await start();
    const variant = seededVariants(catalog)[0]!.variant;
    const shopify = client();
    const location = `gid://shopify/Location/${catalog.shopify.locations[0]!.id}`;
    const { data } = await shopify.request<{ nodes: ({ id: string } | null)[] }>(
      `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`,
      { variables: { ids: [variantGid(variant.id), variantGid(1), location] } },
    );
    expect(data!.nodes).toEqual([{ id: variantGid(variant.id) }, null, { id: location }]);
    const malformed = await shopify.request(`{ node(id: "42") { id } }`);
    expect(malformed.errors?.graphQLErrors?.[0]?.message).toBe("Invalid global id '42'");
  });
});
