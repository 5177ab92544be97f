import type { ChangesSince, Settings, SyncOptions, SyncRun } from "@stockbridge/shared";
import { readBaseCurrencyIfKnown } from "../connectors/acumatica/base-currency.ts";
import { readErpChanges } from "../connectors/acumatica/erp-changes.ts";
import { type ErpKey, type ErpReading, readErpItems } from "../connectors/acumatica/erp-read.ts";
import type { AcumaticaApi } from "../connectors/acumatica/session.ts";
import type { PriceWrite } from "../connectors/shopify/prices.ts";
import {
  type QuantityItem,
  type QuantityOutcome,
  quantityWritePoints,
} from "../connectors/shopify/quantities.ts";
import type { ShopifyStore } from "../connectors/shopify/store.ts";
import type { ShopifyReading, VariantReadStrategy } from "../connectors/shopify/variant-read.ts";
import { FoundDrift, type RunFindings, recordFindings } from "../drift/record.ts";
import type { DriftRepo } from "../drift/repo.ts";
import { ConflictError, DatabaseBusyError, DomainError, UpstreamError } from "../errors.ts";
import type { HeldRepo } from "../history/held-repo.ts";
import { runStatus } from "../history/outcome.ts";
import type { HistoryRepo } from "../history/repo.ts";
import { DEFAULT_RUN_LEASE_MS, keepRunAlive } from "../history/run-lease.ts";
import { JobLostError } from "../jobs/runner.ts";
import type { SettingsRepo } from "../settings/repo.ts";
import { priceRefusal } from "./currency.ts";
import { type PlanChunks, recordHeldRun, storeRunPlan } from "./hold.ts";
import {
  comparedFields,
  type MappingPlan,
  planMapping,
  quantityKey,
  resultOf,
  type SyncLocation,
  type SyncTarget,
  syncLocations,
} from "./plan.ts";
import type { CacheUpdate, SyncRepo, Watermark } from "./repo.ts";
import { SafetyTally } from "./safety.ts";
import { type RunCounts, type RunStatus, settle } from "./settle.ts";
import { type RunSummary, RunTally } from "./tally.ts";

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
  /** Mappings planned, written and recorded at a time (PLAN_CHUNK unless told). */
  planChunk?: number;
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
  /** A run of every mapping reads everything, not only what changed since the last one. */
  reconcile?: boolean;
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
  /**
   * A job keeps counts, not every mapping's result (sync-job.ts): given, the run answers `summary`
   * with the first this many planned results and no `results`, so it never holds one per mapping.
   */
  plannedKept?: number;
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
  /** For a run given `plannedKept`: its counts of results and first planned results. */
  summary?: RunSummary;
  /** A run of every mapping that read only what changed: since when, and how many mappings it had. */
  changesSince?: ChangesSince;
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
  const planChunk = Math.max(1, deps.planChunk ?? PLAN_CHUNK);

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
    inScope: SyncTarget[],
    historyId: string | null,
  ): Promise<RunSyncResult> {
    const dryRun = input.dryRun === true;
    const startedAt = deps.now();
    // Narrowed to the mappings that touch a change when the run reads only what changed.
    let targets = inScope;
    const progress = async (phase: string, done: number) =>
      input.onProgress?.({ phase, done, total: targets.length });
    const tally = new RunTally(input.plannedKept ?? null);
    let found = new FoundDrift(input.scope === "all");
    let fields: RunFindings["fields"];
    let storedChanges: number | null = null;
    let window: ReadWindow | null = null;
    let reading: Awaited<ReturnType<typeof readBoth>> | null = null;
    let changesSince: ChangesSince | undefined;
    try {
      const settings = await deps.settings.read(input.userId);
      window = await readWindow(input, settings, startedAt);
      reading = targets.length === 0 ? null : await readBoth(input, { targets, settings, progress, window });
      const read = reading?.read ?? null;
      if (reading?.changed && window?.watermark) {
        changesSince = { since: window.watermark.readFrom, mappings: inScope.length };
        targets = reading.targets;
        // Its drift replaces only the rows of the mappings it read.
        found = new FoundDrift(false);
      }
      // Mappings an incremental run did not read are in line (nothing changed since they were).
      const unread = inScope.length - targets.length;
      fields = comparedFields(settings, { ...input.syncOptions, priceRefused: read?.priceRefused });
      /** Plans the run's mappings a chunk at a time: no run holds every mapping's plan at once. */
      const chunks: PlanChunks = async (each) => {
        if (!read) return;
        for (let start = 0; start < targets.length; start += planChunk)
          await each(targets.slice(start, start + planChunk).map((target) => planOf(read, target, settings)));
      };
      // The safety limits decide on the whole run, before any write; a check writes nothing to hold.
      const limits =
        read && !input.watched && !input.checkOnly ? await deps.settings.readSafety(input.userId) : null;
      const safety = new SafetyTally(limits ?? { maxPriceChangePercent: 0, maxZeroedPercent: 0 });
      safety.addInLine(unread);
      const reasons = () =>
        limits && read
          ? safety.reasons({ erpItems: read.erpItems + unread, quantity: input.syncOptions.quantity })
          : [];

      if (dryRun || input.checkOnly) {
        await chunks(async (plans) => {
          for (const plan of plans) {
            safety.add(plan);
            tally.add(resultOf(plan, plan.outcome, plan.reason));
            found.add(plan.target, plan.drift);
          }
        });
        return {
          ...(await planOnly(input, { tally, findings: { fields, found }, historyId })),
          holdReasons: reasons(),
        };
      }

      // What the writes will be, gathered as the safety limits are: prices (small records), how
      // many quantities and where.
      const writes = { prices: [] as PriceWrite[], quantities: 0, locationIds: new Set<string>() };
      await chunks(async (plans) => {
        for (const plan of plans) {
          safety.add(plan);
          if (plan.outcome !== "planned" || !plan.shopify) continue;
          if (plan.prices)
            writes.prices.push({
              mappingId: plan.target.mappingId,
              productId: plan.shopify.productId,
              variantId: plan.shopify.variantId,
              ...plan.prices,
            });
          writes.quantities += plan.quantities.length;
          for (const quantity of plan.quantities) writes.locationIds.add(quantity.locationId);
        }
      });
      const holdReasons = reasons();
      if (read && holdReasons.length > 0) {
        await recordHeldRun(
          { held: deps.held, store: read.store, log: deps.log },
          {
            id: historyId!,
            userId: input.userId,
            heldAt: deps.now().toISOString(),
            reasons: holdReasons,
            locationIds: [...writes.locationIds],
            chunks,
            onChunk: (plans) => {
              for (const plan of plans) tally.add(resultOf(plan, plan.outcome, plan.reason));
            },
          },
        );
        return { ...outcomeOf(tally, { dryRun, historyId, status: "held", error: null }), holdReasons };
      }
      if (read && input.onCheckpoint) {
        // The checkpoint before the first write: from here a resumed job applies this plan. Saved
        // again first, which throws if another instance took the job over while this one read.
        await input.onCheckpoint({ historyId: historyId!, planStored: false });
        storedChanges = await storeRunPlan(deps.held, { id: historyId!, userId: input.userId, chunks });
        if (storedChanges === null) throw new ConflictError(RUN_CLOSED);
        await input.onCheckpoint({ historyId: historyId!, planStored: true });
      }
      if (read)
        await apply(read.store, {
          userId: input.userId,
          runId: historyId!,
          writes,
          chunks,
          tally,
          found,
          progress,
        });
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
      const failed = new RunTally(input.plannedKept ?? null);
      for (const target of targets)
        failed.add({
          mappingId: target.mappingId,
          shopifySku: target.shopifySku,
          acumaticaSku: target.acumaticaSku,
          outcome: "failed" as const,
          changes: [],
          reason: message,
        });
      return {
        ...outcomeOf(failed, { dryRun, historyId, status: "failed", error: message }),
        cause: error,
      };
    }

    await progress("Recording the results", targets.length);
    // Throws if another instance took the job over while this one wrote: it records the outcome.
    if (historyId) await input.onCheckpoint?.({ historyId, planStored: true });
    const drifted = await recordDrift(input, historyId, { fields, found });
    const outcome = outcomeOf(tally, { dryRun, historyId, status: "completed", error: null });
    await finishRun(input.userId, historyId!, { tally, drifted, changesSince });
    if (input.onCheckpoint) await deps.held.dropPlan(historyId!, storedChanges ?? 0);
    if (window)
      await moveWatermark(input.userId, {
        window,
        tally,
        reconciled: !changesSince,
        shopifyTime: reading?.store.serverTime() ?? null,
        // Prices the currencies refused wait for them to match, which dates no item: read in full.
        pricesRefused: Boolean(reading?.read?.priceRefused),
      });
    return changesSince ? { ...outcome, changesSince } : outcome;
  }

  /**
   * Where a sync of every mapping that writes reads from: what changed since its watermark, unless
   * it has none for these options and settings, it was asked to reconcile, or the last full read is
   * a day old. Null for any other run (a dry run or a check reads and reports everything).
   */
  async function readWindow(
    input: RunSyncInput,
    settings: Settings,
    startedAt: Date,
  ): Promise<ReadWindow | null> {
    if (input.scope !== "all" || input.dryRun || input.checkOnly) return null;
    const optionsKey = JSON.stringify({ options: input.syncOptions, settings });
    const saved = await deps.repo.watermark(input.userId, optionsKey);
    const due = !saved || startedAt.getTime() - Date.parse(saved.reconciledAt) >= RECONCILE_EVERY_MS;
    return { optionsKey, startedAt, watermark: input.reconcile || due ? null : saved };
  }

  /**
   * After a run that wrote what it planned: the next reads changes from this run's start (less a
   * margin for the systems' clocks), reading again the mappings that failed. A run with more
   * failures than that list keeps, or whose prices the currencies refused, leaves the next one to
   * read everything. Saving it must not fail the run: the watermark left in place only makes the
   * next read wider.
   */
  async function moveWatermark(
    userId: string,
    run: {
      window: ReadWindow;
      tally: RunTally;
      reconciled: boolean;
      shopifyTime: number | null;
      pricesRefused: boolean;
    },
  ): Promise<void> {
    const { window, tally } = run;
    try {
      if (tally.failures.length > RETRY_KEPT || run.pricesRefused) {
        await deps.repo.dropWatermark(userId, window.optionsKey);
        return;
      }
      const started = window.startedAt.getTime();
      await deps.repo.saveWatermark(userId, {
        optionsKey: window.optionsKey,
        readFrom: new Date(started - CLOCK_MARGIN_MS).toISOString(),
        // From the second after Shopify's time at this run's last answer: Shopify dates to the
        // second, and that second holds this run's own last writes, which the next run must not
        // read back as changes. Without a time Shopify gave, the margin's.
        shopifyFrom: run.shopifyTime === null ? null : new Date(run.shopifyTime + 1_000).toISOString(),
        reconciledAt: run.reconciled
          ? window.startedAt.toISOString()
          : (window.watermark?.reconciledAt ?? window.startedAt.toISOString()),
        retryIds: tally.failures.flatMap((failure) => (failure.mappingId ? [failure.mappingId] : [])),
        staleBefore: new Date(started - RECONCILE_EVERY_MS).toISOString(),
      });
    } catch (error) {
      deps.log?.(`sync watermark of ${userId} not saved: ${describe(error)}`);
    }
  }

  /**
   * A dry run or a check: nothing is written, so everything that differs now still differs after
   * it. A check (it has a history entry) records its counts there; planned items count as neither
   * success nor failure, they are its drift.
   */
  async function planOnly(
    input: RunSyncInput,
    run: { tally: RunTally; findings: RunFindings; historyId: string | null },
  ): Promise<RunSyncResult> {
    const drifted = await recordDrift(input, run.historyId, run.findings);
    const outcome = outcomeOf(run.tally, {
      dryRun: true,
      historyId: run.historyId,
      status: "completed",
      error: null,
    });
    if (run.historyId) await finishRun(input.userId, run.historyId, { tally: run.tally, drifted });
    return outcome;
  }

  async function finishRun(
    userId: string,
    historyId: string,
    run: { tally: RunTally; drifted: number | null; changesSince?: ChangesSince },
  ): Promise<void> {
    const { counts, failures, skips } = run.tally;
    await deps.history.finish({
      id: historyId,
      userId,
      endDate: deps.now().toISOString(),
      successCount: counts.success,
      failureCount: counts.failure,
      skippedCount: counts.skipped,
      status: runStatus(counts),
      error: null,
      failures,
      skips,
      drifted: run.drifted,
      changesSince: run.changesSince ?? null,
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

  /**
   * Both systems' current values of the run's mappings, and the store that will write. A run given
   * a watermark first asks both systems what changed since it and reads only the mappings that
   * touch a change (`changed`), or everything when either cannot say.
   */
  async function readBoth(
    input: RunSyncInput,
    run: {
      targets: SyncTarget[];
      settings: Settings;
      progress: (phase: string, done: number) => Promise<void>;
      window: ReadWindow | null;
    },
  ): Promise<{ read: RunReading | null; store: ShopifyStore; targets: SyncTarget[]; changed: boolean }> {
    const { settings, progress } = run;
    await progress(READING, 0);
    // A sync waiting for one of the connection's Acumatica seats says so (and reads on once it has one).
    let queued = false;
    const store = await deps.connectors.shopify(input.userId);
    const prices = input.syncOptions.price;
    const since = run.window?.watermark ?? null;
    const readShopify = async (targets: readonly SyncTarget[]) => {
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
    };
    // Each part is awaited later; until then a rejection must not go unhandled.
    const quiet = <T>(promise: Promise<T>) => {
      promise.catch(() => {});
      return promise;
    };
    // The two systems are read at the same time: each paces itself by its own limits. Shopify is
    // read while the run waits for a seat, unless which mappings to read waits on the ERP's changes.
    const shopifyChanges = since
      ? quiet(
          store.changedVariants({
            since: new Date(since.shopifyFrom ?? since.readFrom),
            limit: changesLimit(run.targets),
          }),
        )
      : null;
    // Started once the mappings to read are known (at once, unless they wait on the changes).
    const shopifyRead: { started?: Promise<[Awaited<ReturnType<typeof readShopify>>, string | null]> } = {};
    const startShopify = (targets: readonly SyncTarget[]) => {
      shopifyRead.started = quiet(Promise.all([readShopify(targets), prices ? store.shopCurrency() : null]));
    };
    if (!since) startShopify(run.targets);
    let targets = run.targets;
    let changed = false;
    const erpPart = await deps.connectors.acumatica(
      input.userId,
      async (api, apiVersion) => {
        if (queued) await progress(READING, 0);
        if (since && shopifyChanges) {
          const touched = await touchedTargets(api, apiVersion, {
            userId: input.userId,
            targets,
            since,
            shopifyChanges,
          });
          if (touched) {
            targets = touched;
            changed = true;
          }
          if (targets.length === 0) return null;
          startShopify(targets);
        }
        const keys: ErpKey[] = targets.map((target) => ({
          acumaticaId: target.acumaticaId,
          inventoryId: target.acumaticaSku,
        }));
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
    );
    if (!erpPart || !shopifyRead.started) return { read: null, store, targets, changed };
    const [{ shopify, locations }, shopCurrencyCode] = await shopifyRead.started;
    const { erp, erpCurrency } = erpPart;
    // Prices are numbers without a currency: sent across currencies they would be wrong by the rate.
    const priceRefused = priceRefusal(shopCurrencyCode, erpCurrency);
    // The store that read is the one that writes: it knows the bucket and the served version.
    const read = {
      erp,
      shopify,
      store,
      locations,
      erpItems: erp.found,
      priceRefused,
      options: input.syncOptions,
    };
    return { read, store, targets, changed };
  }

  /**
   * The run's mappings whose ERP item or Shopify variant changed after the watermark, were created
   * or edited since, or failed last time; null when either system cannot list its changes (too
   * many, or a version that does not date them): the run then reads every mapping.
   */
  async function touchedTargets(
    api: AcumaticaApi,
    apiVersion: string,
    run: {
      userId: string;
      targets: SyncTarget[];
      since: Watermark;
      shopifyChanges: Promise<Set<string> | null>;
    },
  ): Promise<SyncTarget[] | null> {
    const { since, targets } = run;
    const [erpChanged, shopifyChanged, edited] = await Promise.all([
      readErpChanges(api, apiVersion, { since: new Date(since.readFrom), limit: changesLimit(targets) }),
      run.shopifyChanges,
      deps.repo.editedSince(run.userId, since.readFrom),
    ]);
    if (!erpChanged || !shopifyChanged) return null;
    const retry = new Set(since.retryIds);
    return targets.filter(
      (target) =>
        erpChanged.has(target.acumaticaSku.trim().toUpperCase()) ||
        shopifyChanged.has(target.shopifyVariantId) ||
        edited.has(target.mappingId) ||
        retry.has(target.mappingId),
    );
  }

  /**
   * The writes, chunk by chunk: every price of the run at once (one bulk mutation or per-product
   * calls, as their cost decides, started first), each chunk's quantities in batches as it is
   * planned again, then its results settled, its cached rows refreshed and its drift gathered.
   */
  async function apply(
    store: ShopifyStore,
    run: {
      userId: string;
      runId: string;
      writes: { prices: PriceWrite[]; quantities: number };
      chunks: PlanChunks;
      tally: RunTally;
      found: FoundDrift;
      progress: (phase: string, done: number) => Promise<void>;
    },
  ): Promise<void> {
    const { writes, runId } = run;
    await run.progress("Writing to Shopify", 0);
    // Prices and quantities are different fields of different objects: both write at once.
    const pricesWritten =
      writes.prices.length > 0
        ? store.writePrices(writes.prices, {
            bulkThreshold: deps.bulkPriceThreshold,
            runId,
            // The quantity calls spend from the same bucket meanwhile.
            sharedPoints: quantityWritePoints(writes.quantities),
          })
        : Promise.resolve(new Map<string, string | null>());
    // Awaited after the first chunk's quantities; until then a rejection must not go unhandled.
    pricesWritten.catch(() => {});
    await run.chunks(async (plans) => {
      const quantityItems: QuantityItem[] = [];
      for (const item of plans) {
        if (item.outcome !== "planned" || !item.shopify) continue;
        for (const quantity of item.quantities)
          quantityItems.push({
            mappingId: quantityKey(item.target.mappingId, quantity.locationId),
            variantId: item.shopify.variantId,
            ...quantity,
          });
      }
      const quantityOutcomes =
        quantityItems.length > 0
          ? await store.setQuantities(quantityItems, { runId })
          : new Map<string, QuantityOutcome>();
      const priceErrors = await pricesWritten;
      const cache: CacheUpdate[] = [];
      for (const item of plans) {
        const settled = settle(item, priceErrors, quantityOutcomes);
        run.tally.add(settled.result);
        run.found.add(item.target, settled.drift);
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
      await deps.repo.applyCache(run.userId, cache, deps.now().toISOString());
    });
  }

  return { runSync };
}

/** What a run read of both systems, and how it plans with it. */
interface RunReading {
  erp: ErpReading;
  shopify: ShopifyReading;
  store: ShopifyStore;
  locations: SyncLocation[];
  erpItems: number;
  priceRefused: string | null;
  options: SyncOptions;
}

/** Mappings planned (and written, and recorded) at a time: what a run holds is bounded by it, not by the store. */
const PLAN_CHUNK = 2_000;

/** How a run of every mapping reads: the watermark it reads changes from, or null to read everything. */
interface ReadWindow {
  /** The run's sync options and the settings its plans follow: a watermark holds for these only. */
  optionsKey: string;
  startedAt: Date;
  watermark: Watermark | null;
}

/** Every mapping is read at least this often, so a change neither system dates is caught within a day. */
export const RECONCILE_EVERY_MS = 24 * 60 * 60_000;
/** Changes are read from this long before the last run started: the systems' clocks may be behind ours. */
const CLOCK_MARGIN_MS = 10 * 60_000;
/** Failed mappings a watermark keeps to read again; a run with more makes the next one read everything. */
const RETRY_KEPT = 1_000;
/** More changes than this (or than the run has mappings) and reading everything costs no more. */
const CHANGES_LIMIT = 10_000;

function changesLimit(targets: readonly SyncTarget[]): number {
  return Math.min(CHANGES_LIMIT, targets.length);
}

function planOf(read: RunReading, target: SyncTarget, settings: Settings): MappingPlan {
  return planMapping(target, {
    erp: read.erp.get(target.acumaticaId) ?? null,
    shopify: read.shopify.get(target.shopifyVariantId) ?? null,
    settings,
    options: { ...read.options, priceRefused: read.priceRefused, locations: read.locations },
  });
}

/** The run's answer from its tally: every result, or (a job's run) the counts and a summary. */
function outcomeOf(
  tally: RunTally,
  run: { dryRun: boolean; historyId: string | null; status: RunStatus; error: string | null },
): RunSyncResult {
  const summary = tally.summary();
  return {
    ...run,
    results: summary ? [] : tally.results,
    counts: { ...tally.counts },
    ...(summary ? { summary } : {}),
  };
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
