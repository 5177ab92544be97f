import type { SeedErpItem, SeedProduct, SeedVariant } from "@stockbridge/sandbox";
import { SANDBOX_DEMO } from "@stockbridge/shared";
import { newAcumaticaStats, withAcumaticaSession } from "../edge/src/connectors/acumatica/session.ts";
import { createShopifyClient } from "../edge/src/connectors/shopify/graphql-client.ts";
import {
  SET_QUANTITIES_CHANGE_FROM_MUTATION,
  SET_QUANTITIES_COMPARE_MUTATION,
  usesChangeFromQuantity,
  VARIANTS_BULK_UPDATE_MUTATION,
} from "../edge/src/connectors/shopify/sync-operations.ts";

const VARIANT_QUERY = `query NaiveVariant($id: ID!, $location: ID!) {
  productVariant(id: $id) {
    id price compareAtPrice product { id }
    inventoryItem { id inventoryLevel(locationId: $location) { quantities(names: ["available"]) { name quantity } } }
  }
}`;

interface VariantAnswer {
  productVariant: {
    id: string;
    price: string;
    product: { id: string };
    inventoryItem: {
      id: string;
      inventoryLevel: { quantities: { name: string; quantity: number }[] } | null;
    };
  } | null;
}

type Wrapped = Record<string, { value?: unknown } | undefined>;

/**
 * The strategy the engine replaces, for comparison: item by item, read the ERP item and its
 * quantities, read the variant, write its price, write its quantity. Same transports (paced,
 * retried), one request at a time.
 */
export async function runNaive(options: {
  origin: string;
  pairs: { product: SeedProduct; variant: SeedVariant; item: SeedErpItem }[];
  locationId: number;
}) {
  const client = createShopifyClient({
    ...SANDBOX_DEMO.shopify,
    fetch: (input, init) => fetch(input, init),
    originFor: (store) => `${options.origin}/shopify/${store}`,
  });
  const stats = newAcumaticaStats();
  const started = performance.now();
  const location = `gid://shopify/Location/${options.locationId}`;
  await withAcumaticaSession(
    {
      instanceUri: `${options.origin}${SANDBOX_DEMO.acumatica.instancePath}`,
      endpointName: SANDBOX_DEMO.acumatica.endpointName,
      apiVersion: SANDBOX_DEMO.acumatica.apiVersion,
      username: SANDBOX_DEMO.acumatica.username,
      password: SANDBOX_DEMO.acumatica.password,
      company: SANDBOX_DEMO.acumatica.company,
    },
    async (api) => {
      for (const { variant, item } of options.pairs) {
        const record = await api.get<Wrapped>(`StockItem/${encodeURIComponent(item.inventoryId)}`, {
          $select: "InventoryID,DefaultPrice,MSRP",
        });
        const inquiry = await api.put<{ Results?: Wrapped[] }>(
          "InventorySummaryInquiry",
          { $expand: "Results" },
          { InventoryID: { value: item.inventoryId } },
        );
        const price = Number(record.DefaultPrice?.value ?? 0);
        const available = (inquiry.Results ?? []).reduce(
          (sum, row) => sum + Number(row.QtyAvailable?.value ?? 0),
          0,
        );
        const read = await client.request<VariantAnswer>(VARIANT_QUERY, {
          id: `gid://shopify/ProductVariant/${variant.id}`,
          location,
        });
        const found = read.productVariant;
        if (!found) continue;
        await client.request(VARIANTS_BULK_UPDATE_MUTATION, {
          productId: found.product.id,
          variants: [{ id: found.id, price: price.toFixed(2) }],
        });
        const current = found.inventoryItem.inventoryLevel?.quantities[0]?.quantity ?? 0;
        const quantity = {
          inventoryItemId: found.inventoryItem.id,
          locationId: location,
          quantity: Math.max(0, available),
        };
        const input = { name: "available", reason: "correction" };
        if (usesChangeFromQuantity(client.servedVersion)) {
          await client.request(SET_QUANTITIES_CHANGE_FROM_MUTATION, {
            input: { ...input, quantities: [{ ...quantity, changeFromQuantity: current }] },
            idempotencyKey: crypto.randomUUID(),
          });
        } else {
          await client.request(SET_QUANTITIES_COMPARE_MUTATION, {
            input: { ...input, quantities: [{ ...quantity, compareQuantity: current }] },
          });
        }
      }
    },
    { fetch: (input, init) => fetch(input, init), maxConcurrent: 1, stats, verifyEndpoint: false },
  );
  return {
    seconds: (performance.now() - started) / 1000,
    shopifyCalls: client.stats.calls,
    shopifyPoints: client.stats.points,
    acumaticaCalls: stats.calls,
  };
}
