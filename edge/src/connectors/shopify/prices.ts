import { record } from "../../lib/json.ts";
import { createSemaphore } from "../transport.ts";
import { runBulkOperation, stageJsonl } from "./bulk-run.ts";
import { centsToMoney, text, toGid } from "./gid.ts";
import { ShopifyError } from "./graphql-client.ts";
import type { ShopifyPort } from "./port.ts";
import { expectedBulkMs, pacedMs, UNSEEN_BUCKET } from "./strategy.ts";
import {
  BULK_RUN_MUTATION,
  BULK_VARIANTS_UPDATE_INNER_MUTATION,
  VARIANTS_BULK_UPDATE_MUTATION,
} from "./sync-operations.ts";

export interface PriceWrite {
  mappingId: string;
  productId: string;
  variantId: string;
  priceCents?: number;
  /** null clears the compare-at price; absent leaves it. */
  compareAtCents?: number | null;
}

/** Per mapping: null when written, else Shopify's own error text. */
export type WriteErrors = Map<string, string | null>;

const WRITE_CONCURRENCY = 4;
/** Shopify caps input arrays at 250 items. */
const VARIANTS_PER_CALL = 250;

export interface PriceWriteOptions {
  runId: string;
  /** Above this many product calls the writes run as one bulk mutation; left out: chosen by cost. */
  bulkThreshold?: number;
  /** Points other writes of the run spend from the same bucket meanwhile (the quantity calls). */
  sharedPoints?: number;
}

/** Points of one product call: Shopify's documented mutation cost. */
const CALL_POINTS = 10;
/** Staged upload and launch (10 each) and a poll or two. */
const BULK_POINTS = 22;

interface Group {
  productId: string;
  writes: PriceWrite[];
}

/**
 * Prices and compare-at prices, one `productVariantsBulkUpdate` per product (partial updates on, so
 * a bad variant fails alone), or the same calls as one bulk mutation from a staged JSONL file, which
 * costs a handful of points instead of ten per product but takes the time of a bulk operation:
 * whichever is expected to take less (`choosePriceWrite`), unless `bulkThreshold` decides.
 */
export async function writePrices(
  port: ShopifyPort,
  writes: PriceWrite[],
  options: PriceWriteOptions,
): Promise<WriteErrors> {
  const groups = groupByProduct(writes);
  const outcome: WriteErrors = new Map();
  const bulk =
    options.bulkThreshold !== undefined
      ? groups.length > options.bulkThreshold
      : choosePriceWrite(port, groups.length, options.sharedPoints ?? 0) === "bulk";
  if (bulk) {
    try {
      if (await writeByBulk(port, { groups, runId: options.runId, outcome })) return outcome;
    } catch {
      // A bulk run that fails as a whole (file storage, FAILED status) is redone call by call:
      // absolute prices make a second write harmless.
      outcome.clear();
    }
  }
  const semaphore = createSemaphore(WRITE_CONCURRENCY);
  await Promise.all(groups.map((group) => semaphore.run(() => writeGroup(port, group, outcome))));
  return outcome;
}

/**
 * `calls` product calls paced by the bucket as Shopify last described it (with `sharedPoints` spent
 * beside them), against one bulk mutation as long as this store's last one took.
 */
function choosePriceWrite(port: ShopifyPort, calls: number, sharedPoints: number): "calls" | "bulk" {
  const bucket = port.bucket() ?? UNSEEN_BUCKET;
  const roundTrip = port.roundTripMs();
  const paced = pacedMs(
    { points: calls * CALL_POINTS + sharedPoints, calls, concurrency: WRITE_CONCURRENCY },
    bucket,
    roundTrip,
  );
  const bulk =
    expectedBulkMs(port.costs, "MUTATION", calls) +
    pacedMs({ points: BULK_POINTS + sharedPoints, calls: 3, concurrency: 1 }, bucket, roundTrip);
  return bulk < paced ? "bulk" : "calls";
}

function groupByProduct(writes: PriceWrite[]): Group[] {
  const byProduct = new Map<string, PriceWrite[]>();
  for (const write of writes) {
    const list = byProduct.get(write.productId) ?? [];
    list.push(write);
    byProduct.set(write.productId, list);
  }
  const groups: Group[] = [];
  for (const [productId, list] of byProduct) {
    for (let start = 0; start < list.length; start += VARIANTS_PER_CALL)
      groups.push({ productId, writes: list.slice(start, start + VARIANTS_PER_CALL) });
  }
  return groups;
}

function variablesOf(group: Group) {
  return {
    productId: toGid("Product", group.productId),
    variants: group.writes.map((write) => {
      const input: Record<string, unknown> = { id: toGid("ProductVariant", write.variantId) };
      if (write.priceCents !== undefined) input.price = centsToMoney(write.priceCents);
      if (write.compareAtCents !== undefined)
        input.compareAtPrice = write.compareAtCents === null ? null : centsToMoney(write.compareAtCents);
      return input;
    }),
  };
}

async function writeGroup(port: ShopifyPort, group: Group, outcome: WriteErrors): Promise<void> {
  try {
    const answer = await port.execute<{ productVariantsBulkUpdate: unknown }>(
      VARIANTS_BULK_UPDATE_MUTATION,
      variablesOf(group),
    );
    if (answer.errors.length > 0)
      return failAll(group, answer.errors.map((error) => error.message).join("; "), outcome);
    settle(group, record(answer.data?.productVariantsBulkUpdate), outcome);
  } catch (error) {
    failAll(group, error instanceof ShopifyError ? error.message : String(error), outcome);
  }
}

/** Maps `userErrors` (field `["variants", "3", "price"]`) back to the variant they name. */
function settle(group: Group, payload: Record<string, unknown> | null, outcome: WriteErrors): void {
  const byIndex = new Map<number, string[]>();
  const general: string[] = [];
  for (const entry of (payload?.userErrors as unknown[] | undefined) ?? []) {
    const error = record(entry);
    const message = text(error?.message) ?? "Shopify refused the change";
    const field = Array.isArray(error?.field) ? error.field : [];
    const index = field[0] === "variants" ? Number(field[1]) : Number.NaN;
    if (Number.isInteger(index) && index >= 0 && index < group.writes.length)
      byIndex.set(index, [...(byIndex.get(index) ?? []), message]);
    else general.push(message);
  }
  if (!payload) general.push("Shopify answered without a result");
  group.writes.forEach((write, index) => {
    const messages = [...general, ...(byIndex.get(index) ?? [])];
    outcome.set(write.mappingId, messages.length > 0 ? messages.join("; ") : null);
  });
}

function failAll(group: Group, message: string, outcome: WriteErrors): void {
  for (const write of group.writes) outcome.set(write.mappingId, message);
}

/** False when every bulk mutation slot of the store is taken (the caller writes call by call). */
async function writeByBulk(
  port: ShopifyPort,
  write: { groups: Group[]; runId: string; outcome: WriteErrors },
): Promise<boolean> {
  const { groups, runId, outcome } = write;
  const answered = new Set<number>();
  const ran = await runBulkOperation(
    port,
    {
      type: "MUTATION",
      launch: BULK_RUN_MUTATION,
      // Staged only once a slot is held: no upload for an operation that cannot start.
      prepare: async () => {
        const jsonl = `${groups.map((group) => JSON.stringify(variablesOf(group))).join("\n")}\n`;
        return {
          mutation: BULK_VARIANTS_UPDATE_INNER_MUTATION,
          stagedUploadPath: await stageJsonl(port, `stockbridge-prices-${runId}.jsonl`, jsonl),
          clientIdentifier: runId,
        };
      },
    },
    (line) => {
      const row = record(JSON.parse(line));
      const index = Number(row?.__lineNumber);
      const group = groups[index];
      if (!row || !group) return;
      answered.add(index);
      const errors = Array.isArray(row.errors)
        ? row.errors.map((error) => text(record(error)?.message) ?? "error")
        : [];
      if (errors.length > 0) failAll(group, errors.join("; "), outcome);
      else settle(group, record(record(row.data)?.productVariantsBulkUpdate), outcome);
    },
  );
  if (!ran) return false;
  groups.forEach((group, index) => {
    if (!answered.has(index)) failAll(group, "Shopify's bulk result has no line for this product", outcome);
  });
  return true;
}
