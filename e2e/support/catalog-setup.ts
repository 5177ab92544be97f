import {
  ACUMATICA_API_VERSIONS,
  type ApiClient,
  type Job,
  type Mapping,
  SHOPIFY_API_VERSIONS,
} from "@stockbridge/shared";
import { afterAll, beforeAll, inject } from "vitest";
import { subscribeThroughCheckout } from "./subscribe.ts";

/**
 * Test setup through the real API for the mapping screens: an active subscription (subscribe.ts),
 * the sandbox connections and both catalogs pulled.
 */

/** Saves the demo connections the edge hands out in sandbox mode (GET /api/sandbox). */
export async function connectSandbox(api: ApiClient): Promise<void> {
  const demo = await api.call("sandbox");
  await api.call("saveShopify", {
    body: { ...demo.shopify, apiVersion: oneOf(SHOPIFY_API_VERSIONS, demo.shopify.apiVersion) },
  });
  await api.call("saveAcumatica", {
    body: { ...demo.acumatica, apiVersion: oneOf(ACUMATICA_API_VERSIONS, demo.acumatica.apiVersion) },
  });
}

function oneOf<T extends string>(choices: readonly T[], value: string): T {
  const found = choices.find((choice) => choice === value);
  if (!found) throw new Error(`The sandbox hands out API version ${value}, not one of ${choices.join(", ")}`);
  return found;
}

/** Polls a job until it ends; throws with the job's message when it failed. */
export async function waitForJob(api: ApiClient, job: Job, timeoutMs = 30_000): Promise<Job> {
  const deadline = Date.now() + timeoutMs;
  let current = job;
  while (current.status === "queued" || current.status === "running") {
    if (Date.now() > deadline) throw new Error(`Job ${job.kind} did not finish within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    current = await api.call("job", { params: { id: job._id } });
  }
  if (current.status === "failed") throw new Error(`Job ${job.kind} failed: ${current.message}`);
  return current;
}

/** Pulls both catalogs (Shopify and Acumatica) at once and waits for both jobs. */
export async function pullCatalogs(api: ApiClient): Promise<void> {
  const [shopify, acumatica] = await Promise.all([
    api.call("syncShopifyProducts"),
    api.call("syncAcumaticaProducts"),
  ]);
  await Promise.all([waitForJob(api, shopify.job), waitForJob(api, acumatica.job)]);
}

/** Subscribed, connected to the sandbox, both catalogs pulled: ready for the mapping screens. */
export async function prepareCatalogUser(api: ApiClient, sandboxUrl: string): Promise<void> {
  await subscribeThroughCheckout(api, sandboxUrl);
  await connectSandbox(api);
  await pullCatalogs(api);
}

/**
 * Sets an ERP stock item's quantities in every sandbox warehouse through the sandbox control API,
 * so its summed quantity is known (`perWarehouse` x 3). Sandbox state is shared by every test:
 * callers set values they own and never rely on what another test left.
 */
export async function setErpQuantity(
  sandboxUrl: string,
  inventoryId: string,
  perWarehouse: number,
): Promise<void> {
  for (const warehouseId of ["WHOLESALE", "RETAIL", "RETURNS"]) {
    const response = await fetch(`${sandboxUrl}/__control/acumatica/quantities`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        inventoryId,
        warehouseId,
        onHand: perWarehouse,
        available: perWarehouse,
        availableForShipment: perWarehouse,
      }),
    });
    if (!response.ok) throw new Error(`Setting ${inventoryId} quantities failed: ${await response.text()}`);
  }
}

/** Runs auto mapping through the API and waits for it. */
export async function autoMap(api: ApiClient): Promise<void> {
  const { job } = await api.call("autoMap");
  await waitForJob(api, job);
}

export interface SyncableMapping {
  mapping: Mapping;
  /** Shopify's quantity now, and the ERP quantity a quantity sync will write. */
  from: number;
  to: number;
}

/**
 * A mapping whose quantity sync will really change something: a tracked, stocked stock item, its
 * ERP quantity set to a fresh value through the sandbox (so the plan never reads "in line").
 */
export async function findSyncableMapping(
  api: ApiClient,
  sandboxUrl: string,
  options: { exclude?: readonly string[] } = {},
): Promise<SyncableMapping> {
  const { mappings } = await api.call("mappingHistory", { query: { page: "1", limit: "50" } });
  const candidates = mappings.filter(
    (mapping) => mapping.acumaticaDetails.sku.startsWith("SKU-") && !options.exclude?.includes(mapping._id),
  );
  for (const mapping of candidates.slice(0, 10)) {
    const perWarehouse = 100 + Math.floor(Math.random() * 300);
    await setErpQuantity(sandboxUrl, mapping.acumaticaDetails.sku, perWarehouse);
    const plan = await api.call("syncMapping", {
      params: { id: mapping._id },
      body: { syncOptions: { price: false, quantity: true }, dryRun: true },
    });
    const change = plan.results[0]?.changes.find((candidate) => candidate.field === "quantity");
    if (plan.results[0]?.outcome === "planned" && change?.from != null && change.to === perWarehouse * 3) {
      return { mapping, from: change.from, to: change.to };
    }
  }
  throw new Error("No mapping of the sandbox catalog plans a quantity change");
}

/**
 * Every test user pulls the same sandbox store, so back-to-back pulls wait for Shopify's leaky
 * bucket (Standard: 2,000 points, 100/s). Files that pull in every test switch the store to the
 * Plus figures and put Standard back afterwards; files run one at a time.
 */
export async function setShopifyThrottleProfile(
  sandboxUrl: string,
  profile: "standard" | "plus",
): Promise<void> {
  const response = await fetch(`${sandboxUrl}/__control/faults`, {
    method: "PUT",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ shopify: { throttleProfile: profile } }),
  });
  if (!response.ok) throw new Error(`Setting the Shopify throttle profile failed: ${await response.text()}`);
}

/** Called at the top level of a file that pulls in every test: Plus figures for its tests, Standard after. */
export function shopifyPlusThrottlePerFile(): void {
  beforeAll(() => setShopifyThrottleProfile(inject("sandboxUrl"), "plus"));
  afterAll(() => setShopifyThrottleProfile(inject("sandboxUrl"), "standard"));
}

/**
 * Adds latency to every call of one simulated system, so a screen's in-progress state (a
 * "Fetching..." button, a progress bar) lasts long enough to be seen. Returns the undo.
 */
export async function slowDownSandbox(
  sandboxUrl: string,
  system: "shopify" | "acumatica",
  latencyMs: number,
): Promise<() => Promise<void>> {
  const put = async (latency: number) => {
    const response = await fetch(`${sandboxUrl}/__control/faults`, {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ [system]: { latencyMs: latency } }),
    });
    if (!response.ok) throw new Error(`Setting ${system} latency failed: ${await response.text()}`);
  };
  await put(latencyMs);
  return () => put(0);
}

/** Shopify's Admin GraphQL of the sandbox store, as another app (or the merchant) would use it. */
async function sandboxShopify<T>(
  api: ApiClient,
  sandboxUrl: string,
  request: { query: string; variables: Record<string, unknown> },
): Promise<T> {
  const demo = await api.call("sandbox");
  const response = await fetch(
    `${sandboxUrl}/shopify/${demo.shopify.storeName}/admin/api/2025-04/graphql.json`,
    {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Shopify-Access-Token": demo.shopify.accessToken },
      body: JSON.stringify(request),
    },
  );
  const body = (await response.json()) as { data?: T; errors?: unknown };
  if (!body.data) throw new Error(`sandbox Shopify refused: ${JSON.stringify(body.errors)}`);
  return body.data;
}

/**
 * Sets a variant's price in the sandbox store as the merchant would in Shopify's admin. Sandbox
 * state is shared: a caller puts back an ordinary price (the ERP's) when it is done.
 */
export async function setShopifyPrice(
  api: ApiClient,
  sandboxUrl: string,
  change: { variantId: string; price: number },
): Promise<void> {
  const { productVariant } = await sandboxShopify<{ productVariant: { product: { id: string } } }>(
    api,
    sandboxUrl,
    {
      query: "query($id: ID!) { productVariant(id: $id) { product { id } } }",
      variables: { id: change.variantId },
    },
  );
  const answer = await sandboxShopify<{ productVariantsBulkUpdate: { userErrors: { message: string }[] } }>(
    api,
    sandboxUrl,
    {
      query:
        "mutation($productId: ID!, $variants: [ProductVariantsBulkInput!]!) { productVariantsBulkUpdate(productId: $productId, variants: $variants) { userErrors { message } } }",
      variables: {
        productId: productVariant.product.id,
        variants: [{ id: change.variantId, price: change.price.toFixed(2) }],
      },
    },
  );
  const refused = answer.productVariantsBulkUpdate.userErrors;
  if (refused.length > 0)
    throw new Error(`Setting the price failed: ${refused.map((e) => e.message).join("; ")}`);
}

/** A variant's price in the sandbox store now, in dollars. */
export async function shopifyPrice(api: ApiClient, sandboxUrl: string, variantId: string): Promise<number> {
  const { productVariant } = await sandboxShopify<{ productVariant: { price: string } }>(api, sandboxUrl, {
    query: "query($id: ID!) { productVariant(id: $id) { price } }",
    variables: { id: variantId },
  });
  return Number(productVariant.price);
}

/**
 * A mapping whose price a sync would raise past the default safety limit (50 %): its Shopify price
 * set to a quarter of the ERP's. Answers the mapping and its ERP price, to put back afterwards.
 */
export async function priceJumpMapping(
  api: ApiClient,
  sandboxUrl: string,
): Promise<{ mapping: Mapping; erpPrice: number; lowered: number }> {
  const { mappings } = await api.call("mappingHistory", { query: { page: "1", limit: "50" } });
  const mapping = mappings.find((candidate) => candidate.acumaticaDetails.sku.startsWith("SKU-"));
  if (!mapping) throw new Error("No mapping of the sandbox catalog has an SKU- item");
  const { products } = await api.call("acumaticaProducts", {
    query: { search: mapping.acumaticaDetails.sku },
  });
  const erpPrice = products.find((product) => product.sku === mapping.acumaticaDetails.sku)?.defaultPrice;
  if (erpPrice === undefined)
    throw new Error(`${mapping.acumaticaDetails.sku} is not in the pulled ERP catalog`);
  const lowered = Math.round(erpPrice * 25) / 100;
  await setShopifyPrice(api, sandboxUrl, { variantId: mapping.shopifyDetails.variantId, price: lowered });
  return { mapping, erpPrice, lowered };
}
