import { ShopifyError } from "../connectors/shopify/graphql-client.ts";
import { createSemaphore } from "../connectors/transport.ts";
import type { ShopifyValues } from "./plan.ts";
import { runBulkOperation } from "./shopify-bulk.ts";
import { moneyToCents, record, text, toGid } from "./shopify-gid.ts";
import {
  BULK_RUN_QUERY_MUTATION,
  bulkVariantsQuery,
  PRIMARY_LOCATION_QUERY,
  SYNC_READ_BATCH,
  SYNC_VARIANTS_QUERY,
} from "./shopify-operations.ts";
import type { ShopifyPort } from "./shopify-port.ts";

/** Reads in flight at once; the transport still paces each by the bucket. */
const READ_CONCURRENCY = 4;

/** Shopify's current values per variant id as the mapping stores it; null = the variant does not exist. */
export type ShopifyReading = Map<string, ShopifyValues | null>;

/** The shop's primary location (the catalog's "first location"), or null for a shop without one. */
export async function readPrimaryLocation(port: ShopifyPort): Promise<string | null> {
  const answer = await port.execute<{ location: { id: string } | null }>(PRIMARY_LOCATION_QUERY);
  if (answer.errors.length > 0)
    throw new ShopifyError(
      `Shopify rejected the location read: ${answer.errors.map((e) => e.message).join("; ")}`,
      "graphql",
    );
  return answer.data?.location?.id ?? null;
}

/**
 * Fresh values of the given variants at the primary location: `nodes(ids:)` in batches, or, for a
 * large scope, one bulk query over the whole store (outside the cost bucket; only its launch and
 * polls cost points).
 */
export async function readShopifyVariants(
  port: ShopifyPort,
  variantIds: string[],
  options: { bulk: boolean; locationId: string | null },
): Promise<ShopifyReading> {
  if (options.bulk) {
    const all = await readAllByBulk(port, options.locationId);
    if (all) {
      const reading: ShopifyReading = new Map();
      for (const id of variantIds) reading.set(id, all.get(toGid("ProductVariant", id)) ?? null);
      return reading;
    }
    // Another bulk query holds the store's only slot (before 2026-01): read by batches instead.
  }
  return readByNodes(port, variantIds, options.locationId);
}

export async function readByNodes(
  port: ShopifyPort,
  variantIds: string[],
  locationId: string | null,
): Promise<ShopifyReading> {
  const reading: ShopifyReading = new Map();
  const unique = [...new Set(variantIds)];
  const semaphore = createSemaphore(READ_CONCURRENCY);
  const batches: string[][] = [];
  for (let start = 0; start < unique.length; start += SYNC_READ_BATCH)
    batches.push(unique.slice(start, start + SYNC_READ_BATCH));
  // Without a location nothing is stocked anywhere; a location id that matches nothing reads null levels.
  const location = locationId ?? "gid://shopify/Location/0";
  await Promise.all(
    batches.map((batch) =>
      semaphore.run(async () => {
        const answer = await port.execute<{ nodes: unknown[] }>(SYNC_VARIANTS_QUERY, {
          ids: batch.map((id) => toGid("ProductVariant", id)),
          locationId: location,
        });
        if (answer.errors.length > 0 || !answer.data) {
          throw new ShopifyError(
            `Shopify rejected the variant read: ${answer.errors.map((error) => error.message).join("; ") || "no data"}`,
            "graphql",
          );
        }
        batch.forEach((id, index) => {
          reading.set(id, toValues(answer.data?.nodes[index], locationId));
        });
      }),
    ),
  );
  return reading;
}

/** Every variant of the store by GID, or null when a bulk query cannot start now. */
async function readAllByBulk(
  port: ShopifyPort,
  locationId: string | null,
): Promise<Map<string, ShopifyValues> | null> {
  const query = bulkVariantsQuery(locationId ?? "gid://shopify/Location/0");
  const file = await runBulkOperation(port, {
    type: "QUERY",
    launch: BULK_RUN_QUERY_MUTATION,
    variables: { query },
  });
  if (file === null) return null;
  const values = new Map<string, ShopifyValues>();
  for (const line of file.split("\n")) {
    if (!line.trim()) continue;
    const parsed = toValues(JSON.parse(line), locationId);
    if (parsed) values.set(parsed.variantId, parsed);
  }
  return values;
}

/** One `ProductVariant` node as the engine compares it; null for a missing node. */
export function toValues(node: unknown, locationId: string | null): ShopifyValues | null {
  const variant = record(node);
  const id = text(variant?.id);
  if (!variant || !id) return null;
  const item = record(variant.inventoryItem);
  const level = record(item?.inventoryLevel);
  const quantities = new Map<string, number>();
  for (const entry of (level?.quantities as unknown[] | undefined) ?? []) {
    const quantity = record(entry);
    if (typeof quantity?.name === "string" && typeof quantity.quantity === "number")
      quantities.set(quantity.name, quantity.quantity);
  }
  return {
    variantId: id,
    productId: text(record(variant.product)?.id) ?? "",
    priceCents: moneyToCents(variant.price) ?? 0,
    compareAtCents: moneyToCents(variant.compareAtPrice),
    inventoryItemId: text(item?.id),
    tracked: item?.tracked === true,
    isBundle: variant.requiresComponents === true,
    locationId: level && locationId ? locationId : null,
    available: level ? (quantities.get("available") ?? 0) : null,
    onHand: level ? (quantities.get("on_hand") ?? 0) : null,
  };
}
