import type { ExecutionHistory, SyncJobResult } from "@stockbridge/shared";
import type { PriceWrite } from "../connectors/shopify/prices.ts";
import {
  type QuantityItem,
  type QuantityOutcome,
  quantityWritePoints,
} from "../connectors/shopify/quantities.ts";
import type { ShopifyStore } from "../connectors/shopify/store.ts";
import type { ShopifyReading } from "../connectors/shopify/variant-read.ts";
import { NotFoundError } from "../errors.ts";
import type { HeldRepo, StoredHeldChange } from "../history/held-repo.ts";
import { runStatus } from "../history/outcome.ts";
import type { HistoryRepo, RunFailure } from "../history/repo.ts";
import { DEFAULT_RUN_LEASE_MS, keepRunAlive } from "../history/run-lease.ts";
import { describe, readStrategy, type SyncConnectors, type SyncProgress } from "./engine.ts";
import { afterWrites, decide, notWritten, type Outcome, quantityOutcome } from "./held-outcomes.ts";
import type { ShopifyValues } from "./plan.ts";
import type { CacheUpdate, SyncRepo } from "./repo.ts";

export interface HeldApplyDeps {
  held: HeldRepo;
  history: HistoryRepo;
  repo: Pick<SyncRepo, "applyCache">;
  connectors: Pick<SyncConnectors, "shopify">;
  now: () => Date;
  bulkReadThreshold?: number;
  bulkPriceThreshold?: number;
  runLeaseMs?: number;
  log?: (line: string) => void;
}

/**
 * Applies an approved held plan, exactly: each change is written only where Shopify still holds the
 * value the plan saw. Prices are read again and compared just before they are written (Shopify has
 * no compare-and-set for them); quantities are written with Shopify's own compare-and-set. A change
 * made in Shopify since is reported per item, never overwritten, and the run's entry ends with the
 * outcome (success, failures and skips of the whole run, including what needed no write when held).
 */
export function createHeldApplier(deps: HeldApplyDeps) {
  const runLeaseMs = deps.runLeaseMs ?? DEFAULT_RUN_LEASE_MS;

  async function applyHeld(input: {
    userId: string;
    historyId: string;
    jobId: string;
    onProgress?: (progress: SyncProgress) => void;
  }): Promise<SyncJobResult> {
    const { userId, historyId } = input;
    const entry = await deps.history.get(userId, historyId);
    if (!entry) throw new NotFoundError("Execution history entry not found");
    const stop = keepRunAlive(deps.history, historyId, { leaseMs: runLeaseMs, now: deps.now, log: deps.log });
    try {
      await deps.held.attachJob(historyId, input.jobId);
      return await apply({ userId, entry, onProgress: input.onProgress });
    } catch (error) {
      await deps.history.finish({
        id: historyId,
        userId,
        endDate: deps.now().toISOString(),
        successCount: entry.successCount,
        failureCount: entry.failureCount,
        skippedCount: entry.skippedCount,
        status: "failed",
        error: describe(error),
        // finish replaces the run's failure and skip rows: the ones found when it was planned stay.
        failures: entry.failedMappings,
        skips: entry.skippedMappings,
      });
      throw error;
    } finally {
      stop();
    }
  }

  async function apply(run: {
    userId: string;
    entry: ExecutionHistory;
    onProgress?: (progress: SyncProgress) => void;
  }): Promise<SyncJobResult> {
    const { userId, entry } = run;
    const changes = await deps.held.all(userId, entry._id);
    const progress = (phase: string, done: number) =>
      run.onProgress?.({ phase, done, total: changes.length });
    progress("Reading Shopify", 0);
    const store = await deps.connectors.shopify(userId);
    const readings = await readCurrent(store, changes);

    const outcomes = new Map<number, Outcome>();
    const prices = new Map<string, PriceWrite & { seqs: number[] }>();
    const quantities: QuantityItem[] = [];
    for (const change of changes) {
      const values = readings.valuesOf(change);
      const decided = decide(change, values);
      if (decided) {
        outcomes.set(change.seq, decided);
        continue;
      }
      if (change.field === "quantity") {
        // Keyed by the change's place in the plan: a mapping could hold one per location.
        quantities.push({
          mappingId: String(change.seq),
          variantId: change.variantId,
          name: change.quantityName ?? "available",
          inventoryItemId: change.inventoryItemId ?? "",
          locationId: change.locationId ?? "",
          from: change.from ?? 0,
          to: change.to ?? 0,
        });
        continue;
      }
      const write = prices.get(change.mappingId) ?? {
        mappingId: change.mappingId,
        productId: change.productId,
        variantId: change.variantId,
        seqs: [],
      };
      if (change.field === "price") write.priceCents = change.to ?? 0;
      else write.compareAtCents = change.to;
      write.seqs.push(change.seq);
      prices.set(change.mappingId, write);
    }

    progress("Writing to Shopify", 0);
    const [priceErrors, quantityOutcomes] = await Promise.all([
      prices.size > 0
        ? store.writePrices([...prices.values()], {
            bulkThreshold: deps.bulkPriceThreshold,
            sharedPoints: quantityWritePoints(quantities.length),
            runId: entry._id,
          })
        : new Map<string, string | null>(),
      quantities.length > 0
        ? store.setQuantities(quantities, { runId: entry._id, retryStale: false })
        : new Map<string, QuantityOutcome>(),
    ]);
    for (const write of prices.values()) {
      const error = priceErrors.has(write.mappingId)
        ? priceErrors.get(write.mappingId)
        : "the price was not written";
      for (const seq of write.seqs)
        outcomes.set(seq, error ? { result: "failed", note: error } : { result: "written", note: null });
    }
    const bySeq = new Map(changes.map((change) => [change.seq, change]));
    for (const item of quantities) {
      const change = bySeq.get(Number(item.mappingId))!;
      outcomes.set(change.seq, quantityOutcome(change, quantityOutcomes.get(item.mappingId)));
    }

    progress("Recording the results", changes.length);
    await deps.held.recordResults(
      entry._id,
      changes.map((change) => ({ seq: change.seq, ...(outcomes.get(change.seq) ?? notWritten()) })),
    );
    return finish({ userId, entry, changes }, { outcomes, readings });
  }

  /** Per mapping: failed if any of its changes failed or changed since, unchanged if none needed a write. */
  async function finish(
    run: { userId: string; entry: ExecutionHistory; changes: StoredHeldChange[] },
    context: { outcomes: Map<number, Outcome>; readings: CurrentValues },
  ): Promise<SyncJobResult> {
    const { userId, entry, changes } = run;
    const byMapping = new Map<string, StoredHeldChange[]>();
    for (const change of changes)
      byMapping.set(change.mappingId, [...(byMapping.get(change.mappingId) ?? []), change]);
    // Mappings with a value that could not be sent were counted as failures when the run was held.
    const failedWhenHeld = new Set(entry.failedMappings.map((failure) => failure.mappingId));
    let succeeded = 0;
    let unchanged = 0;
    const failures: RunFailure[] = [];
    const cache: CacheUpdate[] = [];
    for (const [mappingId, list] of byMapping) {
      const outcomes = list.map((change) => context.outcomes.get(change.seq) ?? notWritten());
      const bad = outcomes.filter((outcome) => outcome.result === "failed" || outcome.result === "changed");
      const first = list[0]!;
      const values = context.readings.valuesOf(first);
      if (first.acumaticaId && values)
        cache.push({
          mappingId,
          acumaticaId: first.acumaticaId,
          shopify: afterWrites(values, list, context.outcomes),
          erp: null,
          synced: bad.length === 0 && !failedWhenHeld.has(mappingId),
        });
      if (failedWhenHeld.has(mappingId)) continue;
      if (bad.length > 0)
        failures.push({
          mappingId,
          shopifySku: first.shopifySku,
          acumaticaSku: first.acumaticaSku,
          error: bad.map((outcome) => outcome.note ?? "not written").join("; "),
        });
      else if (outcomes.every((outcome) => outcome.result === "unchanged")) unchanged += 1;
      else succeeded += 1;
    }
    const now = deps.now().toISOString();
    await deps.repo.applyCache(userId, cache, now);
    const success = entry.successCount + succeeded + unchanged;
    const failure = entry.failureCount + failures.length;
    await deps.history.finish({
      id: entry._id,
      userId,
      endDate: deps.now().toISOString(),
      successCount: success,
      failureCount: failure,
      skippedCount: entry.skippedCount,
      // The same rule as every run: completed only when nothing failed.
      status: runStatus({ success, failure }),
      error: null,
      // finish replaces the run's failure and skip rows: the ones found when it was planned come first.
      failures: [...entry.failedMappings, ...failures],
      skips: entry.skippedMappings,
    });
    return {
      dryRun: false,
      historyId: entry._id,
      total: success + failure + entry.skippedCount,
      success,
      // What needed no write: in line when the run was held, or set in Shopify to the plan's value since.
      unchanged: entry.successCount + unchanged,
      failure,
      skipped: entry.skippedCount,
      planned: 0,
      changes: [],
      truncated: false,
    };
  }

  /**
   * Shopify's values now, for every variant the plan writes: one read at the first location the
   * plan writes quantities at (prices need no location), and one more per further location.
   */
  async function readCurrent(store: ShopifyStore, changes: StoredHeldChange[]): Promise<CurrentValues> {
    const locations = [
      ...new Set(changes.flatMap((change) => (change.locationId ? [change.locationId] : []))),
    ];
    const first = locations[0] ?? null;
    const read = (ids: string[], locationId: string | null) =>
      store.readVariants([...new Set(ids)], {
        strategy: readStrategy(deps.bulkReadThreshold, ids.length),
        locations: locationId ? [locationId] : [],
      });
    const byLocation = new Map<string | null, ShopifyReading>();
    byLocation.set(
      first,
      await read(
        changes.map((change) => change.variantId),
        first,
      ),
    );
    for (const location of locations.slice(1))
      byLocation.set(
        location,
        await read(
          changes.filter((change) => change.locationId === location).map((change) => change.variantId),
          location,
        ),
      );
    return {
      valuesOf: (change) =>
        (byLocation.get(change.locationId ?? first) ?? byLocation.get(first))?.get(change.variantId) ?? null,
    };
  }

  return { applyHeld };
}

export type HeldApplier = ReturnType<typeof createHeldApplier>;

interface CurrentValues {
  valuesOf(change: StoredHeldChange): ShopifyValues | null;
}
