import type { Db } from "../db/client.ts";
import type { ErpValues, ShopifyValues, SyncTarget } from "./plan.ts";

const CHUNK = 500;
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

/** The only SQL of the sync engine: the mappings in scope, and the cache and mapping updates after a run. */
export function createSyncRepo(db: Db) {
  return {
    /** Mappings in scope, oldest first; ids that are not the user's are left out. */
    async targets(userId: string, scope: { mappingIds: string[] } | "all"): Promise<SyncTarget[]> {
      const select =
        "SELECT id, shopify_variant_id, shopify_sku, acumatica_id, acumatica_sku FROM mappings WHERE user_id = ?";
      const rows = [];
      if (scope === "all") {
        rows.push(...(await db.execute({ sql: `${select} ORDER BY created_at, id`, args: [userId] })).rows);
      } else {
        const ids = [...new Set(scope.mappingIds)];
        for (let start = 0; start < ids.length; start += CHUNK) {
          const chunk = ids.slice(start, start + CHUNK);
          const result = await db.execute({
            sql: `${select} AND id IN (${chunk.map(() => "?").join(", ")}) ORDER BY created_at, id`,
            args: [userId, ...chunk],
          });
          rows.push(...result.rows);
        }
      }
      return rows.map((row) => ({
        mappingId: String(row.id),
        shopifyVariantId: String(row.shopify_variant_id),
        shopifySku: String(row.shopify_sku),
        acumaticaId: String(row.acumatica_id),
        acumaticaSku: String(row.acumatica_sku),
      }));
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
     * Writes fresh values into the cached catalog rows (so the product lists show what the stores
     * hold now) and moves last sync on the mappings that synced. One `UPDATE ... FROM json_each`
     * per table and chunk: a 10,000-mapping run is a handful of statements, not 30,000.
     */
    async applyCache(userId: string, updates: CacheUpdate[], now: string): Promise<void> {
      const statements: { sql: string; args: (string | number | null)[] }[] = [];
      for (let start = 0; start < updates.length; start += CACHE_CHUNK) {
        const chunk = updates.slice(start, start + CACHE_CHUNK);
        const shopify = chunk.flatMap(({ shopify: s }) =>
          s
            ? [
                {
                  v: s.variantId,
                  p: s.priceCents,
                  c: s.compareAtCents,
                  t: s.tracked ? 1 : 0,
                  a: s.available,
                  o: s.onHand,
                  l: s.locationId,
                },
              ]
            : [],
        );
        const erp = chunk.flatMap(({ erp: e, acumaticaId }) =>
          e
            ? [
                {
                  i: acumaticaId,
                  p: e.defaultPriceCents,
                  m: e.msrpCents,
                  a: e.available,
                  o: e.onHand,
                  s: e.availableForShipping,
                },
              ]
            : [],
        );
        const synced = chunk.filter((update) => update.synced).map((update) => update.mappingId);
        if (shopify.length > 0) {
          statements.push({
            // MATERIALIZED makes the JSON rows the outer loop, each finding its row by the unique index.
            sql: `WITH j AS MATERIALIZED (SELECT value ->> 'v' AS v, value ->> 'p' AS p, value ->> 'c' AS c, value ->> 't' AS t,
                    value ->> 'a' AS a, value ->> 'o' AS o, value ->> 'l' AS l FROM json_each(?))
                  UPDATE shopify_products SET price_cents = j.p, compare_at_price_cents = j.c, tracked = j.t, available = j.a, on_hand = j.o,
                    locations_json = CASE WHEN j.l IS NOT NULL AND json_valid(locations_json) AND json_array_length(locations_json) > 0
                      AND json_extract(locations_json, '$[0].locationId') = j.l
                      THEN json_set(locations_json, '$[0].available', j.a, '$[0].onHandInventory', j.o) ELSE locations_json END
                  FROM j
                  WHERE shopify_products.user_id = ? AND shopify_products.variant_id = j.v
                    AND (price_cents IS NOT j.p OR compare_at_price_cents IS NOT j.c OR tracked IS NOT j.t OR available IS NOT j.a OR on_hand IS NOT j.o)`,
            args: [JSON.stringify(shopify), userId],
          });
        }
        if (erp.length > 0) {
          statements.push({
            sql: `WITH j AS MATERIALIZED (SELECT value ->> 'i' AS i, value ->> 'p' AS p, value ->> 'm' AS m, value ->> 'a' AS a,
                    value ->> 'o' AS o, value ->> 's' AS s FROM json_each(?))
                  UPDATE acumatica_products SET default_price_cents = COALESCE(j.p, default_price_cents), msrp_cents = j.m, available = j.a,
                    on_hand = j.o, available_for_shipping = j.s
                  FROM j
                  WHERE acumatica_products.user_id = ? AND acumatica_products.acumatica_id = j.i
                    AND (default_price_cents IS NOT COALESCE(j.p, default_price_cents) OR msrp_cents IS NOT j.m OR available IS NOT j.a
                      OR on_hand IS NOT j.o OR available_for_shipping IS NOT j.s)`,
            args: [JSON.stringify(erp), userId],
          });
        }
        if (synced.length > 0) {
          statements.push({
            sql: "UPDATE mappings SET last_synced_at = ?, updated_at = ? WHERE user_id = ? AND id IN (SELECT value FROM json_each(?))",
            args: [now, now, userId, JSON.stringify(synced)],
          });
        }
      }
      if (statements.length > 0) await db.batch(statements, "write");
    },
  };
}

export type SyncRepo = ReturnType<typeof createSyncRepo>;
