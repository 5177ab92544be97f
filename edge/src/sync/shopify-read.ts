import { ShopifyError } from "../connectors/shopify/graphql-client.ts";
import type { ShopifyValues } from "./plan.ts";
import { runBulkOperation } from "./shopify-bulk.ts";
import { moneyToCents, record, text, toGid } from "./shopify-gid.ts";
import {
  BULK_RUN_QUERY_MUTATION,
  bulkVariantsQuery,
  PRIMARY_LOCATION_QUERY,
  SYNC_READ_COST_PER_ID,
  SYNC_VARIANTS_QUERY,
} from "./shopify-operations.ts";
import type { ShopifyPort } from "./shopify-port.ts";

/** Reads in flight at once; the transport still paces each by the bucket. */
const READ_CONCURRENCY = 4;
/** Shopify's single-query cap (every plan) until an answer names another, and its input-array cap. */
const MAX_QUERY_COST = 1_000;
const MAX_IDS = 250;

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
    // No bulk slot of the store came free in time (pulls, other syncs): read by batches instead.
  }
  return readByNodes(port, variantIds, options.locationId);
}

/**
 * `nodes(ids:)` in batches as large as Shopify's cost cap allows. The size is learned, not assumed:
 * each answer's `requestedQueryCost` gives the points per id, a MAX_COST_EXCEEDED refusal gives the
 * cost and the cap, and the refused batch goes back split to the new size. The first batch runs
 * alone so the others start from what it taught.
 */
export async function readByNodes(
  port: ShopifyPort,
  variantIds: string[],
  locationId: string | null,
): Promise<ShopifyReading> {
  const reading: ShopifyReading = new Map();
  const pending = [...new Set(variantIds)];
  const sizing = { perId: SYNC_READ_COST_PER_ID, maxCost: MAX_QUERY_COST };
  const batchSize = () => Math.max(1, Math.min(MAX_IDS, Math.floor(sizing.maxCost / sizing.perId)));
  // Without a location nothing is stocked anywhere; a location id that matches nothing reads null levels.
  const location = locationId ?? "gid://shopify/Location/0";

  async function readBatch(batch: string[]): Promise<void> {
    const answer = await port.execute<{ nodes: unknown[] }>(
      SYNC_VARIANTS_QUERY,
      { ids: batch.map((id) => toGid("ProductVariant", id)), locationId: location },
      { expectedCost: Math.ceil(batch.length * sizing.perId) },
    );
    const tooCostly = answer.errors.find((error) => error.code === "MAX_COST_EXCEEDED");
    if (tooCostly) {
      if (batch.length === 1)
        throw new ShopifyError(`Shopify refused to read even one variant: ${tooCostly.message}`, "graphql");
      if (tooCostly.maxCost !== undefined) sizing.maxCost = tooCostly.maxCost;
      // Without the cost in the answer, halving still converges.
      const perId = tooCostly.cost !== undefined ? tooCostly.cost / batch.length : 2 * sizing.perId;
      sizing.perId = Math.max(sizing.perId, perId);
      pending.push(...batch);
      return;
    }
    if (answer.errors.length > 0 || !answer.data) {
      throw new ShopifyError(
        `Shopify rejected the variant read: ${answer.errors.map((error) => error.message).join("; ") || "no data"}`,
        "graphql",
      );
    }
    if (answer.cost.requested !== null) sizing.perId = answer.cost.requested / batch.length;
    batch.forEach((id, index) => {
      reading.set(id, toValues(answer.data?.nodes[index], locationId));
    });
  }

  // The first batch alone (then again while it is refused), so the rest are sized from its answer.
  while (pending.length > 0 && reading.size === 0) await readBatch(pending.splice(0, batchSize()));
  // READ_CONCURRENCY workers; a refused batch goes back to `pending` for whichever is free.
  const drain = async (): Promise<void> => {
    while (pending.length > 0) await readBatch(pending.splice(0, batchSize()));
  };
  await Promise.all(Array.from({ length: READ_CONCURRENCY }, drain));
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
    prepare: async () => ({ query }),
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
