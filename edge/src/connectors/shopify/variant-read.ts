import { record } from "../../lib/json.ts";
import { runBulkOperation } from "./bulk-run.ts";
import { moneyToCents, text, toGid } from "./gid.ts";
import { ShopifyError } from "./graphql-client.ts";
import type { ShopifyPort } from "./port.ts";
import { expectedBulkMs, pacedMs, UNSEEN_BUCKET } from "./strategy.ts";
import {
  BULK_RUN_QUERY_MUTATION,
  bulkVariantsQuery,
  syncReadCostPerId,
  syncVariantsQuery,
} from "./sync-operations.ts";
import { type ShopifyReading, VariantTable } from "./variant-table.ts";

/** Reads in flight at once; the transport still paces each by the bucket. */
const READ_CONCURRENCY = 4;
/** Shopify's single-query cap (every plan) until an answer names another, and its input-array cap. */
const MAX_QUERY_COST = 1_000;
const MAX_IDS = 250;

/** A variant's quantities at one location where it is stocked. */
export interface ShopifyLevel {
  locationId: string;
  available: number | null;
  onHand: number | null;
}

/**
 * Shopify's current values of one variant: `locationId` / `available` / `onHand` at the first
 * location read (null when not stocked there), `levels` at every location read where it is stocked.
 */
export interface ShopifyValues {
  variantId: string;
  productId: string;
  priceCents: number;
  compareAtCents: number | null;
  inventoryItemId: string | null;
  tracked: boolean;
  isBundle: boolean;
  locationId: string | null;
  available: number | null;
  onHand: number | null;
  levels: ShopifyLevel[];
}

export type { ShopifyReading };

/** How variants are read: `nodes(ids:)` batches paced by the bucket, or one bulk query over the whole store. */
export type VariantReadStrategy = "nodes" | "bulk";

/**
 * Fresh values of the given variants at the given locations (the first one's also as the values'
 * `locationId` / `available` / `onHand`): by `nodes(ids:)` batches or by one bulk query over the
 * whole store (outside the cost bucket; only its launch and polls cost points), whichever is
 * expected to take less time (`chooseVariantRead`) unless `strategy` says which. Once the first
 * batch has told what a read really costs, the choice is made again for the rest.
 */
export async function readShopifyVariants(
  port: ShopifyPort,
  variantIds: string[],
  options: { strategy?: VariantReadStrategy; locations: readonly string[] },
): Promise<ShopifyReading> {
  const ids = [...new Set(variantIds)];
  const byCost = options.strategy === undefined;
  const strategy = options.strategy ?? chooseVariantRead(port, ids.length, options.locations.length);
  if (strategy === "nodes") {
    const { reading, rest } = await readByNodes(port, {
      variantIds: ids,
      locations: options.locations,
      reconsider: byCost
        ? (left) => chooseVariantRead(port, left, options.locations.length) === "bulk"
        : undefined,
    });
    if (rest.length === 0) return reading;
    await readByBulk(port, rest, { locations: options.locations, into: reading });
    return reading;
  }
  return readByBulk(port, ids, { locations: options.locations, into: new VariantTable(options.locations) });
}

/**
 * The read expected to take less time: `count` ids at the points per id Shopify last asked for
 * this read (the documented rules before it answered), paced by the bucket it last described, or
 * one bulk query, as long as this store's last one took (a few seconds before one was seen).
 */
function chooseVariantRead(port: ShopifyPort, count: number, locationCount: number): VariantReadStrategy {
  if (count === 0) return "nodes";
  const perId = port.costs.readCostPerId.get(locationCount) ?? syncReadCostPerId(locationCount);
  const batch = Math.max(1, Math.min(MAX_IDS, Math.floor(MAX_QUERY_COST / perId)));
  const bucket = port.bucket() ?? UNSEEN_BUCKET;
  const roundTrip = port.roundTripMs();
  const paged = pacedMs(
    { points: count * perId, calls: Math.ceil(count / batch), concurrency: READ_CONCURRENCY },
    bucket,
    roundTrip,
  );
  // Launch and polls cost a few points; the slot wait is not foreseeable (a pull may hold it).
  const bulk = expectedBulkMs(port.costs, "QUERY") + 2 * roundTrip;
  return bulk < paged ? "bulk" : "nodes";
}

/** The variants by one bulk query, into `into` (ids not found: null); by batches when no bulk query can start. */
async function readByBulk(
  port: ShopifyPort,
  ids: string[],
  read: { locations: readonly string[]; into: VariantTable },
): Promise<VariantTable> {
  const { locations, into } = read;
  // GID -> the id as asked for: the rows are kept under the caller's strings.
  const wanted = new Map(ids.map((id) => [toGid("ProductVariant", id), id]));
  const ran = await readAllByBulk(port, {
    locations,
    wants: (gid) => wanted.has(gid),
    onVariant: (values) => {
      const id = wanted.get(values.variantId);
      if (id === undefined) return;
      into.set(id, values);
      wanted.delete(values.variantId);
    },
  });
  // No bulk slot of the store came free in time (pulls, other syncs): read by batches instead.
  if (!ran) return (await readByNodes(port, { variantIds: ids, locations, into })).reading;
  for (const id of wanted.values()) into.set(id, null);
  return into;
}

/**
 * `nodes(ids:)` in batches as large as Shopify's cost cap allows. The size is learned, not assumed:
 * each answer's `requestedQueryCost` gives the points per id, a MAX_COST_EXCEEDED refusal gives the
 * cost and the cap, and the refused batch goes back split to the new size. The first batch runs
 * alone so the others start from what it taught; `reconsider`, told how many ids are left, may then
 * stop the reading there (`rest`: the ids not read).
 */
export async function readByNodes(
  port: ShopifyPort,
  read: {
    variantIds: string[];
    locations: readonly string[];
    reconsider?: (left: number) => boolean;
    /** Where the values go (a new table unless given). */
    into?: VariantTable;
  },
): Promise<{ reading: VariantTable; rest: string[] }> {
  const { variantIds, locations } = read;
  const reading = read.into ?? new VariantTable(locations);
  let answered = 0;
  const pending = [...new Set(variantIds)];
  const sizing = {
    perId: port.costs.readCostPerId.get(locations.length) ?? syncReadCostPerId(locations.length),
    maxCost: MAX_QUERY_COST,
  };
  const batchSize = () => Math.max(1, Math.min(MAX_IDS, Math.floor(sizing.maxCost / sizing.perId)));
  const query = syncVariantsQuery(locations.length);
  const levelVariables = Object.fromEntries(locations.map((location, index) => [`l${index}`, location]));

  async function readBatch(batch: string[]): Promise<void> {
    const answer = await port.execute<{ nodes: unknown[] }>(
      query,
      { ids: batch.map((id) => toGid("ProductVariant", id)), ...levelVariables },
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
      port.costs.readCostPerId.set(locations.length, sizing.perId);
      pending.push(...batch);
      return;
    }
    if (answer.errors.length > 0 || !answer.data) {
      throw new ShopifyError(
        `Shopify rejected the variant read: ${answer.errors.map((error) => error.message).join("; ") || "no data"}`,
        "graphql",
      );
    }
    if (answer.cost.requested !== null) {
      sizing.perId = answer.cost.requested / batch.length;
      port.costs.readCostPerId.set(locations.length, sizing.perId);
    }
    batch.forEach((id, index) => {
      reading.set(id, toValues(answer.data?.nodes[index], locations));
    });
    answered += batch.length;
  }

  // The first batch alone (then again while it is refused), so the rest are sized from its answer.
  while (pending.length > 0 && answered === 0) await readBatch(pending.splice(0, batchSize()));
  if (pending.length > 0 && read.reconsider?.(pending.length)) return { reading, rest: pending };
  // READ_CONCURRENCY workers; a refused batch goes back to `pending` for whichever is free.
  const drain = async (): Promise<void> => {
    while (pending.length > 0) await readBatch(pending.splice(0, batchSize()));
  };
  await Promise.all(Array.from({ length: READ_CONCURRENCY }, drain));
  return { reading, rest: [] };
}

/**
 * Every variant of the store by one bulk query, the ones it `wants` (by GID) handed to `onVariant`
 * as the export streams in: the store's other variants would make memory grow with the store
 * rather than with the run. False when a bulk query cannot start now.
 */
function readAllByBulk(
  port: ShopifyPort,
  read: {
    locations: readonly string[];
    wants: (gid: string) => boolean;
    onVariant: (values: ShopifyValues) => void;
  },
): Promise<boolean> {
  const query = bulkVariantsQuery(read.locations);
  return runBulkOperation(
    port,
    { type: "QUERY", launch: BULK_RUN_QUERY_MUTATION, prepare: async () => ({ query }) },
    (line) => {
      const node: unknown = JSON.parse(line);
      if (!read.wants(text(record(node)?.id) ?? "")) return;
      const parsed = toValues(node, read.locations);
      if (parsed) read.onVariant(parsed);
    },
  );
}

/** One `ProductVariant` node as the engine compares it (levels aliased `l0`, `l1`, ...); null for a missing node. */
function toValues(node: unknown, locations: readonly string[]): ShopifyValues | null {
  const variant = record(node);
  const id = text(variant?.id);
  if (!variant || !id) return null;
  const item = record(variant.inventoryItem);
  const levels: ShopifyLevel[] = [];
  locations.forEach((locationId, index) => {
    const level = record(item?.[`l${index}`]);
    if (!level) return;
    const quantities = new Map<string, number>();
    for (const entry of (level.quantities as unknown[] | undefined) ?? []) {
      const quantity = record(entry);
      if (typeof quantity?.name === "string" && typeof quantity.quantity === "number")
        quantities.set(quantity.name, quantity.quantity);
    }
    levels.push({
      locationId,
      available: quantities.get("available") ?? 0,
      onHand: quantities.get("on_hand") ?? 0,
    });
  });
  const first = levels[0]?.locationId === locations[0] ? levels[0] : undefined;
  return {
    variantId: id,
    productId: text(record(variant.product)?.id) ?? "",
    priceCents: moneyToCents(variant.price) ?? 0,
    compareAtCents: moneyToCents(variant.compareAtPrice),
    inventoryItemId: text(item?.id),
    tracked: item?.tracked === true,
    isBundle: variant.requiresComponents === true,
    locationId: first?.locationId ?? null,
    available: first?.available ?? null,
    onHand: first?.onHand ?? null,
    levels,
  };
}
