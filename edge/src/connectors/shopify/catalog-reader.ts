import type { ShopifyLocation } from "@stockbridge/shared";
import { toCents } from "@stockbridge/shared";
import { readLines } from "../stream-text.ts";
import type { ConnectorClock, FetchLike } from "../transport.ts";
import { followBulkOperation, isBulkLimitRefusal, waitForBulkSlot } from "./bulk-operations.ts";
import type { BulkSlot, StoreBulkSlots } from "./bulk-slots.ts";
import {
  RUN_BULK_QUERY,
  VARIANT_COUNT_QUERY,
  variantBulkQuery,
  variantPageQuery,
} from "./catalog-queries.ts";
import { type ConnectionPage, countVariants, readCostSizedPages } from "./cost-sized-pages.ts";
import { type ShopifyClient, ShopifyError } from "./graphql-client.ts";
import { activeLocations, readLocations } from "./locations.ts";
import { recordBulk, type StoreCosts } from "./strategy.ts";

/** A variant's quantities at one location where it is stocked. */
export interface LocationLevel {
  locationId: string;
  name: string;
  available: number | null;
  onHand: number | null;
}

/** One storefront variant as the catalog keeps it (money in cents, quantities at the primary location). */
export interface ShopifyVariantRow {
  variantId: string;
  productId: string;
  inventoryItemId: string | null;
  title: string;
  sku: string;
  priceCents: number;
  compareAtPriceCents: number | null;
  isPhysical: boolean;
  tracked: boolean;
  /** The primary location, when the item is stocked there. */
  locationId: string | null;
  available: number | null;
  onHand: number | null;
  /** Every active location where the item is stocked, the primary first. */
  levels: LocationLevel[];
}

export interface ShopifyCatalogSummary {
  mode: "paged" | "bulk";
  /** Variants read with an SKU (the catalog) and without one (kept out: they cannot be mapped). */
  variants: number;
  withoutSku: number;
  locationId: string | null;
  /** Every location of the store (deactivated ones too), kept with the catalog. */
  locations: ShopifyLocation[];
  countReported: number | null;
  /** Time spent waiting for Shopify to prepare the bulk export, in ms. */
  exportWaitMs: number;
}

export interface ReadShopifyCatalogOptions {
  /** For the bulk result download (a signed storage URL, no Shopify token). */
  fetch: FetchLike;
  clock: ConnectorClock;
  /** Above this many variants the read is one bulk query instead of pages. */
  bulkThreshold: number;
  /** The store's bulk operation slots, shared with every other job (syncs too). */
  bulkSlots: StoreBulkSlots;
  /** Rows in chunks, in order; the next chunk is read only after this resolves (flat memory). */
  onRows(rows: ShopifyVariantRow[]): Promise<void>;
  onProgress?(progress: { done: number; total: number | null; phase: string }): void;
  /** Where an earlier attempt of this pull got to (its rows so far are kept): read on from there. */
  resumeFrom?: ShopifyPullCheckpoint | null;
  /** Told once the bulk export is started, and after each page's rows were kept: save it to resume. */
  onCheckpoint?(checkpoint: ShopifyPullCheckpoint): Promise<void>;
  /**
   * What this store's runs learn of its costs (shared with its syncs): an export this pull started
   * records how long it took, so the next sync weighs a bulk read by this store's time, not a guess.
   */
  costs?: StoreCosts;
}

/**
 * How far a pull got: the bulk export it started (a resumed pull follows the same one and reads its
 * file again), or the cursor after the last page whose rows were kept, with the counts so far.
 */
export type ShopifyPullCheckpoint =
  | { mode: "bulk"; operationId: string }
  | { mode: "paged"; after: string; variants: number; withoutSku: number };

const CHUNK = 500;

/**
 * Reads every variant of the store: pages sized to the query cost for small stores, one bulk query
 * (streamed JSONL) for large ones, decided by `productVariantsCount`.
 */
export async function readShopifyCatalog(
  client: ShopifyClient,
  options: ReadShopifyCatalogOptions,
): Promise<ShopifyCatalogSummary> {
  const locations = await readLocations(client.execute);
  const stocking = activeLocations(locations);
  const count = await variantCount(client);
  const summary: ShopifyCatalogSummary = {
    mode: "paged",
    variants: 0,
    withoutSku: 0,
    locationId: stocking.find((location) => location.isPrimary)?.id ?? null,
    locations,
    countReported: count,
    exportWaitMs: 0,
  };
  const sink = createSink(summary, options, { total: count, locations: stocking });
  const from = options.resumeFrom ?? null;
  if (from?.mode === "paged") {
    summary.variants = from.variants;
    summary.withoutSku = from.withoutSku;
  } else if (count === null || count > options.bulkThreshold) {
    // Waits while a sync's read or another pull holds every slot; pages if none comes free in time.
    const slot = await waitForBulkSlot(options.bulkSlots, {
      type: "QUERY",
      servedVersion: client.servedVersion,
      clock: options.clock,
    });
    if (slot) {
      try {
        // The export an earlier attempt started is followed, not started again (it may be done).
        const launchedAt = options.clock.now();
        const started = from?.mode === "bulk" ? from.operationId : await startBulk(client, stocking);
        if (started) {
          summary.mode = "bulk";
          if (from?.mode !== "bulk") await options.onCheckpoint?.({ mode: "bulk", operationId: started });
          const objects = await readBulk(client, { bulk: { id: started, slot }, options, sink, summary });
          await sink.flush();
          // Launch to the last row parsed, as a sync's bulk read counts it. A resumed pull followed an
          // export launched before it: its time is unknown.
          if (options.costs && from?.mode !== "bulk")
            recordBulk(options.costs, { type: "QUERY", ms: options.clock.now() - launchedAt, objects });
          return summary;
        }
      } finally {
        await slot.release();
      }
    }
  }
  await readPages(client, {
    locations: stocking,
    sink,
    left: () => (count === null ? null : count - summary.variants - summary.withoutSku),
    after: from?.mode === "paged" ? from.after : null,
    onPage: (after) =>
      options.onCheckpoint?.({
        mode: "paged",
        after,
        variants: summary.variants,
        withoutSku: summary.withoutSku,
      }) ?? Promise.resolve(),
  });
  await sink.flush();
  return summary;
}

async function variantCount(client: ShopifyClient): Promise<number | null> {
  const counted = await countVariants(client.execute, { query: VARIANT_COUNT_QUERY, what: "the request" });
  return counted?.count ?? null;
}

interface Sink {
  add(node: unknown): Promise<void>;
  flush(): Promise<void>;
  phase(text: string): void;
}

function createSink(
  summary: ShopifyCatalogSummary,
  options: ReadShopifyCatalogOptions,
  read: { total: number | null; locations: readonly ShopifyLocation[] },
): Sink {
  const { total } = read;
  let chunk: ShopifyVariantRow[] = [];
  let phase = "Reading Shopify variants";
  const report = () => options.onProgress?.({ done: summary.variants + summary.withoutSku, total, phase });
  return {
    async add(node) {
      const row = toRow(node, read.locations);
      if (!row) {
        summary.withoutSku += 1;
        return;
      }
      summary.variants += 1;
      chunk.push(row);
      if (chunk.length >= CHUNK) await this.flush();
    },
    async flush() {
      if (chunk.length > 0) {
        const rows = chunk;
        chunk = [];
        await options.onRows(rows);
      }
      report();
    },
    phase(text) {
      phase = text;
      report();
    },
  };
}

interface PageAnswer {
  productVariants: ConnectionPage<unknown>;
}

async function readPages(
  client: ShopifyClient,
  read: {
    locations: readonly ShopifyLocation[];
    sink: Sink;
    after: string | null;
    /** Variants not read yet, by the store's count (null when unknown). */
    left(): number | null;
    onPage(after: string): Promise<void>;
  },
) {
  const { locations, sink } = read;
  await readCostSizedPages<unknown, PageAnswer>(client.execute, {
    query: variantPageQuery(locations.length),
    variables: Object.fromEntries(locations.map((location, index) => [`l${index}`, location.id])),
    pageOf: (data) => data.productVariants,
    // Three points per variant and two per location level; corrected by the first answer.
    perNode: 3 + 2 * locations.length,
    bucketSize: () => client.throttleStatus()?.maximumAvailable ?? null,
    after: read.after,
    left: read.left,
    what: "the variant page",
    onPage: async (nodes, after) => {
      for (const node of nodes) await sink.add(node);
      await sink.flush();
      // Saved only once the page's rows are kept (the sink flushed them).
      if (after) await read.onPage(after);
      return true;
    },
  });
}

/** The bulk operation's id, or null when another bulk query is running (the caller pages instead). */
async function startBulk(
  client: ShopifyClient,
  locations: readonly ShopifyLocation[],
): Promise<string | null> {
  const query = variantBulkQuery(locations.map((location) => location.id));
  const answer = await client.request<{
    bulkOperationRunQuery: { bulkOperation: { id: string } | null; userErrors: { message: string }[] };
  }>(RUN_BULK_QUERY, { query }, { retry: false });
  const result = answer.bulkOperationRunQuery;
  if (result.bulkOperation) return result.bulkOperation.id;
  const messages = result.userErrors.map((error) => error.message).join("; ");
  if (isBulkLimitRefusal(messages)) return null;
  throw new ShopifyError(`Shopify refused the bulk export: ${messages || "no reason given"}`, "graphql");
}

async function readBulk(
  client: ShopifyClient,
  read: {
    bulk: { id: string; slot: BulkSlot };
    options: ReadShopifyCatalogOptions;
    sink: Sink;
    summary: ShopifyCatalogSummary;
  },
) {
  const { bulk, options, sink, summary } = read;
  sink.phase("Shopify is preparing the export");
  // Polls cost a point each; one a second at most keeps the wait close to the export's own time.
  const state = await followBulkOperation(client.execute, {
    id: bulk.id,
    type: "QUERY",
    servedVersion: client.servedVersion,
    clock: options.clock,
    slot: bulk.slot,
    firstPollMs: 200,
    maxPollMs: 1_000,
    maxWaitMs: 24 * 60 * 60_000,
    onWait: (milliseconds) => {
      summary.exportWaitMs += milliseconds;
    },
  });
  if (state.status !== "COMPLETED") {
    throw new ShopifyError(
      `the bulk export ended ${state.status}${state.errorCode ? ` (${state.errorCode})` : ""}`,
      "unavailable",
    );
  }
  if (!state.url) return state.objectCount; // no objects: an empty store
  sink.phase("Downloading Shopify variants");
  const response = await options.fetch(state.url, { method: "GET" });
  if (!response.ok || !response.body)
    throw new ShopifyError(`downloading the bulk export failed (HTTP ${response.status})`, "unavailable");
  for await (const line of readLines(response.body)) {
    const node: unknown = JSON.parse(line);
    // Only top-level variant lines; nested connection lines would carry __parentId (none are asked for).
    if (typeof node === "object" && node !== null && !("__parentId" in node)) await sink.add(node);
  }
  return state.objectCount;
}

type Level = { quantities: { name: string; quantity: number }[] } | null | undefined;

function toRow(node: unknown, locations: readonly ShopifyLocation[]): ShopifyVariantRow | null {
  const variant = node as {
    id: string;
    sku: string | null;
    title: string | null;
    price: string;
    compareAtPrice: string | null;
    product: { id: string; title: string } | null;
    inventoryItem:
      | ({ id: string; tracked: boolean; requiresShipping: boolean } & Record<string, unknown>)
      | null;
  };
  const sku = variant.sku?.trim() ?? "";
  if (!sku) return null;
  const item = variant.inventoryItem;
  const levels: LocationLevel[] = [];
  locations.forEach((location, index) => {
    const level = item?.[`l${index}`] as Level;
    if (!level) return;
    const quantity = (name: string) =>
      level.quantities.find((entry) => entry.name === name)?.quantity ?? null;
    levels.push({
      locationId: location.id,
      name: location.name,
      available: quantity("available"),
      onHand: quantity("on_hand"),
    });
  });
  const primary = levels.find((level) => locations.some((l) => l.isPrimary && l.id === level.locationId));
  const productTitle = variant.product?.title ?? "";
  const variantTitle = variant.title && variant.title !== "Default Title" ? variant.title : "";
  return {
    variantId: variant.id,
    productId: variant.product?.id ?? "",
    inventoryItemId: item?.id ?? null,
    title: [productTitle, variantTitle].filter(Boolean).join(" - "),
    sku,
    priceCents: toCents(Number(variant.price)),
    compareAtPriceCents: variant.compareAtPrice === null ? null : toCents(Number(variant.compareAtPrice)),
    isPhysical: item?.requiresShipping ?? true,
    tracked: item?.tracked ?? false,
    locationId: primary?.locationId ?? null,
    available: primary?.available ?? null,
    onHand: primary?.onHand ?? null,
    levels,
  };
}
