import type { Row } from "@libsql/client";
import type { Mapping } from "@stockbridge/shared";
import { createCatalogCacheRepo } from "../catalog/cache-repo.ts";
import type { Db } from "../db/client.ts";

export interface NewMapping {
  id: string;
  userId: string;
  shopifyVariantId: string;
  shopifySku: string;
  acumaticaId: string;
  acumaticaSku: string;
  mappingType: Mapping["mappingType"];
  now: string;
}

/*
 * Reads LEFT JOIN the catalogs: a mapping whose variant or item vanished on a pull still shows,
 * with its SKU snapshot and `missing: true`, instead of silently disappearing.
 */
const VIEW_FROM = `FROM mappings m
  LEFT JOIN shopify_products sp ON sp.user_id = m.user_id AND sp.variant_id = m.shopify_variant_id
  LEFT JOIN acumatica_products ap ON ap.user_id = m.user_id AND ap.acumatica_id = m.acumatica_id`;

/** A mapping as lists show it (read by toMapping); the change feed reads it too. */
export const VIEW_SELECT = `SELECT m.id, m.shopify_variant_id, m.shopify_sku, m.acumatica_id, m.acumatica_sku, m.mapping_type,
    m.updated_at, m.last_synced_at, sp.id AS sp_id, sp.sku AS sp_sku, ap.id AS ap_id, ap.sku AS ap_sku
  ${VIEW_FROM}`;

const INSERT_COLUMNS = `INSERT INTO mappings (id, user_id, shopify_variant_id, shopify_sku, acumatica_id, acumatica_sku, mapping_type, created_at, updated_at)`;
const INSERT = `${INSERT_COLUMNS} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const INSERT_SELECT = `${INSERT_COLUMNS} SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?`;

const SEARCH_CLAUSE = `(m.shopify_sku LIKE ? ESCAPE '\\' OR m.acumatica_sku LIKE ? ESCAPE '\\'
  OR sp.sku LIKE ? ESCAPE '\\' OR ap.sku LIKE ? ESCAPE '\\')`;

/**
 * The only SQL for mappings; the catalog reads mapping needs (a variant or item by id, the rows no
 * mapping uses, auto mapping's candidates) are the catalog's (catalog/cache-repo.ts). Every query is
 * scoped by user.
 */
export function createMappingRepo(db: Db) {
  /** The first row of a query, mapped; null when there is none. */
  async function first<T>(sql: string, args: (string | number)[], map: (row: Row) => T): Promise<T | null> {
    const result = await db.execute({ sql, args });
    const row = result.rows[0];
    return row ? map(row) : null;
  }
  const catalog = createCatalogCacheRepo(db);

  return {
    findVariant: catalog.findVariant,
    findItem: catalog.findItem,
    unmappedTotal: catalog.unmappedTotal,
    unmappedPage: catalog.unmappedPage,
    autoMapCandidates: catalog.autoMapCandidates,

    get(userId: string, id: string): Promise<Mapping | null> {
      return first(`${VIEW_SELECT} WHERE m.user_id = ? AND m.id = ?`, [userId, id], toMapping);
    },

    findByVariant(userId: string, variantId: string): Promise<Mapping | null> {
      return first(
        `${VIEW_SELECT} WHERE m.user_id = ? AND m.shopify_variant_id = ?`,
        [userId, variantId],
        toMapping,
      );
    },

    findByItem(userId: string, acumaticaId: string): Promise<Mapping | null> {
      return first(
        `${VIEW_SELECT} WHERE m.user_id = ? AND m.acumatica_id = ?`,
        [userId, acumaticaId],
        toMapping,
      );
    },

    /**
     * Inserts the mapping unless the user already has `max` (null: no limit), in one statement, so
     * racing inserts never pass the limit. False when the limit refused it. A pair already mapped
     * fails with a unique violation (see isUniqueViolation).
     */
    async insert(mapping: NewMapping, max: number | null = null): Promise<boolean> {
      const result = await db.execute(
        max === null
          ? { sql: INSERT, args: insertArgs(mapping) }
          : {
              sql: `${INSERT_SELECT} WHERE (SELECT count(*) FROM mappings WHERE user_id = ?) < ?`,
              args: [...insertArgs(mapping), mapping.userId, max],
            },
      );
      return result.rowsAffected > 0;
    },

    /**
     * Inserts one user's mappings in one write transaction, at most as many as keep the user within
     * `max` (null: no limit); a pair taken meanwhile is skipped, not an error. Answers how many were
     * made and how many the limit left out.
     */
    async insertMany(
      userId: string,
      mappings: NewMapping[],
      max: number | null = null,
    ): Promise<{ created: number; overLimit: number }> {
      if (mappings.length === 0) return { created: 0, overLimit: 0 };
      const rows = JSON.stringify(
        mappings.map((m) => [
          m.id,
          m.shopifyVariantId,
          m.shopifySku,
          m.acumaticaId,
          m.acumaticaSku,
          m.mappingType,
          m.now,
        ]),
      );
      const [before, inserted] = await db.batch(
        [
          { sql: "SELECT count(*) AS total FROM mappings WHERE user_id = ?", args: [userId] },
          {
            sql: `${INSERT_COLUMNS}
                  SELECT r.value ->> 0, ?, r.value ->> 1, r.value ->> 2, r.value ->> 3, r.value ->> 4, r.value ->> 5, r.value ->> 6, r.value ->> 6
                  FROM json_each(?) r WHERE true ORDER BY r.key
                  LIMIT ${max === null ? "-1" : "max(0, ? - (SELECT count(*) FROM mappings WHERE user_id = ?))"}
                  ON CONFLICT DO NOTHING`,
            args: max === null ? [userId, rows] : [userId, rows, max, userId],
          },
        ],
        "write",
      );
      const existing = Number(before?.rows[0]?.total ?? 0);
      const attempted =
        max === null ? mappings.length : Math.min(mappings.length, Math.max(0, max - existing));
      return { created: inserted?.rowsAffected ?? 0, overLimit: mappings.length - attempted };
    },

    async count(userId: string): Promise<number> {
      const result = await db.execute({
        sql: "SELECT count(*) AS total FROM mappings WHERE user_id = ?",
        args: [userId],
      });
      return Number(result.rows[0]?.total ?? 0);
    },

    async update(mapping: Omit<NewMapping, "id"> & { id: string }): Promise<boolean> {
      const result = await db.execute({
        sql: `UPDATE mappings SET shopify_variant_id = ?, shopify_sku = ?, acumatica_id = ?, acumatica_sku = ?, mapping_type = ?, updated_at = ?
              WHERE id = ? AND user_id = ?`,
        args: [
          mapping.shopifyVariantId,
          mapping.shopifySku,
          mapping.acumaticaId,
          mapping.acumaticaSku,
          mapping.mappingType,
          mapping.now,
          mapping.id,
          mapping.userId,
        ],
      });
      return result.rowsAffected > 0;
    },

    async remove(userId: string, id: string): Promise<boolean> {
      const result = await db.execute({
        sql: "DELETE FROM mappings WHERE id = ? AND user_id = ?",
        args: [id, userId],
      });
      return result.rowsAffected > 0;
    },

    /** Newest first; `search` matches either SKU (snapshot or current), case-insensitively. */
    async page(
      userId: string,
      options: { offset: number; limit: number; search: string },
    ): Promise<{ mappings: Mapping[]; total: number }> {
      const pattern = `%${escapeLike(options.search)}%`;
      const where = options.search ? `WHERE m.user_id = ? AND ${SEARCH_CLAUSE}` : "WHERE m.user_id = ?";
      const whereArgs = options.search ? [userId, pattern, pattern, pattern, pattern] : [userId];
      const [rows, count] = await db.batch(
        [
          {
            sql: `${VIEW_SELECT} ${where} ORDER BY m.created_at DESC, m.id DESC LIMIT ? OFFSET ?`,
            args: [...whereArgs, options.limit, options.offset],
          },
          {
            sql: `SELECT COUNT(*) AS total ${VIEW_FROM} ${where}`,
            args: whereArgs,
          },
        ],
        "read",
      );
      return { mappings: (rows?.rows ?? []).map(toMapping), total: Number(count?.rows[0]?.total ?? 0) };
    },

    async byIds(userId: string, ids: string[]): Promise<Mapping[]> {
      if (ids.length === 0) return [];
      const found: Mapping[] = [];
      // SQLite caps bound parameters; 500 per statement stays far below it.
      for (let start = 0; start < ids.length; start += 500) {
        const chunk = ids.slice(start, start + 500);
        const result = await db.execute({
          sql: `${VIEW_SELECT} WHERE m.user_id = ? AND m.id IN (${chunk.map(() => "?").join(", ")})`,
          args: [userId, ...chunk],
        });
        found.push(...result.rows.map(toMapping));
      }
      return found;
    },
  };
}

export type MappingRepo = ReturnType<typeof createMappingRepo>;

export function toMapping(row: Row): Mapping {
  return {
    _id: String(row.id),
    shopifyDetails: {
      _id: row.sp_id === null ? null : String(row.sp_id),
      variantId: String(row.shopify_variant_id),
      sku: row.sp_sku === null ? String(row.shopify_sku) : String(row.sp_sku),
      missing: row.sp_id === null,
    },
    acumaticaDetails: {
      _id: row.ap_id === null ? null : String(row.ap_id),
      acumaticaId: String(row.acumatica_id),
      sku: row.ap_sku === null ? String(row.acumatica_sku) : String(row.ap_sku),
      missing: row.ap_id === null,
    },
    mappingType: String(row.mapping_type) === "manual" ? "manual" : "exact-sku",
    updatedAt: String(row.updated_at),
    lastSyncedAt: row.last_synced_at === null ? null : String(row.last_synced_at),
  };
}

function insertArgs(mapping: NewMapping): string[] {
  return [
    mapping.id,
    mapping.userId,
    mapping.shopifyVariantId,
    mapping.shopifySku,
    mapping.acumaticaId,
    mapping.acumaticaSku,
    mapping.mappingType,
    mapping.now,
    mapping.now,
  ];
}

/** Makes a user's search text literal inside LIKE. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Error && /UNIQUE constraint failed/i.test(error.message);
}
