import { SANDBOX_DEMO } from "@stockbridge/shared";
import { readErpItems } from "../edge/src/connectors/acumatica/erp-read.ts";
import { withAcumaticaSession } from "../edge/src/connectors/acumatica/session.ts";
import { createShopifyClient } from "../edge/src/connectors/shopify/graphql-client.ts";
import { quantityWriteForm, quantityWriteRequest } from "../edge/src/connectors/shopify/sync-operations.ts";

/** Look-up by SKU, as per-SKU tools find the variant behind an ERP item. */
const LOOKUP_QUERY = `query PerSkuLookup($query: String!) {
  productVariants(first: 1, query: $query) { nodes { id inventoryItem { id } } }
}`;

const ITEM_QUERY = `query PerSkuItem($id: ID!, $location: ID!) {
  inventoryItem(id: $id) { id inventoryLevel(locationId: $location) { quantities(names: ["available"]) { name quantity } } }
}`;

interface Lookup {
  productVariants: { nodes: { id: string; inventoryItem: { id: string } }[] };
}

interface ItemAnswer {
  inventoryItem: { inventoryLevel: { quantities: { quantity: number }[] } | null } | null;
}

export interface NaivePair {
  sku: string;
  inventoryId: string;
  acumaticaId: string;
}

/**
 * The call pattern of a typical per-SKU sync tool, for comparison with the engine: the ERP's
 * quantities read once (with the engine's own reader, so only Shopify's pattern differs), then SKU
 * by SKU, one request at a time: look the variant up by SKU, read its inventory item's level,
 * `inventorySetQuantities` for that one SKU. Three calls per SKU, paced by the same transport (it
 * waits for the bucket instead of spending a round trip on THROTTLED). It writes quantities only:
 * the engine, compared with it, also writes prices and compare-at prices.
 */
export async function runPerSku(options: { origin: string; pairs: NaivePair[]; locationId: number }) {
  const client = createShopifyClient({
    ...SANDBOX_DEMO.shopify,
    fetch: (input, init) => fetch(input, init),
    originFor: (store) => `${options.origin}/shopify/${store}`,
  });
  const started = performance.now();
  const location = `gid://shopify/Location/${options.locationId}`;
  const erp = await withAcumaticaSession(
    {
      instanceUri: `${options.origin}${SANDBOX_DEMO.acumatica.instancePath}`,
      endpointName: SANDBOX_DEMO.acumatica.endpointName,
      apiVersion: SANDBOX_DEMO.acumatica.apiVersion,
      username: SANDBOX_DEMO.acumatica.username,
      password: SANDBOX_DEMO.acumatica.password,
      company: SANDBOX_DEMO.acumatica.company,
    },
    (api) =>
      readErpItems(
        api,
        SANDBOX_DEMO.acumatica.apiVersion,
        options.pairs.map((pair) => ({ acumaticaId: pair.acumaticaId, inventoryId: pair.inventoryId })),
      ),
    { fetch: (input, init) => fetch(input, init), verifyEndpoint: false },
  );
  let written = 0;
  for (const pair of options.pairs) {
    const found = await client.request<Lookup>(LOOKUP_QUERY, { query: `sku:"${pair.sku}"` });
    const variant = found.productVariants.nodes[0];
    if (!variant) continue;
    const item = await client.request<ItemAnswer>(ITEM_QUERY, { id: variant.inventoryItem.id, location });
    const current = item.inventoryItem?.inventoryLevel?.quantities[0]?.quantity;
    if (current === undefined) continue;
    // The form the served version takes (compareQuantity until 2025-10, changeFromQuantity after).
    const write = quantityWriteRequest(
      quantityWriteForm(client.servedVersion ?? SANDBOX_DEMO.shopify.apiVersion),
      {
        name: "available",
        referenceDocumentUri: "stockbridge://bench/per-sku",
        quantities: [
          {
            inventoryItemId: variant.inventoryItem.id,
            locationId: location,
            quantity: Math.max(0, erp.get(pair.acumaticaId)?.available ?? 0),
            from: current,
          },
        ],
      },
      crypto.randomUUID(),
    );
    await client.request(write.query, write.variables);
    written += 1;
  }
  return {
    seconds: (performance.now() - started) / 1000,
    written,
    shopifyCalls: client.stats.calls,
    shopifyPoints: client.stats.points,
    throttled: client.stats.throttled,
  };
}
