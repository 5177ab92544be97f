import type { InStatement, Row } from "@libsql/client";
import type { Db } from "../db/client.ts";
import { ACUMATICA_TABLE, SHOPIFY_TABLE } from "./tables.ts";

export interface CatalogVariant {
  id: string;
  variantId: string;
  sku: string;
}

export interface CatalogItem {
  id: string;
  acumaticaId: string;
  sku: string;
}

export type UnmappedSide = "shopify" | "acumatica";

/** A catalog row no mapping uses: its row id, its id in its own system, its SKU. */
export interface UnmappedProduct {
  id: string;
  externalId: string;
  sku: string;
}

/** Which mapping column points at each side's rows, and the side's unmapped index (fixed names, no input). */
const UNMAPPED_SIDES = {
  shopify: {
    table: SHOPIFY_TABLE.table,
    key: SHOPIFY_TABLE.key,
    mappingKey: "shopify_variant_id",
    index: "shopify_products_unmapped",
  },
  acumatica: {
    table: ACUMATICA_TABLE.table,
    key: ACUMATICA_TABLE.key,
    mappingKey: "acumatica_id",
    index: "acumatica_products_unmapped",
  },
} as const;

function unmappedClause(t: (typeof UNMAPPED_SIDES)[UnmappedSide]): string {
  return `NOT EXISTS (SELECT 1 FROM mappings m WHERE m.user_id = p.user_id AND m.${t.mappingKey} = p.${t.key})`;
}

/** One catalog row as auto mapping sees it: its SKU key and whether a mapping already uses it. */
export interface AutoMapCandidate {
  externalId: string;
  sku: string;
  skuKey: string;
  mapped: boolean;
}

/** What a sync read from Shopify and writes back into the variant's cached row. */
export interface CachedVariantValues {
  variantId: string;
  priceCents: number;
  compareAtCents: number | null;
  tracked: boolean;
  /** The first location read (null when not stocked there), the one the row keeps apart. */
  locationId: string | null;
  available: number | null;
  onHand: number | null;
}

/** What a sync read from the ERP and writes back into the item's cached row (a null price keeps the cached one). */
export interface CachedItemValues {
  acumaticaId: string;
  defaultPriceCents: number | null;
  msrpCents: number | null;
  available: number | null;
  onHand: number | null;
  availableForShipping: number | null;
}

/**
 * The statements that write fresh values into the user's cached catalog rows (so the product lists
 * show what the stores hold now), for the caller to run in its own write transaction. One
 * `UPDATE ... FROM json_each` per table: a 2,000-row chunk is one statement, not 2,000; a row
 * whose values did not change is not rewritten (its change feed version stays).
 */
export function catalogRefreshStatements(
  userId: string,
  fresh: { variants: readonly CachedVariantValues[]; items: readonly CachedItemValues[] },
): InStatement[] {
  const statements: InStatement[] = [];
  if (fresh.variants.length > 0) {
    const rows = fresh.variants.map((s) => ({
      v: s.variantId,
      p: s.priceCents,
      c: s.compareAtCents,
      t: s.tracked ? 1 : 0,
      a: s.available,
      o: s.onHand,
      l: s.locationId,
    }));
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
      args: [JSON.stringify(rows), userId],
    });
  }
  if (fresh.items.length > 0) {
    const rows = fresh.items.map((e) => ({
      i: e.acumaticaId,
      p: e.defaultPriceCents,
      m: e.msrpCents,
      a: e.available,
      o: e.onHand,
      s: e.availableForShipping,
    }));
    statements.push({
      sql: `WITH j AS MATERIALIZED (SELECT value ->> 'i' AS i, value ->> 'p' AS p, value ->> 'm' AS m, value ->> 'a' AS a,
              value ->> 'o' AS o, value ->> 's' AS s FROM json_each(?))
            UPDATE acumatica_products SET default_price_cents = COALESCE(j.p, default_price_cents), msrp_cents = j.m, available = j.a,
              on_hand = j.o, available_for_shipping = j.s
            FROM j
            WHERE acumatica_products.user_id = ? AND acumatica_products.acumatica_id = j.i
              AND (default_price_cents IS NOT COALESCE(j.p, default_price_cents) OR msrp_cents IS NOT j.m OR available IS NOT j.a
                OR on_hand IS NOT j.o OR available_for_shipping IS NOT j.s)`,
      args: [JSON.stringify(rows), userId],
    });
  }
  return statements;
}

/**
 * The cached catalog rows as other features read them: mapping looks a variant or item up, lists
 * the rows no mapping uses and reads the candidates of auto mapping. Every query is scoped by user.
 */
export function createCatalogCacheRepo(db: Db) {
  /** The first row of a query, mapped; null when there is none. */
  async function first<T>(sql: string, args: string[], map: (row: Row) => T): Promise<T | null> {
    const result = await db.execute({ sql, args });
    const row = result.rows[0];
    return row ? map(row) : null;
  }

  return {
    findVariant(userId: string, variantId: string): Promise<CatalogVariant | null> {
      return first(
        `SELECT id, variant_id, sku FROM ${SHOPIFY_TABLE.table} WHERE user_id = ? AND variant_id = ?`,
        [userId, variantId],
        (row) => ({ id: String(row.id), variantId: String(row.variant_id), sku: String(row.sku) }),
      );
    },

    findItem(userId: string, acumaticaId: string): Promise<CatalogItem | null> {
      return first(
        `SELECT id, acumatica_id, sku FROM ${ACUMATICA_TABLE.table} WHERE user_id = ? AND acumatica_id = ?`,
        [userId, acumaticaId],
        (row) => ({ id: String(row.id), acumaticaId: String(row.acumatica_id), sku: String(row.sku) }),
      );
    },

    /**
     * How many of the user's products on one side no mapping uses (SKU containing `term`, a
     * lowercased search, when given). Without a term: all rows less the mapped ones, so the work
     * is one pass over an index plus one probe per mapping, never a probe per product.
     */
    async unmappedTotal(side: UnmappedSide, userId: string, term: string): Promise<number> {
      const t = UNMAPPED_SIDES[side];
      const result = await db.execute(
        term
          ? {
              sql: `SELECT count(*) AS total FROM ${t.table} p INDEXED BY ${t.index}
                    WHERE p.user_id = ? AND instr(p.sku_key, ?) > 0 AND ${unmappedClause(t)}`,
              args: [userId, term],
            }
          : {
              sql: `SELECT (SELECT count(*) FROM ${t.table} WHERE user_id = ?)
                      - (SELECT count(*) FROM mappings m JOIN ${t.table} p ON p.user_id = m.user_id AND p.${t.key} = m.${t.mappingKey}
                         WHERE m.user_id = ?) AS total`,
              args: [userId, userId],
            },
      );
      return Number(result.rows[0]?.total ?? 0);
    },

    /**
     * One window of the user's unmapped products on one side, by SKU then external id, walked on
     * the side's unmapped index: skipped rows cost an index step and a probe, never a table read.
     */
    async unmappedPage(
      side: UnmappedSide,
      userId: string,
      window: { term: string; offset: number; limit: number; descending: boolean },
    ): Promise<UnmappedProduct[]> {
      const t = UNMAPPED_SIDES[side];
      const direction = window.descending ? "DESC" : "ASC";
      const result = await db.execute({
        sql: `SELECT p.id, p.${t.key} AS external_id, p.sku FROM ${t.table} p INDEXED BY ${t.index}
              WHERE p.user_id = ?${window.term ? " AND instr(p.sku_key, ?) > 0" : ""} AND ${unmappedClause(t)}
              ORDER BY p.sku_key ${direction}, p.${t.key} ${direction} LIMIT ? OFFSET ?`,
        args: window.term
          ? [userId, window.term, window.limit, window.offset]
          : [userId, window.limit, window.offset],
      });
      return result.rows.map((row) => ({
        id: String(row.id),
        externalId: String(row.external_id),
        sku: String(row.sku),
      }));
    },

    async autoMapCandidates(
      userId: string,
    ): Promise<{ shopify: AutoMapCandidate[]; acumatica: AutoMapCandidate[] }> {
      const [shopify, acumatica] = await db.batch(
        [
          {
            sql: `SELECT sp.variant_id AS external_id, sp.sku, sp.sku_key,
                    EXISTS (SELECT 1 FROM mappings m WHERE m.user_id = sp.user_id AND m.shopify_variant_id = sp.variant_id) AS mapped
                  FROM shopify_products sp WHERE sp.user_id = ? ORDER BY sp.sku_key, sp.id`,
            args: [userId],
          },
          {
            sql: `SELECT ap.acumatica_id AS external_id, ap.sku, ap.sku_key,
                    EXISTS (SELECT 1 FROM mappings m WHERE m.user_id = ap.user_id AND m.acumatica_id = ap.acumatica_id) AS mapped
                  FROM acumatica_products ap WHERE ap.user_id = ? ORDER BY ap.sku_key, ap.id`,
            args: [userId],
          },
        ],
        "read",
      );
      return {
        shopify: (shopify?.rows ?? []).map(toCandidate),
        acumatica: (acumatica?.rows ?? []).map(toCandidate),
      };
    },
  };
}

export type CatalogCacheRepo = ReturnType<typeof createCatalogCacheRepo>;

function toCandidate(row: Row): AutoMapCandidate {
  return {
    externalId: String(row.external_id),
    sku: String(row.sku),
    skuKey: String(row.sku_key),
    mapped: Number(row.mapped) === 1,
  };
}
