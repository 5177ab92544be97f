import { describe, expect, it } from "vitest";
import {
  productGid,
  type ShopifyHarness,
  seededVariants,
  shopifyPerTest,
  variantGid,
} from "../../testing/shopify-harness.ts";

const start = shopifyPerTest();

const UPDATE = `mutation Update($productId: ID!, $variants: [ProductVariantsBulkInput!]!, $partial: Boolean) {
  productVariantsBulkUpdate(productId: $productId, variants: $variants, allowPartialUpdates: $partial) {
    product { id }
    productVariants { id price compareAtPrice }
    userErrors { code field message }
  }
}`;

interface UpdatePayload {
  productVariantsBulkUpdate: {
    product: { id: string } | null;
    productVariants: { id: string; price: string; compareAtPrice: string | null }[] | null;
    userErrors: { code: string; field: string[]; message: string }[];
  };
}

/** Two products with at least two variants each. */
function twoProducts(h: ShopifyHarness) {
  const products = h.catalog.shopify.products.filter((product) => product.variants.length >= 2);
  return [products[0]!, products[1]!] as const;
}

async function readPrices(h: ShopifyHarness, ids: number[]) {
  const { data } = await h
    .client()
    .request<{ nodes: { price: string; compareAtPrice: string | null }[] }>(
      `query($ids: [ID!]!) { nodes(ids: $ids) { ... on ProductVariant { price compareAtPrice } } }`,
      { variables: { ids: ids.map(variantGid) } },
    );
  return data!.nodes;
}

describe("productVariantsBulkUpdate", () => {
  it("updates prices of a product's variants, leaving an omitted compareAtPrice and clearing a null one", async () => {
    const h = await start();
    const [product] = twoProducts(h);
    const [a, b] = product.variants;
    const { data, errors } = await h.client().request<UpdatePayload>(UPDATE, {
      variables: {
        productId: productGid(product.id),
        variants: [
          { id: variantGid(a!.id), price: "19.9" },
          { id: variantGid(b!.id), price: 24, compareAtPrice: null },
        ],
      },
    });
    expect(errors).toBeUndefined();
    const keptCompareAt = a!.compareAtPriceCents === null ? null : (a!.compareAtPriceCents / 100).toFixed(2);
    expect(data!.productVariantsBulkUpdate).toEqual({
      product: { id: productGid(product.id) },
      productVariants: [
        { id: variantGid(a!.id), price: "19.90", compareAtPrice: keptCompareAt },
        { id: variantGid(b!.id), price: "24.00", compareAtPrice: null },
      ],
      userErrors: [],
    });
    expect(await readPrices(h, [a!.id, b!.id])).toEqual([
      { price: "19.90", compareAtPrice: keptCompareAt },
      { price: "24.00", compareAtPrice: null },
    ]);
  });

  it("refuses a variant of another product with MUST_BE_FOR_THIS_PRODUCT and updates nothing", async () => {
    const h = await start();
    const [product, other] = twoProducts(h);
    const own = product.variants[0]!;
    const foreign = other.variants[0]!;
    const { data } = await h.client().request<UpdatePayload>(UPDATE, {
      variables: {
        productId: productGid(product.id),
        variants: [
          { id: variantGid(own.id), price: "1.00" },
          { id: variantGid(foreign.id), price: "2.00" },
        ],
      },
    });
    expect(data!.productVariantsBulkUpdate).toEqual({
      product: null,
      productVariants: null,
      userErrors: [
        {
          code: "MUST_BE_FOR_THIS_PRODUCT",
          field: ["variants", "1", "id"],
          message: "Input must be for this product.",
        },
      ],
    });
    expect((await readPrices(h, [own.id]))[0]!.price).toBe((own.priceCents / 100).toFixed(2));
  });

  it("updates the valid variants and reports the rest with allowPartialUpdates", async () => {
    const h = await start();
    const [product] = twoProducts(h);
    const [a, b] = product.variants;
    const { data } = await h.client().request<UpdatePayload>(UPDATE, {
      variables: {
        productId: productGid(product.id),
        partial: true,
        variants: [
          { id: variantGid(a!.id), price: "-5.00" },
          { id: variantGid(b!.id), price: "7.50", compareAtPrice: "-1" },
          { id: variantGid(999), price: "1.00" },
        ],
      },
    });
    expect(data!.productVariantsBulkUpdate.userErrors).toEqual([
      {
        code: "GREATER_THAN_OR_EQUAL_TO",
        field: ["variants", "0", "price"],
        message: "Price must be greater than or equal to 0",
      },
      {
        code: "GREATER_THAN_OR_EQUAL_TO",
        field: ["variants", "1", "compareAtPrice"],
        message: "Compare at price must be greater than or equal to 0",
      },
      {
        code: "PRODUCT_VARIANT_DOES_NOT_EXIST",
        field: ["variants", "2", "id"],
        message: "Product variant does not exist",
      },
    ]);
    expect(data!.productVariantsBulkUpdate.productVariants).toEqual([]);

    const partly = await h.client().request<UpdatePayload>(UPDATE, {
      variables: {
        productId: productGid(product.id),
        partial: true,
        variants: [
          { id: variantGid(a!.id), price: "-5.00" },
          { id: variantGid(b!.id), price: "7.50" },
        ],
      },
    });
    expect(partly.data!.productVariantsBulkUpdate.productVariants!.map((variant) => variant.price)).toEqual([
      "7.50",
    ]);
    expect((await readPrices(h, [b!.id]))[0]!.price).toBe("7.50");
  });

  it("answers PRODUCT_DOES_NOT_EXIST for an unknown product", async () => {
    const h = await start();
    const { data } = await h.client().request<UpdatePayload>(UPDATE, {
      variables: { productId: productGid(1), variants: [{ id: variantGid(1), price: "1.00" }] },
    });
    expect(data!.productVariantsBulkUpdate.userErrors).toEqual([
      { code: "PRODUCT_DOES_NOT_EXIST", field: ["productId"], message: "Product does not exist" },
    ]);
  });

  it("rejects a price that is not a decimal at variable coercion, as Shopify does", async () => {
    const h = await start();
    const [product] = twoProducts(h);
    const { errors, data } = await h.client().request(UPDATE, {
      variables: {
        productId: productGid(product.id),
        variants: [{ id: variantGid(product.variants[0]!.id), price: "12,50" }],
      },
    });
    expect(data).toBeUndefined();
    expect(errors?.graphQLErrors?.[0]?.extensions?.code).toBe("INVALID_VARIABLE");
  });

  it("changes a SKU through inventoryItem so the sku filter finds it under its new name", async () => {
    const h = await start();
    const { product, variant } = seededVariants(h.catalog).find(({ variant }) =>
      variant.sku?.startsWith("SKU-"),
    )!;
    const shopify = h.client();
    await shopify.request(UPDATE, {
      variables: {
        productId: productGid(product.id),
        variants: [{ id: variantGid(variant.id), inventoryItem: { sku: "RENAMED-1" } }],
      },
    });
    const { data } = await shopify.request<{
      renamed: { nodes: { id: string }[] };
      old: { nodes: unknown[] };
    }>(
      `query($old: String!) { renamed: productVariants(first: 5, query: "sku:renamed-1") { nodes { id } }
        old: productVariants(first: 5, query: $old) { nodes { id } } }`,
      { variables: { old: `sku:${variant.sku}` } },
    );
    expect(data).toEqual({ renamed: { nodes: [{ id: variantGid(variant.id) }] }, old: { nodes: [] } });
  });
});
