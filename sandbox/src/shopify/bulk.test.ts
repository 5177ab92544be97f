import { describe, expect, it } from "vitest";
import { productGid, seededVariants, shopifyPerTest, variantGid } from "../../testing/shopify-harness.ts";

const start = shopifyPerTest();

const RUN_QUERY = `mutation Run($query: String!) {
  bulkOperationRunQuery(query: $query) { bulkOperation { id status } userErrors { code field message } }
}`;

const CURRENT = `query Current($type: BulkOperationType!) {
  currentBulkOperation(type: $type) { id status objectCount rootObjectCount url errorCode }
}`;

interface RunPayload {
  bulkOperationRunQuery: {
    bulkOperation: { id: string; status: string } | null;
    userErrors: { code?: string; field: string[] | null; message: string }[];
  };
}

interface CurrentPayload {
  currentBulkOperation: {
    id: string;
    status: string;
    objectCount: string;
    rootObjectCount: string;
    url: string | null;
  } | null;
}

const VARIANTS_WITH_LEVELS = `{ productVariants { edges { node { id sku inventoryItem { id
  inventoryLevels { edges { node { id location { id } quantities(names: ["available"]) { name quantity } } } } } } } } }`;

describe("bulkOperationRunQuery", () => {
  it("exports a connection as JSONL, nested nodes on their own lines after their parent with __parentId", async () => {
    const h = await start({ releaseDate: new Date("2025-03-01T00:00:00Z") });
    const shopify = h.client({ apiVersion: "2025-01" });
    const run = await shopify.request<RunPayload>(RUN_QUERY, { variables: { query: VARIANTS_WITH_LEVELS } });
    expect(run.data!.bulkOperationRunQuery).toMatchObject({
      bulkOperation: { status: "CREATED" },
      userErrors: [],
    });

    const running = await shopify.request<CurrentPayload>(CURRENT, { variables: { type: "QUERY" } });
    expect(running.data!.currentBulkOperation).toMatchObject({ status: "RUNNING", url: null });

    h.advanceSeconds(1);
    const done = await shopify.request<CurrentPayload>(CURRENT, { variables: { type: "QUERY" } });
    const variants = seededVariants(h.catalog).map(({ variant }) => variant);
    const levels = variants.reduce((sum, variant) => sum + variant.levels.length, 0);
    expect(done.data!.currentBulkOperation).toMatchObject({
      id: run.data!.bulkOperationRunQuery.bulkOperation!.id,
      status: "COMPLETED",
      objectCount: String(variants.length + levels),
      rootObjectCount: String(variants.length),
      url: expect.stringMatching(/\/bulk-results\/\d+\.jsonl$/),
    });

    const file = await fetch(done.data!.currentBulkOperation!.url!);
    const lines = (await file.text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const first = variants.find((variant) => variant.levels.length === 2)!;
    const at = lines.findIndex((line) => line.id === variantGid(first.id));
    expect(lines[at]).toEqual({
      id: variantGid(first.id),
      sku: first.sku,
      inventoryItem: { id: `gid://shopify/InventoryItem/${first.inventoryItemId}` },
    });
    expect(lines.slice(at + 1, at + 3)).toEqual(
      first.levels.map((level) => ({
        id: `gid://shopify/InventoryLevel/${level.locationId}?inventory_item_id=${first.inventoryItemId}`,
        location: { id: `gid://shopify/Location/${level.locationId}` },
        quantities: [{ name: "available", quantity: level.available }],
        __parentId: variantGid(first.id),
      })),
    );
  });

  it("runs one bulk query at a time before 2026-01", async () => {
    const h = await start({ releaseDate: new Date("2025-03-01T00:00:00Z") });
    const shopify = h.client({ apiVersion: "2025-01" });
    const first = await shopify.request<RunPayload>(RUN_QUERY, {
      variables: { query: VARIANTS_WITH_LEVELS },
    });
    const second = await shopify.request<RunPayload>(RUN_QUERY, {
      variables: { query: VARIANTS_WITH_LEVELS },
    });
    expect(second.data!.bulkOperationRunQuery).toEqual({
      bulkOperation: null,
      userErrors: [
        {
          code: "OPERATION_IN_PROGRESS",
          field: null,
          message: `A bulk query operation for this app and shop is already in progress: ${first.data!.bulkOperationRunQuery.bulkOperation!.id}.`,
        },
      ],
    });
    h.advanceSeconds(1);
    const third = await shopify.request<RunPayload>(RUN_QUERY, {
      variables: { query: VARIANTS_WITH_LEVELS },
    });
    expect(third.data!.bulkOperationRunQuery.userErrors).toEqual([]);
  });

  it("runs five bulk queries at once from 2026-01: currentBulkOperation answers the newest, bulkOperation(id:) each", async () => {
    const h = await start();
    const shopify = h.client({ apiVersion: "2026-01" });
    const ids: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      const run = await shopify.request<RunPayload>(RUN_QUERY, {
        variables: { query: VARIANTS_WITH_LEVELS },
      });
      expect(run.data!.bulkOperationRunQuery.userErrors).toEqual([]);
      ids.push(run.data!.bulkOperationRunQuery.bulkOperation!.id);
    }
    const sixth = await shopify.request<RunPayload>(RUN_QUERY, {
      variables: { query: VARIANTS_WITH_LEVELS },
    });
    const current = await shopify.request<CurrentPayload>(CURRENT, { variables: { type: "QUERY" } });
    const first = await shopify.request<{ bulkOperation: { id: string; status: string } | null }>(
      "query One($id: ID!) { bulkOperation(id: $id) { id status } }",
      { variables: { id: ids[0] } },
    );

    expect(sixth.data!.bulkOperationRunQuery).toEqual({
      bulkOperation: null,
      userErrors: [
        {
          code: "LIMIT_REACHED",
          field: null,
          message: "Bulk operations limit reached. Please try again later.",
        },
      ],
    });
    expect(current.data!.currentBulkOperation!.id).toBe(ids[4]);
    expect(first.data!.bulkOperation).toEqual({ id: ids[0], status: "RUNNING" });
    expect(h.shopify.state()).toMatchObject({ bulkOperations: 5, bulkOperationsRefused: 1 });
  });

  it("has no bulkOperation(id:) before 2026-01", async () => {
    const h = await start({ releaseDate: new Date("2025-03-01T00:00:00Z") });
    const answer = await h
      .client({ apiVersion: "2025-01" })
      .request("query One($id: ID!) { bulkOperation(id: $id) { id } }", {
        variables: { id: "gid://shopify/BulkOperation/1" },
      });
    expect(answer.errors?.graphQLErrors?.[0]?.message).toMatch(
      /Field 'bulkOperation' doesn't exist on type 'QueryRoot'/,
    );
  });

  it("rejects queries outside the bulk rules", async () => {
    const h = await start();
    const shopify = h.client();
    const messages = async (query: string) =>
      (
        await shopify.request<RunPayload>(RUN_QUERY, { variables: { query } })
      ).data!.bulkOperationRunQuery.userErrors.map((error) => error.message);
    expect(await messages("{ shop { name } }")).toEqual([
      "Invalid bulk query: bulk queries must contain at least one connection.",
    ]);
    expect(
      await messages(
        "{ productVariants { edges { node { sku inventoryItem { inventoryLevels { edges { node { id } } } } } } } }",
      ),
    ).toEqual([
      "Invalid bulk query: the parent 'node' field for a nested connection must select the 'id' field. Connection fields without 'id': inventoryLevels.",
    ]);
    expect(await messages("{ productVariants { edges { node { id nope } } } }")).toEqual([
      "Invalid bulk query: Field 'nope' doesn't exist on type 'ProductVariant'",
    ]);
  });
});

describe("bulkOperationRunMutation", () => {
  it("runs productVariantsBulkUpdate for every line of a staged upload and reports each line", async () => {
    const h = await start();
    const shopify = h.client();
    const products = h.catalog.shopify.products.slice(0, 3);
    const jsonl = products
      .map((product) =>
        JSON.stringify({
          productId: productGid(product.id),
          variants: product.variants.map((variant) => ({ id: variantGid(variant.id), price: "11.11" })),
        }),
      )
      .join("\n");

    const staged = await shopify.request<{
      stagedUploadsCreate: {
        stagedTargets: { url: string; parameters: { name: string; value: string }[] }[];
      };
    }>(`mutation { stagedUploadsCreate(input: [{ resource: BULK_MUTATION_VARIABLES, filename: "prices.jsonl",
      mimeType: "text/jsonl", httpMethod: POST }]) { stagedTargets { url resourceUrl parameters { name value } } userErrors { message } } }`);
    const target = staged.data!.stagedUploadsCreate.stagedTargets[0]!;
    const form = new FormData();
    for (const { name, value } of target.parameters) form.append(name, value);
    form.append("file", new Blob([jsonl], { type: "text/jsonl" }), "prices.jsonl");
    const upload = await fetch(target.url, { method: "POST", body: form });
    expect(upload.status).toBe(201);
    const key = target.parameters.find((parameter) => parameter.name === "key")!.value;

    const run = await shopify.request<{
      bulkOperationRunMutation: { bulkOperation: { status: string } | null; userErrors: unknown[] };
    }>(
      `mutation($mutation: String!, $path: String!) { bulkOperationRunMutation(mutation: $mutation, stagedUploadPath: $path) {
        bulkOperation { id status } userErrors { code field message } } }`,
      {
        variables: {
          path: key,
          mutation: `mutation call($productId: ID!, $variants: [ProductVariantsBulkInput!]!) {
            productVariantsBulkUpdate(productId: $productId, variants: $variants) { productVariants { id price } userErrors { field message } } }`,
        },
      },
    );
    expect(run.data!.bulkOperationRunMutation).toMatchObject({
      bulkOperation: { status: "CREATED" },
      userErrors: [],
    });

    h.advanceSeconds(1);
    const done = await shopify.request<CurrentPayload>(CURRENT, { variables: { type: "MUTATION" } });
    expect(done.data!.currentBulkOperation).toMatchObject({
      status: "COMPLETED",
      objectCount: String(products.length),
    });
    const lines = (await (await fetch(done.data!.currentBulkOperation!.url!)).text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines).toEqual(
      products.map((product, index) => ({
        data: {
          productVariantsBulkUpdate: {
            productVariants: product.variants.map((variant) => ({
              id: variantGid(variant.id),
              price: "11.11",
            })),
            userErrors: [],
          },
        },
        __lineNumber: index,
      })),
    );
  });

  it("accepts the variables file through a PUT staged upload target too", async () => {
    const h = await start();
    const shopify = h.client();
    const product = h.catalog.shopify.products[0]!;
    const variant = product.variants[0]!;
    const staged = await shopify.request<{
      stagedUploadsCreate: { stagedTargets: { url: string; resourceUrl: string }[] };
    }>(`mutation { stagedUploadsCreate(input: [{ resource: BULK_MUTATION_VARIABLES, filename: "one.jsonl",
      mimeType: "text/jsonl", httpMethod: PUT }]) { stagedTargets { url resourceUrl } } }`);
    const target = staged.data!.stagedUploadsCreate.stagedTargets[0]!;
    const line = JSON.stringify({
      productId: productGid(product.id),
      variants: [{ id: variantGid(variant.id), price: "3.30" }],
    });
    expect(
      (await fetch(target.url, { method: "PUT", body: line, headers: { "Content-Type": "text/jsonl" } }))
        .status,
    ).toBe(200);
    const path = new URL(target.resourceUrl).pathname.replace(/^.*\/staged-uploads\//, "");
    const run = await shopify.request<{ bulkOperationRunMutation: { userErrors: unknown[] } }>(
      `mutation($path: String!) { bulkOperationRunMutation(stagedUploadPath: $path, mutation: "mutation m($productId: ID!, $variants: [ProductVariantsBulkInput!]!) { productVariantsBulkUpdate(productId: $productId, variants: $variants) { userErrors { message } } }") { userErrors { code message } } }`,
      { variables: { path } },
    );
    expect(run.data!.bulkOperationRunMutation.userErrors).toEqual([]);
    h.advanceSeconds(1);
    const { data } = await shopify.request<{ productVariant: { price: string } }>(
      `query($id: ID!) { productVariant(id: $id) { price } }`,
      { variables: { id: variantGid(variant.id) } },
    );
    expect(data!.productVariant.price).toBe("3.30");
  });

  it("answers NO_SUCH_FILE for a staged upload path that was never uploaded", async () => {
    const h = await start();
    const { data } = await h
      .client()
      .request<{ bulkOperationRunMutation: { userErrors: { code: string }[] } }>(
        `mutation { bulkOperationRunMutation(mutation: "mutation m($productId: ID!, $variants: [ProductVariantsBulkInput!]!) { productVariantsBulkUpdate(productId: $productId, variants: $variants) { userErrors { message } } }",
        stagedUploadPath: "tmp/1/bulk/nothing/vars.jsonl") { userErrors { code field message } } }`,
      );
    expect(data!.bulkOperationRunMutation.userErrors).toMatchObject([
      { code: "NO_SUCH_FILE", field: ["stagedUploadPath"] },
    ]);
  });
});
