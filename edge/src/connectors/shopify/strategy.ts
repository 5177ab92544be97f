import type { BulkOperationType } from "./bulk-slots.ts";

/**
 * What a store's past calls taught about its costs, kept per store for the app's lifetime (every
 * run of every user of that store learns into it): the points a variant read costs per id (from
 * Shopify's `requestedQueryCost`) and how long its last bulk operation of each type took from
 * launch to a parsed result (as this app saw it: Shopify's run, our polls, the download).
 */
export interface StoreCosts {
  readCostPerId: Map<number, number>;
  bulk: Partial<Record<BulkOperationType, { ms: number; objects: number }>>;
}

export interface StoreCostBook {
  forStore(storeName: string): StoreCosts;
}

export function createStoreCostBook(): StoreCostBook {
  const stores = new Map<string, StoreCosts>();
  return {
    forStore(storeName) {
      const key = storeName.toLowerCase();
      let costs = stores.get(key);
      if (!costs) {
        costs = { readCostPerId: new Map(), bulk: {} };
        stores.set(key, costs);
      }
      return costs;
    },
  };
}

/**
 * A bulk operation's time before any was seen: Shopify documents none. A small export takes a few
 * seconds there; guessing high only keeps mid-sized runs on paced calls until one bulk run is seen.
 */
const UNSEEN_BULK_MS = 3_000;
/** A bulk mutation's time per JSONL line beyond the last one seen (Shopify runs them one by one). */
const BULK_MS_PER_LINE = 2;

/**
 * Expected milliseconds of a bulk operation of `type` with about `objects` lines (unknown: the
 * last one's). A mutation not yet seen is expected to take what this store's last export took
 * (the same queue and polls; its lines are few beside a whole store's), else a few seconds.
 */
export function expectedBulkMs(costs: StoreCosts, type: BulkOperationType, objects?: number): number {
  const seen =
    costs.bulk[type] ??
    (type === "MUTATION" && costs.bulk.QUERY ? { ...costs.bulk.QUERY, objects: 0 } : undefined);
  if (!seen) return UNSEEN_BULK_MS + (objects ?? 0) * BULK_MS_PER_LINE;
  if (objects === undefined || objects <= seen.objects) return seen.ms;
  return seen.ms + (objects - seen.objects) * BULK_MS_PER_LINE;
}

export function recordBulk(
  costs: StoreCosts,
  run: { type: BulkOperationType; ms: number; objects: number },
): void {
  costs.bulk[run.type] = { ms: run.ms, objects: run.objects };
}

/**
 * Expected milliseconds of `calls` paced calls costing `points` together, `concurrency` at a
 * time: the bucket's refill for whatever the bucket does not hold now (Shopify's last
 * throttleStatus, refilled since), and the round trips themselves.
 */
export function pacedMs(
  work: { points: number; calls: number; concurrency: number },
  bucket: { available: number; restoreRate: number },
  roundTripMs: number,
): number {
  const refill = (Math.max(0, work.points - bucket.available) / bucket.restoreRate) * 1000;
  return refill + Math.ceil(work.calls / work.concurrency) * roundTripMs;
}

/** Before Shopify has answered once: the documented standard plan (2,000 points, 100/s). */
export const UNSEEN_BUCKET = { available: 2_000, restoreRate: 100 };
