import { createDeliveryRepo } from "./alerts/delivery-repo.ts";
import { createAlertDispatcher } from "./alerts/dispatcher.ts";
import { createSmtpMailer } from "./alerts/mailer.ts";
import { createAlertRecorder } from "./alerts/recorder.ts";
import { createAlertsRepo } from "./alerts/repo.ts";
import { notificationHandlers } from "./alerts/routes.ts";
import { createNotificationService } from "./alerts/service.ts";
import { createAttemptRepo } from "./auth/attempt-repo.ts";
import { createAuthRepo } from "./auth/repo.ts";
import { authHandlers } from "./auth/routes.ts";
import { createAuthService } from "./auth/service.ts";
import { createTokenService } from "./auth/tokens.ts";
import { createPlanGate } from "./billing/plan-gate.ts";
import { createBillingRepo } from "./billing/repo.ts";
import { billingHandlers, registerStripeWebhook } from "./billing/routes.ts";
import { createBillingService } from "./billing/service.ts";
import { createStripeGateway } from "./billing/stripe-gateway.ts";
import { createCatalogRepo } from "./catalog/repo.ts";
import { catalogHandlers } from "./catalog/routes.ts";
import { createSearchCache } from "./catalog/search-cache.ts";
import { type CatalogTuning, createCatalogService } from "./catalog/service.ts";
import { createChangesRepo } from "./changes/repo.ts";
import { changeHandlers } from "./changes/routes.ts";
import { createChangesService } from "./changes/service.ts";
import type { Config } from "./config.ts";
import { createConnectionsRepo } from "./connections/repo.ts";
import { connectionHandlers } from "./connections/routes.ts";
import { createConnectionsService } from "./connections/service.ts";
import { createConnectors } from "./connectors/connectors.ts";
import { createBulkSlots } from "./connectors/shopify/bulk-slots.ts";
import { createStoreCostBook } from "./connectors/shopify/strategy.ts";
import { type ConnectorClock, realClock } from "./connectors/transport.ts";
import { createDashboardRepo } from "./dashboard/repo.ts";
import { dashboardHandlers } from "./dashboard/routes.ts";
import { createDashboardService } from "./dashboard/service.ts";
import type { Db } from "./db/client.ts";
import { createDriftRepo } from "./drift/repo.ts";
import { driftHandlers } from "./drift/routes.ts";
import { createDriftService } from "./drift/service.ts";
import { createHeldRepo } from "./history/held-repo.ts";
import { createHistoryRepo } from "./history/repo.ts";
import { createReviewService } from "./history/review-service.ts";
import { historyHandlers } from "./history/routes.ts";
import { RUN_STOPPED } from "./history/run-lease.ts";
import { createHistoryService } from "./history/service.ts";
import { registerContractRoutes } from "./http/contract-routes.ts";
import { addFallbacks, clientAddressFor, createPipeline } from "./http/pipeline.ts";
import type { AppContext } from "./http/types.ts";
import { idempotencyKeys } from "./idempotency/middleware.ts";
import { createIdempotencyRepo } from "./idempotency/repo.ts";
import { createIdempotencyService } from "./idempotency/service.ts";
import { createJobsRepo } from "./jobs/repo.ts";
import { jobHandlers, registerJobEvents } from "./jobs/routes.ts";
import { createJobRunner } from "./jobs/runner.ts";
import { createSlotGate } from "./jobs/slots.ts";
import { createSlotsRepo } from "./jobs/slots-repo.ts";
import { createSitesRepo } from "./locations/repo.ts";
import { locationHandlers } from "./locations/routes.ts";
import { createLocationsService } from "./locations/service.ts";
import { handleAutoMapJobs, startAutoMapJob } from "./mapping/auto-map-job.ts";
import { createMappingRepo } from "./mapping/repo.ts";
import { mappingHandlers } from "./mapping/routes.ts";
import { createMappingService } from "./mapping/service.ts";
import { createJsonLogger, type Logger } from "./observability/log.ts";
import { createMetrics, type Metrics } from "./observability/metrics.ts";
import { createSchedulesRepo } from "./schedules/repo.ts";
import { scheduleHandlers } from "./schedules/routes.ts";
import { createScheduleService } from "./schedules/service.ts";
import { createTick } from "./schedules/tick.ts";
import { createScheduleTicker } from "./schedules/ticker.ts";
import {
  createOutboundGuard,
  noDnsResolver,
  type PinnedFetch,
  type ResolveHost,
} from "./security/outbound-guard.ts";
import { createSecretBox } from "./security/secret-box.ts";
import { createSettingsRepo } from "./settings/repo.ts";
import { settingsHandlers } from "./settings/routes.ts";
import { createSettingsService } from "./settings/service.ts";
import { createSyncConnectors } from "./sync/connectors.ts";
import { createSyncEngine, type SyncEngineDeps } from "./sync/engine.ts";
import { createHeldApplier } from "./sync/held-apply.ts";
import { createSyncRepo } from "./sync/repo.ts";
import { syncHandlers } from "./sync/routes.ts";
import { enqueueScheduledRun, handleSyncJobs, startSyncJob } from "./sync/sync-job.ts";
import { registerApiDocs } from "./system/api-docs.ts";
import { createSystemService } from "./system/health.ts";
import { createSystemRepo } from "./system/repo.ts";
import { registerMetrics, registerOpenApiDocument, systemHandlers } from "./system/routes.ts";
import { createTokenRepo } from "./tokens/repo.ts";
import { tokenHandlers } from "./tokens/routes.ts";
import { checkTokenScope } from "./tokens/scope.ts";
import { createPersonalTokenService, isPersonalToken } from "./tokens/service.ts";
import { createUserViewRepo } from "./users/repo.ts";
import type { WebAssets } from "./web/serve-web.ts";

export interface AppDeps {
  config: Config;
  db: Db;
  now?: () => Date;
  newId?: () => string;
  /** The caller's socket address, from the runtime (Deno's connection info); used for rate limits. */
  remoteAddress?: (c: AppContext) => string | undefined;
  webAssets?: WebAssets;
  /** JSON lines (default: info to stdout, warnings and errors to stderr). */
  logger?: Logger;
  /** A warning in free text, for features that log a sentence (default: the logger's warn). */
  log?: (line: string) => void;
  /** This process's counters (default: a fresh registry); `/api/metrics` writes them out. */
  metrics?: Metrics;
  /**
   * Outbound HTTP to Shopify and Acumatica, always behind the address guard, which hands it the
   * addresses it checked: it must connect to one of those (main.ts: createPinnedFetch over Deno sockets).
   */
  fetch: PinnedFetch;
  /** DNS for the outbound address guard: every A and AAAA address of a host (main.ts: Deno.resolveDns). */
  resolveHost?: ResolveHost;
  /** Time for connector pacing and back-off (default real time; tests pass the sandbox's clock). */
  connectorClock?: ConnectorClock;
  catalogTuning?: Partial<CatalogTuning>;
  /** How often a job's event stream re-reads the job unprompted (tests set it long: no wake-up may be lost). */
  jobEventsPollMs?: number;
  /** When the sync engine switches to bulk reads / bulk price writes (tests and benchmarks lower them). */
  syncTuning?: Partial<Pick<SyncEngineDeps, "bulkReadThreshold" | "bulkPriceThreshold">>;
  /**
   * The platform's queue (main.ts: Deno KV), told of each job the tick queues: it delivers the job
   * to whichever instance it picks (`runQueuedJob`). Without one, the tick runs what it queued.
   */
  wakeJob?: (jobId: string) => Promise<void>;
}

/** The composition root: every dependency comes in here, nothing reads globals or the environment. */
export function createApp(deps: AppDeps) {
  const { config, db } = deps;
  const now = deps.now ?? (() => new Date());
  const newId = deps.newId ?? (() => crypto.randomUUID());
  const logger =
    deps.logger ??
    createJsonLogger(
      (line, level) => (level === "info" ? console.log(line) : console.error(line)),
      undefined,
      config.logLevel,
    );
  const log = deps.log ?? ((line: string) => logger.warn(line));
  const metrics = deps.metrics ?? createMetrics();
  const system = createSystemService({ repo: createSystemRepo(db), now, startedAt: now() });
  if (!config.jwtSecret) throw new Error("createApp needs config.jwtSecret");

  const tokens = createTokenService(config.jwtSecret, config.tokenTtlSeconds, now);
  const auth = createAuthService({
    repo: createAuthRepo(db),
    users: createUserViewRepo(db),
    attempts: createAttemptRepo(db),
    tokens,
    now,
    newId,
    passwordIterations: config.passwordIterations,
    registrationsPerMinute: config.registrationsPerMinute,
  });
  const personalTokens = createPersonalTokenService({ repo: createTokenRepo(db), now, newId });
  /** A Bearer value is a personal API token (`sbk_`) or a session JWT; each has its own check. */
  const authenticate = (token: string) =>
    isPersonalToken(token) ? personalTokens.authenticate(token) : auth.authenticate(token);
  const stripeGateway = config.stripeSecretKey
    ? createStripeGateway({
        secretKey: config.stripeSecretKey,
        apiUrl: config.stripeApiUrl,
        webhookSecret: config.stripeWebhookSecret,
      })
    : null;
  const billingRepo = createBillingRepo(db);
  const billing = createBillingService({
    repo: billingRepo,
    gateway: stripeGateway,
    appOrigin: config.appOrigin,
    now,
  });
  // What each subscriber's plan allows (schedule frequency, mapped products), from Stripe's catalogue.
  const planGate = createPlanGate({ repo: billingRepo, plans: billing.plans });

  // Outside systems: every request passes the address guard; secrets are sealed at rest.
  const outbound = createOutboundGuard(
    {
      allowPrivateNetwork: config.allowPrivateNetwork,
      requireHttps: config.environment === "production",
      resolveHost: deps.resolveHost ?? noDnsResolver,
    },
    deps.fetch,
  );
  // Leases of jobs, of running syncs' history entries and of Acumatica session slots: what another
  // instance waits before it takes over from a process that stopped.
  const runLeaseMs = config.runLeaseSeconds * 1000;
  const slots = createSlotGate({ repo: createSlotsRepo(db), now, newId, log, leaseMs: runLeaseMs });
  const connectors = createConnectors({
    fetch: outbound.fetch,
    clock: deps.connectorClock ?? realClock,
    sandboxUrl: config.sandboxUrl,
    sessionSlots: slots,
    observe: {
      call: (system, outcome) => metrics.outsideCalls.inc({ system, outcome }),
      throttleWait: (milliseconds) => {
        metrics.throttleWaits.inc();
        metrics.throttleWaitSeconds.inc({}, milliseconds / 1000);
      },
      costPoints: (points) => metrics.costPoints.inc({}, points),
    },
  });
  const secretBox = createSecretBox(config.encryptionKeys);
  const connections = createConnectionsService({
    repo: createConnectionsRepo(db),
    secrets: secretBox,
    guard: outbound,
    connectors,
    now,
    log,
  });
  const historyRepo = createHistoryRepo(db);
  const jobsRepo = createJobsRepo(db);
  const jobs = createJobRunner({
    repo: jobsRepo,
    wake: deps.wakeJob,
    concurrency: config.jobConcurrency,
    now,
    newId,
    log,
    leaseMs: runLeaseMs,
    // A job declared dead ends the history entry of its run with it.
    onStopped: async (jobIds) => {
      const at = now().toISOString();
      await historyRepo.failOfJobs(jobIds, { endDate: at, error: RUN_STOPPED });
    },
  });
  // Shopify's bulk operation limit is per app and store: every pull and sync counts against it.
  const bulkSlots = createBulkSlots(db, now);
  // What each store's pulls and syncs learn of its costs (bulk operation times, read costs), in this process.
  const storeCosts = createStoreCostBook();
  const sites = createSitesRepo(db);
  const catalog = createCatalogService({
    repo: createCatalogRepo(db, createSearchCache()),
    sites,
    jobs,
    connections,
    connectors,
    bulkSlots,
    storeCosts,
    now,
    newId,
    tuning: deps.catalogTuning,
  });

  // Repos and services more than one feature uses: built once, shared.
  const settingsRepo = createSettingsRepo(db);
  const locations = createLocationsService({ sites, settings: settingsRepo, connections, connectors, now });
  const schedulesRepo = createSchedulesRepo(db);
  const mappingRepo = createMappingRepo(db);
  const mappings = createMappingService({ repo: mappingRepo, plans: planGate, now, newId });

  // Alerts: every finished run reports its outcome; email and webhooks go out from the tick.
  const alertsRepo = createAlertsRepo(db);
  const deliveryRepo = createDeliveryRepo(db);
  const alerts = createAlertRecorder({
    repo: alertsRepo,
    history: historyRepo,
    appOrigin: config.appOrigin,
    emailEnabled: config.smtpUrl !== undefined,
    now,
    newId,
    log,
  });
  const alertDispatcher = createAlertDispatcher({
    repo: deliveryRepo,
    secrets: { repo: alertsRepo, box: secretBox },
    fetch: outbound.fetch,
    mailer: config.smtpUrl ? createSmtpMailer({ url: config.smtpUrl, from: config.smtpFrom }) : null,
    now,
    log,
  });

  const syncRepo = createSyncRepo(db);
  const heldRepo = createHeldRepo(db);
  const syncConnectors = createSyncConnectors({
    credentials: connections,
    connectors,
    bulkSlots,
    storeCosts,
  });
  const driftRepo = createDriftRepo(db);
  const syncEngine = alerts.observeRuns(
    createSyncEngine({
      repo: syncRepo,
      history: historyRepo,
      held: heldRepo,
      settings: settingsRepo,
      connectors: syncConnectors,
      now,
      newId,
      runLeaseMs,
      log,
      drift: driftRepo,
      ...deps.syncTuning,
    }),
  );
  // Sync jobs run the engine; an approved held run, and a run resumed after its plan was stored,
  // apply a stored plan: the same writers and tuning as the engine's.
  handleSyncJobs({
    jobs,
    engine: syncEngine,
    held: heldRepo,
    applier: alerts.observeApprovals(
      createHeldApplier({
        held: heldRepo,
        history: historyRepo,
        repo: syncRepo,
        connectors: syncConnectors,
        now,
        runLeaseMs,
        log,
        ...deps.syncTuning,
      }),
    ),
  });
  handleAutoMapJobs({ jobs, repo: mappingRepo, plans: planGate, now, newId });
  const review = createReviewService({
    held: heldRepo,
    history: historyRepo,
    jobs,
    now,
    runLeaseMs,
  });

  const app = createPipeline({ config, newId, logger, metrics });
  // Writes sent with an Idempotency-Key run once per user and key; repeats get the stored answer.
  const idempotency = createIdempotencyService({ repo: createIdempotencyRepo(db), now, newId });

  registerContractRoutes(
    app,
    {
      ...systemHandlers({ system, version: config.version, sandboxUrl: config.sandboxUrl }),
      ...authHandlers(auth, clientAddressFor(config, deps.remoteAddress)),
      ...connectionHandlers(connections),
      ...catalogHandlers(catalog),
      ...jobHandlers(jobs),
      ...billingHandlers(billing),
      ...settingsHandlers(createSettingsService({ repo: settingsRepo, locations, now })),
      ...locationHandlers(locations),
      ...mappingHandlers({
        mappings,
        startAutoMap: (userId) => startAutoMapJob({ jobs }, userId),
      }),
      ...syncHandlers({ engine: syncEngine, jobs, mappings, repo: syncRepo, slots }),
      ...historyHandlers(
        createHistoryService({
          repo: historyRepo,
          now,
          // A retry is a sync job like any other: one at a time per user, followed the same way.
          startSync: ({ userId, mappingIds, syncOptions, retryOf }) =>
            startSyncJob(
              { jobs },
              { userId, scope: { mappingIds }, syncOptions, trigger: "manual", retryOf },
            ),
        }),
        review,
      ),
      ...scheduleHandlers(createScheduleService({ repo: schedulesRepo, plans: planGate, now, newId })),
      ...tokenHandlers(personalTokens),
      ...driftHandlers(
        createDriftService({
          repo: driftRepo,
          startSync: (input) => startSyncJob({ jobs }, input),
        }),
      ),
      ...notificationHandlers(
        createNotificationService({
          repo: alertsRepo,
          deliveries: deliveryRepo,
          secrets: secretBox,
          guard: outbound,
          emailEnabled: config.smtpUrl !== undefined,
          now,
        }),
      ),
      ...dashboardHandlers(
        createDashboardService({
          repo: createDashboardRepo(db),
          history: historyRepo,
          schedules: schedulesRepo,
          mappings: mappingRepo,
          plans: planGate,
          drift: driftRepo,
          alerts: alertsRepo,
          now,
        }),
      ),
      ...changeHandlers(
        createChangesService({
          repo: createChangesRepo(db),
          history: historyRepo,
          planPauses: createScheduleService({ repo: schedulesRepo, plans: planGate, now, newId })
            .withPlanPauses,
          currencies: connections.currencies,
          now,
        }),
      ),
    },
    {
      authenticate,
      checkScope: checkTokenScope,
      hasAccess: billing.hasAccess,
      aroundHandler: idempotencyKeys(idempotency),
    },
  );

  // Stripe calls this one, not our client: outside the contract, before the JSON 404 catch-all.
  registerStripeWebhook(app, billing);
  // Job progress as Server-Sent Events: outside the contract (EventSource may pass ?token=).
  registerJobEvents(app, { authenticate, jobs, pollMs: deps.jobEventsPollMs });
  // The OpenAPI document describes the contract, so it is not an entry of it; public, built once.
  // Its reference page reads it, with the renderer from the web build.
  registerOpenApiDocument(app, { version: config.version });
  registerApiDocs(app, { assets: deps.webAssets });
  registerMetrics(app, {
    metrics,
    system,
    token: config.metricsToken,
    production: config.environment === "production",
  });
  addFallbacks(app, { logger, webAssets: deps.webAssets });

  // The cron tick (main.ts: Deno.cron every minute); createApp itself starts no timers.
  const scheduleTicker = createScheduleTicker({
    repo: schedulesRepo,
    history: historyRepo,
    enqueueRun: (schedule) => enqueueScheduledRun({ jobs }, schedule),
    runQueuedSince: jobsRepo.queuedForScheduleSince,
    // With a platform queue the jobs go where it sends them; the poll and tick remain the safety net.
    runQueuedJobs: deps.wakeJob ? async () => {} : jobs.drain,
    hasAccess: billing.hasAccess,
    planRefusal: (userId, schedule) => planGate.storedScheduleRefusal(userId, schedule.schedule),
    // With a platform queue the tick resumes only jobs whose instance stopped: the queue delivers
    // the rest, and the poll (JOB_POLL_SECONDS) catches a delivery that never came.
    sweepJobs: () => jobs.sweep({ stoppedOnly: deps.wakeJob !== undefined }),
    onDue: alerts.scheduleMissed,
    now,
    newId,
    log,
  });

  return Object.assign(app, {
    /** The cron tick (schedules/tick.ts); safe to call from any number of instances. */
    tick: createTick({
      recordTick: () => system.recordTick(),
      runSchedules: () => scheduleTicker.tick(),
      indexLeftoverSearches: () => catalog.indexLeftoverSearches(),
      sweepEndedRuns: () => alerts.sweepEndedRuns(),
      deliverAlerts: () => alertDispatcher.deliverDue(),
      pruneIdempotencyKeys: () => idempotency.prune(),
      log,
    }),
    runDueSchedules: scheduleTicker.runDueSchedules,
    /**
     * The worker's poll (main.ts, every few seconds): jobs queued by another instance, or whose
     * instance stopped, are claimed here when this instance has room. A quiet database answers one read.
     */
    sweepJobs: () => jobs.sweep(),
    /** The platform queue's delivery (main.ts): claims that job here, if still claimable, and runs it to its end. */
    runQueuedJob: (jobId: string) => jobs.runQueued(jobId),
    /**
     * The graceful stop's jobs step (main.ts): jobs get `graceMs` to finish and the rest are handed
     * back to the queue for another instance to resume (JobRunner.stop), then this process's
     * Acumatica seats are freed for the other instances.
     */
    async stopJobs(graceMs: number): Promise<string[]> {
      const unfinished = await jobs.stop(graceMs);
      await slots.releaseAll();
      return unfinished;
    },
  });
}
