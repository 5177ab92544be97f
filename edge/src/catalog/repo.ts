import type { AcumaticaItemRow } from "../connectors/acumatica/catalog-reader.ts";
import type { ShopifyVariantRow } from "../connectors/shopify/catalog-reader.ts";
import { type Db, withoutMemoryMap } from "../db/client.ts";
import { createListQueries, type ListedPage, type ListRequest } from "./list-repo.ts";
import type { SearchCache } from "./search-cache.ts";
import { createSortOrders, type SortOrders } from "./sort-orders.ts";
import { ACUMATICA_TABLE, type CatalogSystem, type CatalogTable, SHOPIFY_TABLE, TABLES } from "./tables.ts";

export type { ListedPage, ListRequest };

export interface SwapCounts {
  total: number;
  added: number;
  /** Rows whose values changed; `unchanged` rows are left as they were. */
  updated: number;
  unchanged: number;
  removed: number;
}

/**
 * Remembered sort orders: a catalog's is 4 bytes a row (16 MB at most, 40 orders of 100,000 rows);
 * a search's holds its few matches (at most 2,000).
 */
const CATALOG_ORDERS = { orders: 200, rowids: 4_000_000 };
const SEARCH_ORDERS = { orders: 2_000, rowids: 1_000_000 };

/**
 * Characters of staged JSON per catalog_staging row: under V8's large-object size (128 KB) even as
 * two-byte text, so each piece is short-lived young-generation garbage.
 */
const STAGED_PIECE_CHARS = 48 * 1024;

/** A pull's last staged chunk (by the primary key): it ends where the pull's staged rows end. */
const LAST_CHUNK = "catalog_staging WHERE job_id = ? ORDER BY chunk DESC LIMIT 1";

/** Rowids per transaction when a pull's rows are added to the search index (about 20 ms each). */
const SEARCH_INDEX_WINDOW = 10_000;

/** The SQL for the cached catalogs: staging writes, the swap, and (list-repo.ts) the list queries. */
export function createCatalogRepo(
  db: Db,
  searchCache: SearchCache,
  options: { orders?: SortOrders; searchOrders?: SortOrders; searchIndexWindow?: number } = {},
) {
  const searchIndexWindow = options.searchIndexWindow ?? SEARCH_INDEX_WINDOW;
  const lists = createListQueries(db, {
    searches: searchCache,
    orders: options.orders ?? createSortOrders(CATALOG_ORDERS),
    searchOrders: options.searchOrders ?? createSortOrders(SEARCH_ORDERS),
  });

  /**
   * A pull stages the rows it reads as rows of JSON (`[key, newId, ...columns]` per product): one
   * small write per piece while reading, and the swap spreads them into columns once. Rows staged a
   * row each cost more to write, index and delete than the swap's own work. A chunk is written in
   * pieces of at most STAGED_PIECE_CHARS of text (one transaction), so no text is one of V8's large
   * objects: those are freed only by a full collection, and 100 chunks of 230 KB per 50,000-variant
   * pull grew the heap by 40-70 MB.
   */
  async function stage(system: CatalogSystem, pull: { jobId: string; userId: string; rows: unknown[][] }) {
    const { jobId, userId, rows } = pull;
    if (rows.length === 0) return;
    const pieces: { rows: string[]; keys: unknown[] }[] = [];
    let piece = { rows: [] as string[], keys: [] as unknown[] };
    let chars = 0;
    for (const row of rows) {
      const text = JSON.stringify(row);
      if (piece.rows.length > 0 && chars + text.length > STAGED_PIECE_CHARS) {
        pieces.push(piece);
        piece = { rows: [], keys: [] };
        chars = 0;
      }
      piece.rows.push(text);
      piece.keys.push(row[0]);
      chars += text.length + 1;
    }
    pieces.push(piece);
    // first_row: the rows this pull staged before (migration 30), which the swap numbers rows by;
    // keys_json: the rows' keys alone, for the swap to find vanished rows without reading rows_json.
    // Both follow from the pull's last chunk alone: its columns sit after rows_json in the record,
    // so max() over every chunk walked all the text staged so far for each new piece (and, through
    // the memory map, kept ~25 MB of it in the RSS of a 50,000-variant pull).
    await db.batch(
      pieces.map((staged) => ({
        sql: `INSERT INTO catalog_staging (job_id, chunk, first_row, row_count, user_id, system, rows_json, keys_json)
              VALUES (?, coalesce((SELECT chunk FROM ${LAST_CHUNK}), 0) + 1,
                coalesce((SELECT first_row + row_count FROM ${LAST_CHUNK}), 0), ?, ?, ?, ?, ?)`,
        args: [
          jobId,
          jobId,
          jobId,
          staged.rows.length,
          userId,
          system,
          `[${staged.rows.join(",")}]`,
          JSON.stringify(staged.keys),
        ],
      })),
      "write",
    );
  }

  /**
   * Replaces the user's catalog with the staged pull in one transaction: vanished rows removed, new
   * rows added (with the staged ids), changed rows rewritten in place (ids kept), unchanged rows
   * left alone, staging emptied, and the catalog's total, version and lastSynced recorded (one
   * lastSynced for the whole catalog). (A key staged twice, as a shifting page can do, ends with its
   * last values.) The rows it adds are left out of the SKU search index, marked by `unindexed_from`,
   * for indexSearch to add after it: the swap holds the database's only write lock.
   */
  async function swap(
    system: CatalogSystem,
    pull: { jobId: string; userId: string; syncedAt: string },
  ): Promise<SwapCounts> {
    const { jobId, userId, syncedAt } = pull;
    const t = TABLES[system];
    const chunks = "catalog_staging c CROSS JOIN json_each(c.rows_json) r WHERE c.job_id = ?";
    const stagedKeys =
      "SELECT k.value FROM catalog_staging c CROSS JOIN json_each(c.keys_json) k WHERE c.job_id = ?";
    // Materialized: each product's JSON text is rendered once, not once per column read from it.
    // Its place in the pull (1, 2, ...) numbers its change-feed version.
    // A JSON column is read as its JSON text (->), any other as its SQL value (->>).
    const read = (column: string, index: number) =>
      `v ${t.jsonColumns.includes(column) ? "->" : "->>"} ${index} AS ${column}`;
    const stagedRows = `WITH staged AS MATERIALIZED (SELECT r.value AS v, c.first_row + r.key + 1 AS place FROM ${chunks})
      SELECT place, ${["k", "new_id", ...t.columns].map(read).join(", ")} FROM staged`;
    // An unchanged row is not rewritten.
    const sameValues = t.columns.map((column) => `${t.table}.${column} IS excluded.${column}`).join(" AND ");
    const base = "(SELECT swap_base FROM change_versions WHERE user_id = ?)";
    const removeVanished = {
      sql: `DELETE FROM ${t.table} WHERE user_id = ? AND ${t.key} NOT IN (${stagedKeys})`,
      args: [userId, jobId],
    };
    // Added and rewritten rows take their version as they are written (no per-row version
    // trigger fires: they are not NULL), unique and above every version handed out before.
    const writeStaged = {
      sql: `INSERT INTO ${t.table} (id, user_id, ${t.key}, ${t.columns.join(", ")}, row_version)
              SELECT s.new_id, ?, s.k, ${t.columns.map((column) => `s.${column}`).join(", ")}, ${base} + s.place
              FROM (${stagedRows}) s
              WHERE true
              ON CONFLICT(user_id, ${t.key}) DO UPDATE SET
                ${t.columns.map((column) => `${column} = excluded.${column}`).join(", ")}, row_version = excluded.row_version
              WHERE NOT (${sameValues})`,
      args: [userId, userId, jobId],
    };
    const statements = [
      { sql: `SELECT count(*) AS total FROM ${t.table} WHERE user_id = ?`, args: [userId] },
      // Rows stored from here on skip the search index's insert trigger (migration 11). An older
      // mark (a previous pull's rows not indexed yet) is kept, so indexSearch covers those too.
      {
        sql: `INSERT INTO catalog_state (user_id, system, total, version, last_synced, unindexed_from)
                VALUES (?, ?, 0, 0, ?, (SELECT coalesce(max(seq), 0) FROM ${t.table}))
                ON CONFLICT(user_id, system) DO UPDATE SET
                  unindexed_from = coalesce(catalog_state.unindexed_from, excluded.unindexed_from)`,
        args: [userId, system, syncedAt],
      },
      removeVanished,
      ...reserveVersions(userId, jobId),
      writeStaged,
      { sql: "DELETE FROM catalog_staging WHERE job_id = ?", args: [jobId] },
      touchMappingsOfChanged(t, userId),
      // The one version bump of the swap: rows it adds or removes bump nothing themselves
      // (migration 10), and cached orders and searches key on this.
      {
        sql: `INSERT INTO catalog_state (user_id, system, total, version, last_synced)
                VALUES (?, ?, (SELECT count(*) FROM ${t.table} WHERE user_id = ?), 1, ?)
                ON CONFLICT(user_id, system) DO UPDATE SET
                  total = excluded.total, version = catalog_state.version + 1, last_synced = excluded.last_synced
                RETURNING total`,
        args: [userId, system, userId, syncedAt],
      },
    ];
    // The swap reads every staged row and much of the table once: see withoutMemoryMap.
    const results = await withoutMemoryMap(db, () => db.batch(statements, "write"));
    // After the swap the catalog holds exactly the staged keys, so the counts follow from totals.
    const before = Number(results[0]?.rows[0]?.total ?? 0);
    // Looked up by statement, not by place: reserveVersions may add statements before the write.
    const removed = results[statements.indexOf(removeVanished)]?.rowsAffected ?? 0;
    const total = Number(results.at(-1)?.rows[0]?.total ?? 0);
    const added = total - (before - removed);
    // Inserted and rewritten rows; a key staged twice may count twice, so the counts are clamped.
    const updated = Math.min(
      Math.max(0, (results[statements.indexOf(writeStaged)]?.rowsAffected ?? 0) - added),
      total - added,
    );
    return { total, added, updated, unchanged: total - added - updated, removed };
  }

  async function indexSearchWindows(system: CatalogSystem, userId: string) {
    const t = TABLES[system];
    const state = "catalog_state WHERE user_id = ? AND system = ?";
    for (;;) {
      const mark = await db.execute({ sql: `SELECT unindexed_from FROM ${state}`, args: [userId, system] });
      const from = mark.rows[0]?.unindexed_from;
      if (from === null || from === undefined) return;
      const to = Number(from) + searchIndexWindow;
      await db.batch(
        [
          {
            sql: `INSERT OR REPLACE INTO ${t.skuSearch} (rowid, sku_key)
                  SELECT seq, sku_key FROM ${t.table} WHERE seq > ? AND seq <= ? AND user_id = ?`,
            args: [from, to, userId],
          },
          // Done once the window reaches the last row (a later swap's rows keep it going).
          {
            sql: `UPDATE catalog_state SET unindexed_from =
                    CASE WHEN ? >= (SELECT coalesce(max(seq), 0) FROM ${t.table}) THEN NULL ELSE ? END
                  WHERE user_id = ? AND system = ? AND unindexed_from = ?`,
            args: [to, to, userId, system, from],
          },
        ],
        "write",
      );
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }

  /**
   * The change feed's versions for the rows the swap writes (migration 27): the user's counter
   * jumps past as many versions as the pull staged rows, and each row the swap adds or rewrites
   * takes base + its place in the pull, unique and above every version handed out before.
   * Unchanged rows keep theirs, so a pull that changes nothing sends nothing new.
   */
  function reserveVersions(userId: string, jobId: string) {
    return [
      { sql: "INSERT OR IGNORE INTO change_versions (user_id, version) VALUES (?, 0)", args: [userId] },
      {
        sql: `UPDATE change_versions SET swap_base = version, version = version +
                coalesce((SELECT first_row + row_count FROM ${LAST_CHUNK}), 0)
              WHERE user_id = ?`,
        args: [jobId, userId],
      },
    ];
  }

  /**
   * Mappings showing a row the swap changed follow it. Asked per mapping (its row by the unique
   * key) rather than per changed row: a first pull changes every row and may have no mappings.
   */
  function touchMappingsOfChanged(t: CatalogTable, userId: string) {
    const mappingKey = t.system === "shopify" ? "shopify_variant_id" : "acumatica_id";
    return {
      sql: `UPDATE mappings SET row_version = NULL WHERE user_id = ? AND EXISTS (SELECT 1 FROM ${t.table} p
              WHERE p.user_id = mappings.user_id AND p.${t.key} = mappings.${mappingKey}
                AND p.row_version > (SELECT swap_base FROM change_versions WHERE user_id = ?))`,
      args: [userId, userId],
    };
  }

  return {
    /** A page of the user's products (values in the table's `listed` order) and the total matched. */
    list: (system: CatalogSystem, userId: string, request: ListRequest): Promise<ListedPage> =>
      lists.list(TABLES[system], userId, request),
    swap,

    /**
     * Adds the rows the last swaps left out (above `unindexed_from`) to the SKU search index and
     * clears the mark, a window of rowids per transaction with a turn of the event loop between,
     * so requests are answered meanwhile. Safe to repeat: an entry is replaced, not doubled.
     */
    indexSearch(system: CatalogSystem, userId: string) {
      // Reads the new rows once (each window's): see withoutMemoryMap.
      return withoutMemoryMap(db, () => indexSearchWindows(system, userId));
    },

    /**
     * Catalogs whose search entries a swap left for later and that are still waiting (their
     * process stopped before indexing them): each user and system, for indexSearch.
     */
    async unindexedCatalogs(): Promise<{ userId: string; system: CatalogSystem }[]> {
      const result = await db.execute(
        "SELECT user_id, system FROM catalog_state WHERE unindexed_from IS NOT NULL ORDER BY user_id, system",
      );
      return result.rows.map((row) => ({ userId: String(row.user_id), system: row.system as CatalogSystem }));
    },

    async stageShopify(pull: {
      jobId: string;
      userId: string;
      rows: ShopifyVariantRow[];
      newId: () => string;
    }) {
      const { jobId, userId, rows, newId } = pull;
      await stage("shopify", { jobId, userId, rows: rows.map((row) => SHOPIFY_TABLE.stage(row, newId())) });
    },

    async stageAcumatica(pull: {
      jobId: string;
      userId: string;
      rows: AcumaticaItemRow[];
      newId: () => string;
    }) {
      const { jobId, userId, rows, newId } = pull;
      await stage("acumatica", {
        jobId,
        userId,
        rows: rows.map((row) => ACUMATICA_TABLE.stage(row, newId())),
      });
    },

    /** Drops a pull's staged rows (failed pull), or every leftover of the user's (a crashed one). */
    async discardStaging(system: CatalogSystem, filter: { jobId: string } | { userId: string }) {
      await db.execute(
        "jobId" in filter
          ? { sql: "DELETE FROM catalog_staging WHERE job_id = ?", args: [filter.jobId] }
          : {
              sql: "DELETE FROM catalog_staging WHERE user_id = ? AND system = ?",
              args: [filter.userId, system],
            },
      );
    },
  };
}

export type CatalogRepo = ReturnType<typeof createCatalogRepo>;
