import type { Db } from "../db/client.ts";
import type { ErpValues, ShopifyValues, SyncTarget } from "./plan.ts";

const CHUNK = 500;

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
      const select = "SELECT id, shopify_variant_id, shopify_sku, acumatica_id, acumatica_sku FROM mappings WHERE user_id = ?";
      const rows = [];
      if (scope === "all") {
        rows.push(...(await db.execute({ sql: `${select} ORDER BY created_at, id`, args: [userId] })).rows);
      } else {
        const ids = [...new Set(scope.mappingIds)];
        for (let start = 0; start < ids.length; start += CHUNK) {
          const chunk = ids.slice(start, start + CHUNK);
          const result = await db.execute({ sql: `${select} AND id IN (${chunk.map(() => "?").join(", ")}) ORDER BY created_at, id`, args: [userId, ...chunk] });
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

    /**
     * Writes fresh values into the cached catalog rows (so the product lists show what the stores
     * hold now) and moves last sync on the mappings that synced. Chunked write transactions.
     */
    async applyCache(userId: string, updates: CacheUpdate[], now: string): Promise<void> {
      const statements: { sql: string; args: (string | number | null)[] }[] = [];
      for (const update of updates) {
        const { shopify, erp } = update;
        if (shopify) {
          statements.push({
            sql: `UPDATE shopify_products SET price_cents = ?, compare_at_price_cents = ?, tracked = ?, available = ?, on_hand = ?,
                    locations_json = CASE WHEN json_valid(locations_json) AND json_array_length(locations_json) > 0
                      AND json_extract(locations_json, '$[0].locationId') = ?
                      THEN json_set(locations_json, '$[0].available', ?, '$[0].onHandInventory', ?) ELSE locations_json END
                  WHERE user_id = ? AND variant_id = ?`,
            args: [
              shopify.priceCents,
              shopify.compareAtCents,
              shopify.tracked ? 1 : 0,
              shopify.available,
              shopify.onHand,
              shopify.locationId,
              shopify.available,
              shopify.onHand,
              userId,
              shopify.variantId,
            ],
          });
        }
        if (erp) {
          statements.push({
            sql: `UPDATE acumatica_products SET default_price_cents = COALESCE(?, default_price_cents), msrp_cents = ?, available = ?, on_hand = ?,
                    available_for_shipping = ? WHERE user_id = ? AND acumatica_id = ?`,
            args: [erp.defaultPriceCents, erp.msrpCents, erp.available, erp.onHand, erp.availableForShipping, userId, update.acumaticaId],
          });
        }
        if (update.synced) {
          statements.push({ sql: "UPDATE mappings SET last_synced_at = ?, updated_at = ? WHERE user_id = ? AND id = ?", args: [now, now, userId, update.mappingId] });
        }
      }
      for (let start = 0; start < statements.length; start += CHUNK) await db.batch(statements.slice(start, start + CHUNK), "write");
    },
  };
}

export type SyncRepo = ReturnType<typeof createSyncRepo>;
