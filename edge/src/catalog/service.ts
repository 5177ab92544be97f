import {
  type AcumaticaProductList,
  type AcumaticaProductQuery,
  type Job,
  MESSAGES,
  type ShopifyProductList,
  type ShopifyProductQuery,
} from "@stockbridge/shared";
import type { ConnectionsService } from "../connections/service.ts";
import {
  type AcumaticaPullCheckpoint,
  readAcumaticaCatalog,
} from "../connectors/acumatica/catalog-reader.ts";
import { newAcumaticaStats } from "../connectors/acumatica/session.ts";
import { readWarehouses } from "../connectors/acumatica/warehouses.ts";
import type { Connectors } from "../connectors/connectors.ts";
import type { BulkSlots } from "../connectors/shopify/bulk-slots.ts";
import { readShopifyCatalog, type ShopifyPullCheckpoint } from "../connectors/shopify/catalog-reader.ts";
import type { StoreCostBook } from "../connectors/shopify/strategy.ts";
import { DatabaseBusyError, UpstreamError } from "../errors.ts";
import { type JobContext, JobLostError, type JobRunner } from "../jobs/runner.ts";
import { record } from "../lib/json.ts";
import type { SitesRepo } from "../locations/repo.ts";
import type { CatalogRepo } from "./repo.ts";
import { ACUMATICA_TABLE, SHOPIFY_TABLE } from "./tables.ts";

export interface CatalogTuning {
  /** Stores with more variants than this are read with one bulk query instead of pages. */
  shopifyBulkThreshold: number;
  /** Items per Acumatica `$top` page, and pages requested at once. */
  acumaticaPageSize: number;
  acumaticaParallelPages: number;
}

const DEFAULT_CATALOG_TUNING: CatalogTuning = {
  // Paged reads cost ~5 points a variant (100 points/s on Standard): past a few thousand
  // variants one bulk export is faster than paying for pages.
  shopifyBulkThreshold: 2_500,
  acumaticaPageSize: 1_000,
  acumaticaParallelPages: 2,
};

export interface CatalogServiceDeps {
  repo: CatalogRepo;
  /** Where a pull keeps the store's locations / the ERP's warehouses it read. */
  sites: SitesRepo;
  jobs: JobRunner;
  connections: Pick<
    ConnectionsService,
    | "shopifyCredentials"
    | "acumaticaCredentials"
    | "recordServedShopifyVersion"
    | "recordShopifyDeprecation"
    | "currencies"
  >;
  connectors: Connectors;
  bulkSlots: BulkSlots;
  /** What each store's runs learn of its costs, shared with the sync engine's connectors. */
  storeCosts: StoreCostBook;
  now: () => Date;
  newId: () => string;
  tuning?: Partial<CatalogTuning>;
}

/**
 * Product catalogs: pulls from Shopify and Acumatica as jobs (one per user and system at a time)
 * that stage rows page by page and swap them in with one transaction, and the paged lists.
 */
export function createCatalogService(deps: CatalogServiceDeps) {
  const tuning = { ...DEFAULT_CATALOG_TUNING, ...deps.tuning };
  const { repo } = deps;

  // A pull resumed on another instance keeps what its earlier attempt staged (nothing is swapped in
  // before the end): a bulk file read again restages the same keys (the last values win), a paged
  // read goes on after its last kept page.
  deps.jobs.handle("shopify-pull", async (job: JobContext) => {
    const { userId } = job;
    const credentials = await deps.connections.shopifyCredentials(userId);
    const resumeFrom = shopifyCheckpointOf(job.resumeFrom);
    if (!resumeFrom) await repo.discardStaging("shopify", { userId });
    const client = deps.connectors.shopify(credentials);
    try {
      const summary = await readShopifyCatalog(client, {
        fetch: deps.connectors.fetch,
        clock: deps.connectors.clock,
        bulkThreshold: tuning.shopifyBulkThreshold,
        bulkSlots: deps.bulkSlots.forStore(credentials.storeName),
        costs: deps.storeCosts.forStore(credentials.storeName),
        onRows: (rows) => repo.stageShopify({ jobId: job.jobId, userId, rows, newId: deps.newId }),
        onProgress: (progress) => job.progress(progress),
        resumeFrom,
        onCheckpoint: (checkpoint) => job.checkpoint(checkpoint),
      });
      job.progress({ phase: "Saving the catalog" });
      const counts = await repo.swap("shopify", {
        jobId: job.jobId,
        userId,
        syncedAt: deps.now().toISOString(),
      });
      await deps.sites.saveLocations(userId, summary.locations, deps.now().toISOString());
      if (client.servedVersion)
        await deps.connections.recordServedShopifyVersion(userId, client.servedVersion);
      if (client.deprecationNotice)
        await deps.connections.recordShopifyDeprecation(userId, client.deprecationNotice);
      return {
        message: MESSAGES.products.synchronized,
        afterwards: () => repo.indexSearch("shopify", userId),
        result: {
          ...counts,
          skippedWithoutSku: summary.withoutSku,
          mode: summary.mode,
          servedApiVersion: client.servedVersion,
          calls: client.stats.calls,
          points: client.stats.points,
          throttled: client.stats.throttled,
          waitedMs: client.stats.waitedMs,
          exportWaitMs: summary.exportWaitMs,
        },
      };
    } catch (error) {
      // A job another instance holds now, or one going back to the queue, keeps what it staged.
      if (error instanceof JobLostError || error instanceof DatabaseBusyError) throw error;
      await repo.discardStaging("shopify", { jobId: job.jobId });
      throw failure(error, "Shopify", MESSAGES.products.syncShopifyFailed);
    }
  });

  deps.jobs.handle("acumatica-pull", async (job: JobContext) => {
    const { userId } = job;
    const connection = await deps.connections.acumaticaCredentials(userId);
    // A resumed pull keeps the pages its earlier attempt staged and reads on after them.
    const resumeFrom = acumaticaCheckpointOf(job.resumeFrom);
    if (!resumeFrom) await repo.discardStaging("acumatica", { userId });
    const stats = newAcumaticaStats();
    try {
      const { summary, warehouses } = await deps.connectors.acumatica(
        connection,
        async (api) => {
          const summary = await readAcumaticaCatalog(api, connection.apiVersion, {
            pageSize: tuning.acumaticaPageSize,
            parallelPages: tuning.acumaticaParallelPages,
            onRows: (rows) => repo.stageAcumatica({ jobId: job.jobId, userId, rows, newId: deps.newId }),
            onProgress: (progress) => job.progress(progress),
            resumeFrom,
            onPage: (checkpoint) => job.checkpoint(checkpoint),
          });
          return { summary, warehouses: await readWarehouses(api) };
        },
        { stats },
      );
      job.progress({ phase: "Saving the catalog" });
      const counts = await repo.swap("acumatica", {
        jobId: job.jobId,
        userId,
        syncedAt: deps.now().toISOString(),
      });
      await deps.sites.saveWarehouses(userId, warehouses, deps.now().toISOString());
      return {
        message: MESSAGES.products.synchronized,
        afterwards: () => repo.indexSearch("acumatica", userId),
        result: {
          ...counts,
          ...summary,
          calls: stats.calls,
          retries: stats.retries,
          waitedMs: stats.waitedMs,
        },
      };
    } catch (error) {
      // A job another instance holds now, or one going back to the queue, keeps what it staged.
      if (error instanceof JobLostError || error instanceof DatabaseBusyError) throw error;
      await repo.discardStaging("acumatica", { jobId: job.jobId });
      throw failure(error, "Acumatica", MESSAGES.products.syncAcumaticaFailed);
    }
  });

  async function startShopifyPull(userId: string): Promise<Job> {
    // Refused at the door (400) when not connected, rather than as a failed job.
    await deps.connections.shopifyCredentials(userId);
    return deps.jobs.start(userId, {
      kind: "shopify-pull",
      input: {},
      busyMessage: "A Shopify product pull is already running",
      phase: "Connecting to Shopify",
    });
  }

  async function startAcumaticaPull(userId: string): Promise<Job> {
    await deps.connections.acumaticaCredentials(userId);
    return deps.jobs.start(userId, {
      kind: "acumatica-pull",
      input: {},
      busyMessage: "An Acumatica product pull is already running",
      phase: "Connecting to Acumatica",
    });
  }

  return {
    startShopifyPull,
    startAcumaticaPull,

    /**
     * Adds the search entries a pull's follow-up never wrote (its process stopped right after the
     * swap); until then those searches scan. Run by the cron tick; a pull still indexing its own
     * rows meanwhile is harmless (entries are replaced, not doubled).
     */
    async indexLeftoverSearches(): Promise<void> {
      for (const { userId, system } of await repo.unindexedCatalogs()) await repo.indexSearch(system, userId);
    },

    async listShopify(userId: string, query: ShopifyProductQuery): Promise<ShopifyProductList> {
      const [{ rows, total, lastSynced }, currencies] = await Promise.all([
        repo.list("shopify", userId, query),
        deps.connections.currencies(userId),
      ]);
      return {
        products: rows.map((row) => SHOPIFY_TABLE.decode(row, lastSynced)),
        ...pageOf(total, query),
        currencyCode: currencies.shopify,
      };
    },

    async listAcumatica(userId: string, query: AcumaticaProductQuery): Promise<AcumaticaProductList> {
      const [{ rows, total, lastSynced }, currencies] = await Promise.all([
        repo.list("acumatica", userId, query),
        deps.connections.currencies(userId),
      ]);
      return {
        products: rows.map((row) => ACUMATICA_TABLE.decode(row, lastSynced)),
        ...pageOf(total, query),
        currencyCode: currencies.acumatica,
      };
    },
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;

/** A checkpoint this version wrote (a row from another version may not be one). */
function shopifyCheckpointOf(value: unknown): ShopifyPullCheckpoint | null {
  const checkpoint = record(value);
  if (!checkpoint) return null;
  if (checkpoint.mode === "bulk" && typeof checkpoint.operationId === "string")
    return { mode: "bulk", operationId: checkpoint.operationId };
  if (
    checkpoint.mode === "paged" &&
    typeof checkpoint.after === "string" &&
    Number.isInteger(checkpoint.variants) &&
    Number.isInteger(checkpoint.withoutSku)
  )
    return {
      mode: "paged",
      after: checkpoint.after,
      variants: Number(checkpoint.variants),
      withoutSku: Number(checkpoint.withoutSku),
    };
  return null;
}

/** A checkpoint this version wrote (a row from another version may not be one). */
function acumaticaCheckpointOf(value: unknown): AcumaticaPullCheckpoint | null {
  const checkpoint = record(value);
  if (!checkpoint) return null;
  const count = (key: string) => (Number.isInteger(checkpoint[key]) ? Number(checkpoint[key]) : null);
  const [pages, stockItems, nonStockItems] = [count("pages"), count("stockItems"), count("nonStockItems")];
  if (checkpoint.entity !== "StockItem" && checkpoint.entity !== "NonStockItem") return null;
  if (pages === null || stockItems === null || nonStockItems === null) return null;
  return { entity: checkpoint.entity, pages, stockItems, nonStockItems };
}

function pageOf(total: number, query: { page: number; limit: number }) {
  return { total, page: query.page, totalPages: Math.ceil(total / query.limit) };
}

/** The job's message says which pull failed and why; the outside system's reason is kept. */
function failure(error: unknown, system: "Shopify" | "Acumatica", prefix: string): unknown {
  if (error instanceof UpstreamError) return new UpstreamError(system, `${prefix}: ${error.message}`);
  return error;
}
