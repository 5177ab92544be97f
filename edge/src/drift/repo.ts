import type { Row } from "@libsql/client";
import { DRIFT_FIELDS, DRIFT_SOURCES, type DriftField } from "@stockbridge/shared";
import { type Db, withoutMemoryMapFor } from "../db/client.ts";

/** One differing field as stored: prices in cents, quantities in units. */
export interface DriftRow {
  mappingId: string;
  shopifySku: string;
  acumaticaSku: string;
  field: DriftField;
  locationId: string | null;
  shopify: number | null;
  erp: number | null;
}

export type DriftSource = (typeof DRIFT_SOURCES)[number];

/** What one run read, for the drift: every mapping (a check) or some of them. */
export interface DriftRun {
  /** "all" replaces the user's drift and check; a list replaces only those mappings' rows. */
  scope: "all" | readonly string[];
  checkedAt: string;
  /** How many mappings the run compared. */
  mappings: number;
  fields: DriftField[];
  source: DriftSource;
  historyId: string | null;
  items: DriftRow[];
}

export interface DriftCheck {
  checkedAt: string;
  mappings: number;
  fields: DriftField[];
  source: DriftSource;
}

/** Rows per INSERT (one JSON parameter each). */
const INSERT_CHUNK = 2_000;

const SELECT_ITEM =
  "SELECT id, mapping_id, shopify_sku, acumatica_sku, field, location_id, shopify_value, erp_value";

/** The only SQL of drift. Every query filters by the owner; a row names only the owner's mapping. */
export function createDriftRepo(db: Db) {
  /** Inserts the rows of mappings that are still the user's (one may be deleted while a run reads). */
  function inserts(userId: string, items: readonly DriftRow[], onlyWithCheck: boolean) {
    const statements = [];
    const guard = onlyWithCheck ? " AND EXISTS (SELECT 1 FROM drift_checks c WHERE c.user_id = ?)" : "";
    for (let start = 0; start < items.length; start += INSERT_CHUNK) {
      const chunk = items.slice(start, start + INSERT_CHUNK).map((item) => ({
        m: item.mappingId,
        s: item.shopifySku,
        a: item.acumaticaSku,
        f: item.field,
        l: item.locationId,
        sv: item.shopify,
        ev: item.erp,
      }));
      statements.push({
        sql: `INSERT INTO drift_items (user_id, mapping_id, shopify_sku, acumatica_sku, field, location_id, shopify_value, erp_value)
              SELECT ?, j.value ->> 'm', j.value ->> 's', j.value ->> 'a', j.value ->> 'f', j.value ->> 'l', j.value ->> 'sv', j.value ->> 'ev'
              FROM json_each(?) AS j
              WHERE EXISTS (SELECT 1 FROM mappings m WHERE m.id = j.value ->> 'm' AND m.user_id = ?)${guard}
              ORDER BY j.key`,
        args: onlyWithCheck
          ? [userId, JSON.stringify(chunk), userId, userId]
          : [userId, JSON.stringify(chunk), userId],
      });
    }
    return statements;
  }

  return {
    /**
     * Records what a run found, in one transaction. A check of every mapping replaces the user's
     * drift and check (the latest check wins); a run of some mappings replaces their rows, once a
     * check exists (before the first one there is no list to keep current).
     */
    async record(userId: string, run: DriftRun): Promise<void> {
      if (run.scope === "all") {
        await withoutMemoryMapFor(db, run.items.length, () =>
          db.batch(
            [
              { sql: "DELETE FROM drift_items WHERE user_id = ?", args: [userId] },
              ...inserts(userId, run.items, false),
              {
                sql: `INSERT INTO drift_checks (user_id, checked_at, mappings, fields_json, source, history_id)
                    VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT(user_id) DO UPDATE SET checked_at = excluded.checked_at, mappings = excluded.mappings,
                      fields_json = excluded.fields_json, source = excluded.source, history_id = excluded.history_id`,
                args: [
                  userId,
                  run.checkedAt,
                  run.mappings,
                  JSON.stringify(run.fields),
                  run.source,
                  run.historyId,
                ],
              },
            ],
            "write",
          ),
        );
        return;
      }
      if (run.scope.length === 0) return;
      const scope = run.scope;
      await withoutMemoryMapFor(db, run.items.length + scope.length, () =>
        db.batch(
          [
            {
              sql: `DELETE FROM drift_items WHERE user_id = ? AND mapping_id IN (SELECT value FROM json_each(?))
                    AND EXISTS (SELECT 1 FROM drift_checks c WHERE c.user_id = ?)`,
              args: [userId, JSON.stringify(scope), userId],
            },
            ...inserts(userId, run.items, true),
          ],
          "write",
        ),
      );
    },

    /** The latest check, the counts and the first `limit` rows, read in one snapshot. */
    async summary(
      userId: string,
      limit: number,
    ): Promise<{
      check: DriftCheck | null;
      drifted: number;
      byField: Record<DriftField, number>;
      items: DriftRow[];
    }> {
      const [check, byField, drifted, items] = await db.batch(
        [
          {
            sql: "SELECT checked_at, mappings, fields_json, source FROM drift_checks WHERE user_id = ?",
            args: [userId],
          },
          {
            sql: "SELECT field, COUNT(DISTINCT mapping_id) AS n FROM drift_items WHERE user_id = ? GROUP BY field",
            args: [userId],
          },
          {
            sql: "SELECT COUNT(DISTINCT mapping_id) AS n FROM drift_items WHERE user_id = ?",
            args: [userId],
          },
          {
            sql: `${SELECT_ITEM} FROM drift_items WHERE user_id = ? ORDER BY id LIMIT ?`,
            args: [userId, limit],
          },
        ],
        "read",
      );
      const counts: Record<DriftField, number> = { price: 0, compareAtPrice: 0, quantity: 0 };
      for (const row of byField?.rows ?? []) {
        const field = fieldOf(row.field);
        if (field) counts[field] = Number(row.n);
      }
      const checkRow = check?.rows[0];
      return {
        check: checkRow ? toCheck(checkRow) : null,
        drifted: Number(drifted?.rows[0]?.n ?? 0),
        byField: counts,
        items: (items?.rows ?? []).flatMap((row) => toItem(row) ?? []),
      };
    },

    /**
     * A page of rows after `afterId`, in the check's order, with the time of the check they belong
     * to (a reader of many pages can tell when a newer check replaced the list under it).
     */
    async page(
      userId: string,
      options: { afterId: number; limit: number },
    ): Promise<{ checkedAt: string | null; rows: { id: number; item: DriftRow }[] }> {
      const [check, page] = await db.batch(
        [
          { sql: "SELECT checked_at FROM drift_checks WHERE user_id = ?", args: [userId] },
          {
            sql: `${SELECT_ITEM} FROM drift_items WHERE user_id = ? AND id > ? ORDER BY id LIMIT ?`,
            args: [userId, options.afterId, options.limit],
          },
        ],
        "read",
      );
      const checkedAt = check?.rows[0]?.checked_at;
      return {
        checkedAt: checkedAt === undefined || checkedAt === null ? null : String(checkedAt),
        rows: (page?.rows ?? []).flatMap((row) => {
          const item = toItem(row);
          return item ? [{ id: Number(row.id), item }] : [];
        }),
      };
    },

    /** The drifted mappings (each once, in the check's order) and the fields that differ. */
    async drifted(userId: string): Promise<{ mappingIds: string[]; fields: DriftField[] }> {
      const [ids, fields] = await db.batch(
        [
          {
            sql: "SELECT mapping_id FROM drift_items WHERE user_id = ? GROUP BY mapping_id ORDER BY MIN(id)",
            args: [userId],
          },
          { sql: "SELECT DISTINCT field FROM drift_items WHERE user_id = ?", args: [userId] },
        ],
        "read",
      );
      return {
        mappingIds: (ids?.rows ?? []).map((row) => String(row.mapping_id)),
        fields: (fields?.rows ?? []).flatMap((row) => fieldOf(row.field) ?? []),
      };
    },
  };
}

export type DriftRepo = ReturnType<typeof createDriftRepo>;

function fieldOf(value: unknown): DriftField | null {
  return DRIFT_FIELDS.find((field) => field === value) ?? null;
}

function sourceOf(value: unknown): DriftSource {
  return DRIFT_SOURCES.find((source) => source === value) ?? "sync";
}

function toCheck(row: Row): DriftCheck {
  const fields: unknown = JSON.parse(String(row.fields_json));
  return {
    checkedAt: String(row.checked_at),
    mappings: Number(row.mappings),
    fields: Array.isArray(fields) ? fields.flatMap((field) => fieldOf(field) ?? []) : [],
    source: sourceOf(row.source),
  };
}

function toItem(row: Row): DriftRow | null {
  const field = fieldOf(row.field);
  if (!field) return null;
  return {
    mappingId: String(row.mapping_id),
    shopifySku: String(row.shopify_sku),
    acumaticaSku: String(row.acumatica_sku),
    field,
    locationId: row.location_id === null ? null : String(row.location_id),
    shopify: row.shopify_value === null ? null : Number(row.shopify_value),
    erp: row.erp_value === null ? null : Number(row.erp_value),
  };
}
