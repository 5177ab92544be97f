import type { InStatement, Row } from "@libsql/client";
import { catalogRefreshStatements } from "../catalog/cache-repo.ts";
import { type Db, withoutMemoryMap, withoutMemoryMapFor } from "../db/client.ts";
import type { ErpValues, ShopifyValues, SyncTarget } from "./plan.ts";

const CHUNK = 500;
/** Mappings per page of a full sync's read (a libSQL row weighs far more than the target made of it). */
const TARGET_PAGE = 5_000;
/** Rows per cache UPDATE (one JSON parameter each). */
const CACHE_CHUNK = 2_000;

/** What a finished mapping leaves in the cache: fresh values of both sides after the writes. */
export interface CacheUpdate {
  mappingId: string;
  acumaticaId: string;
  shopify: ShopifyValues | null;
  erp: ErpValues | null;
  /** True when the mapping synced (succeeded or unchanged): its last sync moves. */
  synced: boolean;
}

/** Where a sync of every mapping reads changes from (migration 32). */
export interface Watermark {
  /** ERP changes after this are the next run's (ISO). */
  readFrom: string;
  /** Shopify changes after this (Shopify's clock) are the next run's; null: from `readFrom`. */
  shopifyFrom: string | null;
  /** When the last run that read everything started (ISO). */
  reconciledAt: string;
  /** Mappings that failed in the last run: read again whatever changed. */
  retryIds: string[];
}

/** The only SQL of the sync engine: the mappings in scope, the mapping updates after a run (with the catalog's cache refresh), and the watermarks of incremental reads. */
export function createSyncRepo(db: Db) {
  return {
    /**
     * Mappings in scope, oldest first; ids that are not the user's are left out. Every mapping is
     * read in pages (each turned into targets before the next), a large scope without the memory map.
     */
    async targets(userId: string, scope: { mappingIds: string[] } | "all"): Promise<SyncTarget[]> {
      const select =
        "SELECT id, shopify_variant_id, shopify_sku, acumatica_id, acumatica_sku, created_at FROM mappings WHERE user_id = ?";
      const targets: SyncTarget[] = [];
      if (scope === "all") {
        const page = async (after: Row | undefined) => {
          const result = await db.execute({
            sql: `${select}${after ? " AND (created_at, id) > (?, ?)" : ""} ORDER BY created_at, id LIMIT ${TARGET_PAGE}`,
            args: after ? [userId, String(after.created_at), String(after.id)] : [userId],
          });
          for (const row of result.rows) targets.push(targetOf(row));
          return result.rows.length < TARGET_PAGE ? undefined : result.rows.at(-1);
        };
        const last = await page(undefined);
        // A store of more than a page: the rest is read without the map (and its pages so far let go).
        if (last)
          await withoutMemoryMap(db, async () => {
            for (let after: Row | undefined = last; after; ) after = await page(after);
          });
        return targets;
      }
      const ids = [...new Set(scope.mappingIds)];
      return withoutMemoryMapFor(db, ids.length, async () => {
        for (let start = 0; start < ids.length; start += CHUNK) {
          const chunk = ids.slice(start, start + CHUNK);
          const result = await db.execute({
            sql: `${select} AND id IN (${chunk.map(() => "?").join(", ")}) ORDER BY created_at, id`,
            args: [userId, ...chunk],
          });
          for (const row of result.rows) targets.push(targetOf(row));
        }
        return targets;
      });
    },

    /** The ids among `ids` that are not the user's mappings (gone, never existed, or another user's). */
    async unknownIds(userId: string, ids: readonly string[]): Promise<string[]> {
      const result = await db.execute({
        sql: `SELECT j.value AS id FROM json_each(?) AS j
              WHERE NOT EXISTS (SELECT 1 FROM mappings m WHERE m.user_id = ? AND m.id = j.value)
              ORDER BY j.key`,
        args: [JSON.stringify(ids), userId],
      });
      return [...new Set(result.rows.map((row) => String(row.id)))];
    },

    /**
     * Writes fresh values into the cached catalog rows (the catalog's statements) and moves last
     * sync on the mappings that synced, in one write transaction. One `UPDATE ... FROM json_each`
     * per table and chunk: a 10,000-mapping run is a handful of statements, not 30,000.
     */
    async applyCache(userId: string, updates: CacheUpdate[], now: string): Promise<void> {
      const statements: InStatement[] = [];
      for (let start = 0; start < updates.length; start += CACHE_CHUNK) {
        const chunk = updates.slice(start, start + CACHE_CHUNK);
        statements.push(
          ...catalogRefreshStatements(userId, {
            variants: chunk.flatMap((update) => (update.shopify ? [update.shopify] : [])),
            items: chunk.flatMap(({ erp, acumaticaId }) => (erp ? [{ ...erp, acumaticaId }] : [])),
          }),
        );
        const synced = chunk.filter((update) => update.synced).map((update) => update.mappingId);
        if (synced.length > 0) {
          statements.push({
            sql: "UPDATE mappings SET last_synced_at = ?, updated_at = ? WHERE user_id = ? AND id IN (SELECT value FROM json_each(?))",
            args: [now, now, userId, JSON.stringify(synced)],
          });
        }
      }
      if (statements.length > 0)
        await withoutMemoryMapFor(db, updates.length, () => db.batch(statements, "write"));
    },

    async watermark(userId: string, optionsKey: string): Promise<Watermark | null> {
      const row = (
        await db.execute({
          sql: "SELECT read_from, shopify_from, reconciled_at, retry_ids FROM sync_watermarks WHERE user_id = ? AND options_key = ?",
          args: [userId, optionsKey],
        })
      ).rows[0];
      if (!row) return null;
      const retryIds: unknown = JSON.parse(String(row.retry_ids));
      return {
        readFrom: String(row.read_from),
        shopifyFrom: row.shopify_from === null ? null : String(row.shopify_from),
        reconciledAt: String(row.reconciled_at),
        retryIds: Array.isArray(retryIds) ? retryIds.map(String) : [],
      };
    },

    /**
     * Saves where the next run reads from; the user's watermarks of other options that are due a
     * full read anyway (reconciled before `staleBefore`) go.
     */
    async saveWatermark(
      userId: string,
      watermark: Watermark & { optionsKey: string; staleBefore: string },
    ): Promise<void> {
      await db.batch(
        [
          {
            sql: `INSERT INTO sync_watermarks (user_id, options_key, read_from, shopify_from, reconciled_at, retry_ids) VALUES (?, ?, ?, ?, ?, ?)
                  ON CONFLICT(user_id, options_key) DO UPDATE SET read_from = excluded.read_from,
                    shopify_from = excluded.shopify_from, reconciled_at = excluded.reconciled_at,
                    retry_ids = excluded.retry_ids`,
            args: [
              userId,
              watermark.optionsKey,
              watermark.readFrom,
              watermark.shopifyFrom,
              watermark.reconciledAt,
              JSON.stringify(watermark.retryIds),
            ],
          },
          {
            sql: "DELETE FROM sync_watermarks WHERE user_id = ? AND options_key <> ? AND reconciled_at < ?",
            args: [userId, watermark.optionsKey, watermark.staleBefore],
          },
        ],
        "write",
      );
    },

    /** The next run of these options reads everything (its last run left what no change dates). */
    async dropWatermark(userId: string, optionsKey: string): Promise<void> {
      await db.execute({
        sql: "DELETE FROM sync_watermarks WHERE user_id = ? AND options_key = ?",
        args: [userId, optionsKey],
      });
    },

    /**
     * Mappings created or edited after `since` and not synced since (a sync moves updated_at and
     * last_synced_at together, so a mapping the last run synced is not among them).
     */
    async editedSince(userId: string, since: string): Promise<Set<string>> {
      const result = await db.execute({
        sql: `SELECT id FROM mappings WHERE user_id = ? AND updated_at > ?
                AND (last_synced_at IS NULL OR updated_at > last_synced_at)`,
        args: [userId, since],
      });
      return new Set(result.rows.map((row) => String(row.id)));
    },
  };
}

export type SyncRepo = ReturnType<typeof createSyncRepo>;

function targetOf(row: Row): SyncTarget {
  return {
    mappingId: String(row.id),
    shopifyVariantId: String(row.shopify_variant_id),
    shopifySku: String(row.shopify_sku),
    acumaticaId: String(row.acumatica_id),
    acumaticaSku: String(row.acumatica_sku),
  };
}
