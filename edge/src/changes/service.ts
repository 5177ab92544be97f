import type {
  AcumaticaProductChanges,
  ChangesQuery,
  HistoryChanges,
  MappingChanges,
  Schedule,
  ScheduleChanges,
  ShopifyProductChanges,
  UnmappedChanges,
} from "@stockbridge/shared";
import { ACUMATICA_TABLE, SHOPIFY_TABLE } from "../catalog/tables.ts";
import type { HistoryRepo } from "../history/repo.ts";
import { RUN_STOPPED } from "../history/run-lease.ts";
import { toMapping } from "../mapping/repo.ts";
import { toRecord } from "../schedules/repo.ts";
import { view } from "../schedules/service.ts";
import type { ChangesRepo, StoredChanges } from "./repo.ts";

export interface ChangesServiceDeps {
  repo: ChangesRepo;
  history: Pick<HistoryRepo, "summaries" | "failExpired">;
  /** The schedule service's rule for schedules the plan no longer allows (shown paused). */
  planPauses(userId: string, schedules: Schedule[]): Promise<Schedule[]>;
  /** The currency each catalog's prices are in (the connections' last test), as the lists answer it. */
  currencies(userId: string): Promise<{ shopify: string | null; acumatica: string | null }>;
  now: () => Date;
}

/** The page without its stored rows, for each feed to add its own shape of them. */
function envelope(stored: StoredChanges) {
  return {
    removedIds: stored.removedIds,
    version: stored.version,
    hasMore: stored.hasMore,
    reset: stored.reset,
  };
}

/**
 * Change feeds: what changed in each mirrored list since a version the caller holds, shaped as the
 * list endpoints shape their rows, plus what a mirror needs to sort like them (position, createdAt).
 */
export function createChangesService(deps: ChangesServiceDeps) {
  const { repo } = deps;
  return {
    async shopify(userId: string, query: ChangesQuery): Promise<ShopifyProductChanges> {
      const [stored, currencies] = await Promise.all([
        repo.changes("shopify", userId, query),
        deps.currencies(userId),
      ]);
      const lastSynced = stored.lastSynced ?? "";
      return {
        ...envelope(stored),
        rows: stored.rows.map((row) => ({
          ...SHOPIFY_TABLE.decode(JSON.parse(String(row.listed)) as unknown[], lastSynced),
          position: Number(row.seq),
        })),
        lastSynced: stored.lastSynced,
        currencyCode: currencies.shopify,
      };
    },

    async acumatica(userId: string, query: ChangesQuery): Promise<AcumaticaProductChanges> {
      const [stored, currencies] = await Promise.all([
        repo.changes("acumatica", userId, query),
        deps.currencies(userId),
      ]);
      const lastSynced = stored.lastSynced ?? "";
      return {
        ...envelope(stored),
        rows: stored.rows.map((row) => ({
          ...ACUMATICA_TABLE.decode(JSON.parse(String(row.listed)) as unknown[], lastSynced),
          position: Number(row.seq),
        })),
        lastSynced: stored.lastSynced,
        currencyCode: currencies.acumatica,
      };
    },

    async mappings(userId: string, query: ChangesQuery): Promise<MappingChanges> {
      const stored = await repo.changes("mappings", userId, query);
      return {
        ...envelope(stored),
        rows: stored.rows.map((row) => ({
          ...toMapping(row),
          createdAt: String(row.created_at),
          skuSnapshots: { shopify: String(row.shopify_sku), acumatica: String(row.acumatica_sku) },
        })),
      };
    },

    /** A product a mapping now uses leaves the unmapped list: it is answered as removed. */
    async unmapped(userId: string, query: ChangesQuery): Promise<UnmappedChanges> {
      const stored = await repo.changes("unmapped", userId, query);
      const mapped = stored.rows.filter((row) => Number(row.mapped) === 1).map((row) => String(row.id));
      return {
        ...envelope(stored),
        removedIds: [...stored.removedIds, ...mapped],
        rows: stored.rows
          .filter((row) => Number(row.mapped) !== 1)
          .map((row) => ({
            _id: String(row.id),
            system: row.system === "shopify" ? "shopify" : "acumatica",
            externalId: String(row.external_id),
            sku: String(row.sku),
          })),
      };
    },

    async schedules(userId: string, query: ChangesQuery): Promise<ScheduleChanges> {
      const stored = await repo.changes("schedules", userId, query);
      const shown = await deps.planPauses(
        userId,
        stored.rows.map((row) => view(toRecord(row))),
      );
      return {
        ...envelope(stored),
        rows: shown.map((schedule, index) => ({
          ...schedule,
          createdAt: String(stored.rows[index]?.created_at),
          position: Number(stored.rows[index]?.position),
        })),
      };
    },

    /** Runs whose process stopped are ended first, as the list does, so the feed never shows them running. */
    async history(userId: string, query: ChangesQuery): Promise<HistoryChanges> {
      const now = deps.now().toISOString();
      await deps.history.failExpired(now, { endDate: now, error: RUN_STOPPED }, userId);
      const stored = await repo.changes("history", userId, query);
      return { ...envelope(stored), rows: await deps.history.summaries(stored.rows) };
    },
  };
}

export type ChangesService = ReturnType<typeof createChangesService>;
