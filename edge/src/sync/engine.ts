import type { MappingSyncResult, Settings, SyncOptions, SyncRun } from "@stockbridge/shared";
import { readBaseCurrencyIfKnown } from "../connectors/acumatica/base-currency.ts";
import { type ErpKey, readErpItems } from "../connectors/acumatica/erp-read.ts";
import type { AcumaticaApi } from "../connectors/acumatica/session.ts";
import type { PriceWrite } from "../connectors/shopify/prices.ts";
import {
  type QuantityItem,
  type QuantityOutcome,
  quantityWritePoints,
} from "../connectors/shopify/quantities.ts";
import type { ShopifyStore } from "../connectors/shopify/store.ts";
import type { VariantReadStrategy } from "../connectors/shopify/variant-read.ts";
import { type RunFindings, recordFindings } from "../drift/record.ts";
import type { DriftRepo } from "../drift/repo.ts";
import { ConflictError, DatabaseBusyError, DomainError, UpstreamError } from "../errors.ts";
import type { HeldRepo } from "../history/held-repo.ts";
import { runStatus } from "../history/outcome.ts";
import type { HistoryRepo, RunFailure, RunSkip } from "../history/repo.ts";
import { DEFAULT_RUN_LEASE_MS, keepRunAlive } from "../history/run-lease.ts";
import { JobLostError } from "../jobs/runner.ts";
import type { SettingsRepo } from "../settings/repo.ts";
import { priceRefusal } from "./currency.ts";
import { recordHeldRun, storeRunPlan } from "./hold.ts";
import {
  comparedFields,
  type MappingPlan,
  planMapping,
  quantityKey,
  resultOf,
  syncLocations,
} from "./plan.ts";
import type { CacheUpdate, SyncRepo } from "./repo.ts";
import { safetyReasons } from "./safety.ts";
import { finished, type RunCounts, settle } from "./settle.ts";

/** How the engine reaches the user's two systems (built from the saved connections). */
export interface SyncConnectors {
  /** The user's Shopify store (paced by its transport); throws an DomainError when it is not connected. */
  shopify(userId: string): Promise<ShopifyStore>;
  /**
   * Runs `fn` inside one Acumatica session (always logged out), once one of the connection's seats
   * is free (`onQueued` says it has to wait); throws an DomainError when not connected.
   */
  acumatica<T>(
    userId: string,
    fn: (api: AcumaticaApi, apiVersion: string) => Promise<T>,
    options?: { onQueued?: () => void },
  ): Promise<T>;
}

export interface SyncEngineDeps {
  repo: SyncRepo;
  history: HistoryRepo;
  /** Where a run the safety limits stop is held for review, with its plan. */
  held: HeldRepo;
  settings: SettingsRepo;
  connectors: SyncConnectors;
  now: () => Date;
  newId: () => string;
  /**
   * From this many mappings Shopify is read with one bulk query, below it by `nodes` batches. Left
   * out (as the app does), the read is chosen by its expected time (connectors/shopify/variant-read.ts).
   */
  bulkReadThreshold?: number;
  /** Above this many products the price writes run as one bulk mutation; left out, chosen by cost (prices.ts). */
  bulkPriceThreshold?: number;
  /** How long a run's history entry lives without a renewal (the run renews it every third). */
  runLeaseMs?: number;
  log?: (line: string) => void;
  /** Where each run records which mappings still differ from the ERP (left out: not recorded). */
  drift?: Pick<DriftRepo, "record">;
}

export interface SyncProgress {
  phase: string;
  done: number;
  total: number;
}

export interface RunSyncInput {
  userId: string;
  scope: { mappingIds: string[] } | "all";
  syncOptions: SyncOptions;
  trigger: "manual" | "schedule";
  scheduleId?: string | null;
  scheduleName?: string | null;
  /** The job that runs this sync, if any: its entry ends when the job is declared dead. */
  jobId?: string | null;
  /** The run whose failed mappings this one retries (`scope` names them); its entry carries `retryOf`. */
  retryOf?: string | null;
  /** Plan only: per field current -> new, nothing written, no history entry. */
  dryRun?: boolean;
  /**
   * A sync its user is watching (one mapping, from the Mapping screen, answering each change at
   * once) is never held by the safety limits: for one item they would only say what the answer
   * shows, and a sold-out item would read as 100 % zeroed. Scheduled runs and sync jobs are checked.
   */
  watched?: boolean;
  /** A check-only schedule's run: plans and records drift and a history entry, writes nothing. */
  checkOnly?: boolean;
  onProgress?: (progress: SyncProgress) => void | Promise<void>;
  /**
   * A job's checkpoints (jobs/runner.ts): told the entry the run opened, and once the plan is stored
   * with it before any write, so another instance can resume the run if this one stops.
   */
  onCheckpoint?: (checkpoint: SyncCheckpoint) => Promise<void>;
  /** The entry an earlier attempt of this job opened: the run continues it instead of opening one. */
  resumeEntry?: string | null;
}

/** Where a sync job got to: its history entry, and whether its plan is stored (writes may have begun). */
export interface SyncCheckpoint {
  historyId: string;
  planStored: boolean;
}

export interface RunSyncResult extends SyncRun {
  /** "held": a safety limit stopped the run before any write (see `holdReasons`). */
  status: "completed" | "failed" | "held";
  /** Why the run could not proceed (a connection failure), with the system's own words. */
  error: string | null;
  counts: RunCounts;
  /** The error that stopped a failed run (an DomainError naming the system), for callers that answer HTTP. */
  cause?: unknown;
  /** Why the safety limits held the run; for a dry run, why the real run would be held. */
  holdReasons?: string[];
}

const READING = "Reading Acumatica and Shopify";
/** A resumed run whose entry another instance already ended (its lease ran out first). */
const RUN_CLOSED = "This run's history entry was already closed; it was not resumed";
export const WAITING_FOR_SEAT = "Waiting for a free Acumatica session";

/**
 * The sync engine: plan, then apply (ARCHITECTURE.md, "The sync engine"). Reads both systems in
 * batches, plans old -> new per mapping, writes only the differences, isolates every item, and
 * records the run in execution history with each failure's own error text.
 */
export function createSyncEngine(deps: SyncEngineDeps) {
  const runLeaseMs = deps.runLeaseMs ?? DEFAULT_RUN_LEASE_MS;

  /**
   * Every entry a run opens ends: closed by the run, or, when its process stops, failed by
   * whichever instance sees its lease run out (the run renews it while it works).
   */
  async function runSync(input: RunSyncInput): Promise<RunSyncResult> {
    const dryRun = input.dryRun === true;
    const targets = await deps.repo.targets(input.userId, input.scope);
    if (dryRun) return run(input, targets, null);
    const historyId = input.resumeEntry ?? deps.newId();
    const now = deps.now();
    if (input.resumeEntry) {
      // The stopped attempt read and planned nothing that was kept: this one reads and plans again.
      const open = await deps.history.renew(historyId, new Date(now.getTime() + runLeaseMs).toISOString());
      if (!open) throw new ConflictError(RUN_CLOSED);
    } else
      await deps.history.start({
        id: historyId,
        userId: input.userId,
        trigger: input.trigger,
        scheduleId: input.scheduleId ?? null,
        scheduleName: input.scheduleName ?? null,
        startDate: now.toISOString(),
        leaseUntil: new Date(now.getTime() + runLeaseMs).toISOString(),
        jobId: input.jobId ?? null,
        scope: input.retryOf ? { retryOf: input.retryOf } : input.scope,
        syncOptions: input.syncOptions,
        checkOnly: input.checkOnly === true,
      });
    await input.onCheckpoint?.({ historyId, planStored: false });
    const stop = keepRunAlive(deps.history, historyId, { leaseMs: runLeaseMs, now: deps.now, log: deps.log });
    try {
      return await run(input, targets, historyId);
    } finally {
      stop();
    }
  }

  async function run(
    input: RunSyncInput,
    targets: Awaited<ReturnType<SyncRepo["targets"]>>,
    historyId: string | null,
  ): Promise<RunSyncResult> {
    const dryRun = input.dryRun === true;
    const progress = async (phase: string, done: number) =>
      input.onProgress?.({ phase, done, total: targets.length });

    let results: MappingSyncResult[];
    let cache: CacheUpdate[] = [];
    let findings: RunFindings;
    let storedChanges: number | null = null;
    try {
      const settings = await deps.settings.read(input.userId);
      const planned = targets.length === 0 ? null : await plan(input, { targets, settings, progress });
      const plans = planned?.plans ?? [];
      // A check reads and records; like a dry run it writes nothing, so nothing to hold.
      const holdReasons =
        planned && !input.watched && !input.checkOnly
          ? safetyReasons(plans, await deps.settings.readSafety(input.userId), {
              erpItems: planned.erpItems,
              quantity: input.syncOptions.quantity,
            })
          : [];
      const fields = comparedFields(settings, { ...input.syncOptions, priceRefused: planned?.priceRefused });
      if (dryRun || input.checkOnly) {
        return { ...(await planOnly(input, { plans, fields, historyId })), holdReasons };
      }
      if (planned && holdReasons.length > 0) {
        await recordHeldRun(
          { held: deps.held, store: planned.store, log: deps.log },
          {
            id: historyId!,
            userId: input.userId,
            heldAt: deps.now().toISOString(),
            reasons: holdReasons,
            plans,
          },
        );
        const results = plans.map((p) => resultOf(p, p.outcome, p.reason));
        return { ...finished({ dryRun, historyId, results, status: "held", error: null }), holdReasons };
      }
      if (planned && input.onCheckpoint) {
        // The checkpoint before the first write: from here a resumed job applies this plan. Saved
        // again first, which throws if another instance took the job over while this one read.
        await input.onCheckpoint({ historyId: historyId!, planStored: false });
        storedChanges = await storeRunPlan(deps.held, { id: historyId!, userId: input.userId, plans });
        if (storedChanges === null) throw new ConflictError(RUN_CLOSED);
        await input.onCheckpoint({ historyId: historyId!, planStored: true });
      }
      let found: RunFindings["found"];
      ({ results, cache, found } = planned
        ? await apply(planned.store, { plans, runId: historyId!, progress })
        : { results: [], cache: [], found: [] });
      findings = { fields, found };
    } catch (error) {
      // The job is another instance's now, and so is its entry: leave both to it. A job's run that
      // met a busy database is resumed (jobs/runner.ts) and continues its entry.
      if (error instanceof JobLostError) throw error;
      if (error instanceof DatabaseBusyError && input.onCheckpoint) throw error;
      const message = describe(error);
      // Failed as a whole: the entry lists every mapping in the run's scope with the reason.
      if (historyId) {
        await deps.history.failRun(
          { id: historyId, userId: input.userId },
          { endDate: deps.now().toISOString(), error: message },
        );
      }
      if (dryRun || !(error instanceof DomainError)) throw error;
      const failed = targets.map((target) => ({
        mappingId: target.mappingId,
        shopifySku: target.shopifySku,
        acumaticaSku: target.acumaticaSku,
        outcome: "failed" as const,
        changes: [],
        reason: message,
      }));
      return {
        ...finished({ dryRun, historyId, results: failed, status: "failed", error: message }),
        cause: error,
      };
    }

    await progress("Recording the results", targets.length);
    // Throws if another instance took the job over while this one wrote: it records the outcome.
    if (historyId) await input.onCheckpoint?.({ historyId, planStored: true });
    const now = deps.now().toISOString();
    await deps.repo.applyCache(input.userId, cache, now);
    const drifted = await recordDrift(input, historyId, findings);
    const outcome = finished({ dryRun, historyId, results, status: "completed", error: null });
    await finishRun(input.userId, historyId!, { results, counts: outcome.counts, drifted });
    if (input.onCheckpoint) await deps.held.dropPlan(historyId!, storedChanges ?? 0);
    return outcome;
  }

  /**
   * A dry run or a check: nothing is written, so everything that differs now still differs after
   * it. A check (it has a history entry) records its counts there; planned items count as neither
   * success nor failure, they are its drift.
   */
  async function planOnly(
    input: RunSyncInput,
    run: { plans: MappingPlan[]; fields: RunFindings["fields"]; historyId: string | null },
  ): Promise<RunSyncResult> {
    const found = run.plans.map((p) => ({ target: p.target, drift: p.drift }));
    const drifted = await recordDrift(input, run.historyId, { fields: run.fields, found });
    const outcome = finished({
      dryRun: true,
      historyId: run.historyId,
      results: run.plans.map((p) => resultOf(p, p.outcome, p.reason)),
      status: "completed",
      error: null,
    });
    if (run.historyId)
      await finishRun(input.userId, run.historyId, {
        results: outcome.results,
        counts: outcome.counts,
        drifted,
      });
    return outcome;
  }

  async function finishRun(
    userId: string,
    historyId: string,
    run: { results: MappingSyncResult[]; counts: RunCounts; drifted: number | null },
  ): Promise<void> {
    const { results, ...extra } = run;
    const failures: RunFailure[] = results
      .filter((result) => result.outcome === "failed")
      .map((result) => ({
        mappingId: result.mappingId,
        shopifySku: result.shopifySku,
        acumaticaSku: result.acumaticaSku,
        error: result.reason ?? "failed",
      }));
    const skips: RunSkip[] = results
      .filter((result) => result.outcome === "skipped")
      .map((result) => ({
        mappingId: result.mappingId,
        shopifySku: result.shopifySku,
        acumaticaSku: result.acumaticaSku,
        reason: result.reason ?? "skipped",
      }));
    await deps.history.finish({
      id: historyId,
      userId,
      endDate: deps.now().toISOString(),
      successCount: extra.counts.success,
      failureCount: extra.counts.failure,
      skippedCount: extra.counts.skipped,
      status: runStatus(extra.counts),
      error: null,
      failures,
      skips,
      drifted: extra.drifted,
    });
  }

  /**
   * Records what still differs after the run (drift/record.ts). Answers how many of the run's
   * mappings differ, or null when nothing was recorded: drift that cannot be recorded must not
   * fail a run that wrote, so it is logged.
   */
  async function recordDrift(
    input: RunSyncInput,
    historyId: string | null,
    findings: RunFindings,
  ): Promise<number | null> {
    if (!deps.drift) return null;
    const source = input.checkOnly ? "check" : input.dryRun ? "dry-run" : "sync";
    try {
      return await recordFindings(
        deps.drift,
        {
          userId: input.userId,
          everyMapping: input.scope === "all",
          checkedAt: deps.now().toISOString(),
          source,
          historyId,
        },
        findings,
      );
    } catch (error) {
      deps.log?.(`drift of ${input.userId} not recorded: ${describe(error)}`);
      return null;
    }
  }

  async function plan(
    input: RunSyncInput,
    run: {
      targets: Awaited<ReturnType<SyncRepo["targets"]>>;
      settings: Settings;
      progress: (phase: string, done: number) => Promise<void>;
    },
  ): Promise<{ plans: MappingPlan[]; store: ShopifyStore; erpItems: number; priceRefused: string | null }> {
    const { targets, settings, progress } = run;
    await progress(READING, 0);
    // A sync waiting for one of the connection's Acumatica seats says so (and reads on once it has one).
    let queued = false;
    const keys: ErpKey[] = targets.map((target) => ({
      acumaticaId: target.acumaticaId,
      inventoryId: target.acumaticaSku,
    }));
    const store = await deps.connectors.shopify(input.userId);
    const prices = input.syncOptions.price;
    // The two systems are read at the same time: each paces itself by its own limits.
    const [{ erp, erpCurrency }, { shopify, locations }, shopCurrency] = await Promise.all([
      deps.connectors.acumatica(
        input.userId,
        async (api, apiVersion) => {
          if (queued) await progress(READING, 0);
          // One session, two reads at once: the currency does not wait behind the items.
          const [erp, erpCurrency] = await Promise.all([
            readErpItems(api, apiVersion, keys),
            prices ? readBaseCurrencyIfKnown(api) : null,
          ]);
          return { erp, erpCurrency };
        },
        {
          onQueued: () => {
            queued = true;
            // Progress is advisory: a failure to report it must not fail the run.
            progress(WAITING_FOR_SEAT, 0).catch(() => {});
          },
        },
      ),
      (async () => {
        // The locations the location mapping writes (by default the primary one).
        const locations = input.syncOptions.quantity
          ? syncLocations(await store.locations(), settings.locationMapping)
          : [];
        const shopify = await store.readVariants(
          targets.map((target) => target.shopifyVariantId),
          {
            strategy: readStrategy(deps.bulkReadThreshold, targets.length),
            locations: locations.map((location) => location.id),
          },
        );
        return { shopify, locations };
      })(),
      prices ? store.shopCurrency() : null,
    ]);
    // Prices are numbers without a currency: sent across currencies they would be wrong by the rate.
    const priceRefused = priceRefusal(shopCurrency, erpCurrency);
    const plans = targets.map((target) =>
      planMapping(target, {
        erp: erp.get(target.acumaticaId) ?? null,
        shopify: shopify.get(target.shopifyVariantId) ?? null,
        settings,
        options: { ...input.syncOptions, priceRefused, locations },
      }),
    );
    // The store that read is the one that writes: it knows the bucket and the served version.
    let erpItems = 0;
    for (const values of erp.values()) if (values) erpItems += 1;
    return { plans, store, erpItems, priceRefused };
  }

  async function apply(
    store: ShopifyStore,
    run: { plans: MappingPlan[]; runId: string; progress: (phase: string, done: number) => Promise<void> },
  ) {
    const { plans, runId, progress } = run;
    const priceWrites: PriceWrite[] = [];
    const quantityItems: QuantityItem[] = [];
    for (const item of plans) {
      if (item.outcome !== "planned" || !item.shopify) continue;
      if (item.prices)
        priceWrites.push({
          mappingId: item.target.mappingId,
          productId: item.shopify.productId,
          variantId: item.shopify.variantId,
          ...item.prices,
        });
      for (const quantity of item.quantities)
        quantityItems.push({
          mappingId: quantityKey(item.target.mappingId, quantity.locationId),
          variantId: item.shopify.variantId,
          ...quantity,
        });
    }
    // Prices and quantities are different fields of different objects: both write at once.
    await progress("Writing to Shopify", 0);
    const [priceErrors, quantityOutcomes] = await Promise.all([
      priceWrites.length > 0
        ? store.writePrices(priceWrites, {
            bulkThreshold: deps.bulkPriceThreshold,
            runId,
            // The quantity calls spend from the same bucket meanwhile.
            sharedPoints: quantityWritePoints(quantityItems.length),
          })
        : new Map<string, string | null>(),
      quantityItems.length > 0
        ? store.setQuantities(quantityItems, { runId })
        : new Map<string, QuantityOutcome>(),
    ]);
    const results: MappingSyncResult[] = [];
    const cache: CacheUpdate[] = [];
    const found: RunFindings["found"] = [];
    for (const item of plans) {
      const settled = settle(item, priceErrors, quantityOutcomes);
      results.push(settled.result);
      found.push({ target: item.target, drift: settled.drift });
      if (item.shopify || item.erp) {
        cache.push({
          mappingId: item.target.mappingId,
          acumaticaId: item.target.acumaticaId,
          shopify: settled.shopify,
          erp: item.erp,
          synced: settled.result.outcome === "succeeded" || settled.result.outcome === "unchanged",
        });
      }
    }
    return { results, cache, found };
  }

  return { runSync };
}

export type SyncEngine = ReturnType<typeof createSyncEngine>;

/** A tuned threshold decides the read; without one it is chosen by cost. */
export function readStrategy(threshold: number | undefined, count: number): VariantReadStrategy | undefined {
  if (threshold === undefined) return undefined;
  return count >= threshold ? "bulk" : "nodes";
}

/** A run-level failure in the words people read: which system and why. */
export function describe(error: unknown): string {
  if (error instanceof UpstreamError)
    return error.message.startsWith(error.system) ? error.message : `${error.system}: ${error.message}`;
  if (error instanceof Error) return error.message;
  return String(error);
}
