import {
  type AcumaticaProductList,
  type AcumaticaProductQuery,
  fromCents,
  type Job,
  MESSAGES,
  type ShopifyProductList,
  type ShopifyProductQuery,
} from "@stockbridge/shared";
import type { ConnectionsService } from "../connections/service.ts";
import { readAcumaticaCatalog } from "../connectors/acumatica/catalog-reader.ts";
import { newAcumaticaStats } from "../connectors/acumatica/session.ts";
import type { Connectors } from "../connectors/connectors.ts";
import type { BulkSlots } from "../connectors/shopify/bulk-slots.ts";
import { readShopifyCatalog } from "../connectors/shopify/catalog-reader.ts";
import { UpstreamError } from "../http/errors.ts";
import type { JobContext, JobRunner } from "../jobs/runner.ts";
import type { CatalogRepo } from "./repo.ts";

export interface CatalogTuning {
  /** Stores with more variants than this are read with one bulk query instead of pages. */
  shopifyBulkThreshold: number;
  /** Items per Acumatica `$top` page, and pages requested at once. */
  acumaticaPageSize: number;
  acumaticaParallelPages: number;
}

export const DEFAULT_CATALOG_TUNING: CatalogTuning = {
  // Paged reads cost ~5 points a variant (100 points/s on Standard): past a few thousand
  // variants one bulk export is faster than paying for pages.
  shopifyBulkThreshold: 2_500,
  acumaticaPageSize: 1_000,
  acumaticaParallelPages: 2,
};

export interface CatalogServiceDeps {
  repo: CatalogRepo;
  jobs: JobRunner;
  connections: Pick<
    ConnectionsService,
    "shopifyCredentials" | "acumaticaCredentials" | "recordServedShopifyVersion" | "recordShopifyDeprecation"
  >;
  connectors: Connectors;
  bulkSlots: BulkSlots;
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

  async function startShopifyPull(userId: string): Promise<Job> {
    const credentials = await deps.connections.shopifyCredentials(userId);
    return deps.jobs.start(
      userId,
      "shopify-pull",
      async (job: JobContext) => {
        await repo.discardStaging("shopify", { userId });
        const client = deps.connectors.shopify(credentials);
        try {
          const summary = await readShopifyCatalog(client, {
            fetch: deps.connectors.fetch,
            clock: deps.connectors.clock,
            bulkThreshold: tuning.shopifyBulkThreshold,
            bulkSlots: deps.bulkSlots.forStore(credentials.storeName),
            onRows: (rows) => repo.stageShopify(job.jobId, userId, rows, deps.newId),
            onProgress: (progress) => job.progress(progress),
          });
          job.progress({ phase: "Saving the catalog" });
          const counts = await repo.swap("shopify", job.jobId, userId, deps.now().toISOString());
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
          await repo.discardStaging("shopify", { jobId: job.jobId });
          throw failure(error, "Shopify", MESSAGES.products.syncShopifyFailed);
        }
      },
      { busyMessage: "A Shopify product pull is already running", phase: "Connecting to Shopify" },
    );
  }

  async function startAcumaticaPull(userId: string): Promise<Job> {
    const connection = await deps.connections.acumaticaCredentials(userId);
    return deps.jobs.start(
      userId,
      "acumatica-pull",
      async (job: JobContext) => {
        await repo.discardStaging("acumatica", { userId });
        const stats = newAcumaticaStats();
        try {
          const summary = await deps.connectors.acumatica(
            connection,
            (api) =>
              readAcumaticaCatalog(api, connection.apiVersion, {
                pageSize: tuning.acumaticaPageSize,
                parallelPages: tuning.acumaticaParallelPages,
                onRows: (rows) => repo.stageAcumatica(job.jobId, userId, rows, deps.newId),
                onProgress: (progress) => job.progress(progress),
              }),
            { stats },
          );
          job.progress({ phase: "Saving the catalog" });
          const counts = await repo.swap("acumatica", job.jobId, userId, deps.now().toISOString());
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
          await repo.discardStaging("acumatica", { jobId: job.jobId });
          throw failure(error, "Acumatica", MESSAGES.products.syncAcumaticaFailed);
        }
      },
      { busyMessage: "An Acumatica product pull is already running", phase: "Connecting to Acumatica" },
    );
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
      const { rows, total, lastSynced } = await repo.list("shopify", userId, query);
      return { products: rows.map((row) => toShopifyProduct(row, lastSynced)), ...pageOf(total, query) };
    },

    async listAcumatica(userId: string, query: AcumaticaProductQuery): Promise<AcumaticaProductList> {
      const { rows, total, lastSynced } = await repo.list("acumatica", userId, query);
      return { products: rows.map((row) => toAcumaticaProduct(row, lastSynced)), ...pageOf(total, query) };
    },
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;

function pageOf(total: number, query: { page: number; limit: number }) {
  return { total, page: query.page, totalPages: Math.ceil(total / query.limit) };
}

/** The job's message says which pull failed and why; the outside system's reason is kept. */
function failure(error: unknown, system: "Shopify" | "Acumatica", prefix: string): unknown {
  if (error instanceof UpstreamError) return new UpstreamError(system, `${prefix}: ${error.message}`);
  return error;
}

/** The values of SHOPIFY_TABLE.listed, in that order; lastSynced is the catalog's. */
export function toShopifyProduct(
  values: unknown[],
  lastSynced: string,
): ShopifyProductList["products"][number] {
  const [
    id,
    variantId,
    productId,
    inventoryItemId,
    title,
    sku,
    price,
    compareAt,
    physical,
    tracked,
    locations,
  ] = values;
  return {
    _id: String(id),
    variantId: String(variantId),
    productId: String(productId),
    inventoryItemId: nullableText(inventoryItemId),
    title: String(title),
    sku: String(sku),
    price: fromCents(Number(price)),
    compareAtPrice: compareAt === null ? null : fromCents(Number(compareAt)),
    isPhysicalProduct: Number(physical) === 1,
    tracked: Number(tracked) === 1,
    inventoryLocations: storedLocations(locations),
    lastSynced,
  };
}

/** The values of ACUMATICA_TABLE.listed, in that order; lastSynced is the catalog's. */
export function toAcumaticaProduct(
  values: unknown[],
  lastSynced: string,
): AcumaticaProductList["products"][number] {
  const [id, acumaticaId, sku, description, price, msrp, available, onHand, forShipping, stockItem] = values;
  return {
    _id: String(id),
    acumaticaId: String(acumaticaId),
    sku: String(sku),
    description: String(description),
    defaultPrice: fromCents(Number(price)),
    msrp: msrp === null ? null : fromCents(Number(msrp)),
    available: nullableNumber(available),
    onHandInventory: nullableNumber(onHand),
    availableForShipping: nullableNumber(forShipping),
    isStockItem: Number(stockItem) === 1,
    lastSynced,
  };
}

/** locations_json is only written by the pull and the sync engine, always as this list's shape. */
function storedLocations(value: unknown): ShopifyProductList["products"][number]["inventoryLocations"] {
  return value as ShopifyProductList["products"][number]["inventoryLocations"];
}

function nullableText(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

function nullableNumber(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}
