import type { InArgs } from "@libsql/client";
import type { Db } from "../db/client.ts";
import type { SearchCache, SearchMatch } from "./search-cache.ts";
import { countRowids, pageOf, parseRowids, rowidSet, type SortOrders } from "./sort-orders.ts";
import type { CatalogTable } from "./tables.ts";

export interface ListRequest {
  page: number;
  limit: number;
  search: string;
  sortBy: string;
  sortDirection: "asc" | "desc";
}

/**
 * A page of products, each the values of the table's `listed` array, the rows matched, and when the
 * catalog was last pulled: one time for all its rows ("" before the first pull, with no rows).
 */
export interface ListedPage {
  rows: unknown[][];
  total: number;
  lastSynced: string;
}

type Sort = { column: string };

/** Searches matching at most this many rows are sorted by SQL; more are filtered from the catalog order. */
const FEW_MATCHES = 2_000;
/**
 * A trigram lookup returning more candidates than this (over all users) costs more in row reads
 * than scanning the user's SKU index once, which it then does instead.
 */
const MAX_CANDIDATES = 5_000;

/**
 * The list queries of the catalog tables. Every answer equals ORDER BY column, rowid LIMIT/OFFSET over
 * the user's rows (SKU contains the lowercased search, as instr on sku_key); the caches only
 * change how the rows are found. Rows cross into JS as one JSON text each: per-value conversion
 * in the driver costs more than the queries.
 */
export function createListQueries(
  db: Db,
  caches: { searches: SearchCache; orders: SortOrders; searchOrders: SortOrders },
) {
  async function list(t: CatalogTable, userId: string, request: ListRequest): Promise<ListedPage> {
    const sort = t.sorts[request.sortBy] ?? t.sorts.lastSynced;
    if (!sort) throw new Error(`no sort for ${request.sortBy}`);
    const offset = (request.page - 1) * request.limit;
    const descending = request.sortDirection !== "asc";
    const term = request.search.toLowerCase();
    const state = await catalogState(t, userId);
    // Only a pull's swap stores rows, and it records the catalog's state: none, nothing pulled yet.
    if (!state) return { rows: [], total: 0, lastSynced: "" };
    const { lastSynced } = state;

    const window = { offset, limit: request.limit, descending };
    if (!term) {
      const order = await catalogOrder(t, userId, { sort, version: state.version });
      return { rows: await rowsAt(t, userId, pageOf(order, window)), total: state.total, lastSynced };
    }
    const match = await searchMatch(t, userId, { term, sort, state });
    if (match.total === 0 || offset >= match.total) return { rows: [], total: match.total, lastSynced };
    let rowids: number[];
    if (match.members) {
      // Many matches: the catalog's order, skipping non-matches, reaches a page after a short stretch.
      rowids = pageOf(await catalogOrder(t, userId, { sort, version: state.version }), window, match.members);
    } else {
      // Few: they are sorted once per column, then paging on reads only the rows shown.
      const within = match.rowids ?? "";
      const scope = `${t.system}|${userId}|${sort.column}|${term}`;
      const order = await caches.searchOrders.get(scope, state.version, async () =>
        match.sortedBy === sort.column ? parseRowids(within) : readOrder(t, userId, { sort, within }),
      );
      rowids = pageOf(order, window);
    }
    return { rows: await rowsAt(t, userId, rowids), total: match.total, lastSynced };
  }

  /** Every rowid of the user's catalog in ascending order of the sort column, then rowid. */
  function catalogOrder(t: CatalogTable, userId: string, order: { sort: Sort; version: number }) {
    const { sort, version } = order;
    return caches.orders.get(`${t.system}|${userId}|${sort.column}`, version, () =>
      readOrder(t, userId, { sort }),
    );
  }

  /** Which of the user's rows contain the term, remembered per catalog version. */
  async function searchMatch(
    t: CatalogTable,
    userId: string,
    search: { term: string; sort: Sort; state: { version: number; searchIndexed: boolean } },
  ) {
    const { term, sort, state } = search;
    const key = `${t.system}|${userId}|${term}|${state.version}`;
    const cached = caches.searches.get(key);
    if (cached) return cached;
    const found = await matches(t, userId, { term, sort, searchIndexed: state.searchIndexed });
    const few = found.total <= FEW_MATCHES;
    const match: SearchMatch = {
      total: found.total,
      rowids: few ? found.rowids : null,
      sortedBy: few ? found.sortedBy : null,
      members: few ? null : rowidSet(parseRowids(found.rowids)),
    };
    caches.searches.set(key, match);
    return match;
  }

  /**
   * Rows holding every trigram of the term are candidates and instr on the row decides, as without
   * the index. The rows are read anyway, so the matches come sorted by the column asked for. Too
   * many candidates (a common term) answer null. (Queries here return one column: the driver
   * spends about 5 µs per column per query on its descriptions.)
   */
  async function viaTrigrams(t: CatalogTable, userId: string, search: { term: string; sort: Sort }) {
    const { term, sort } = search;
    const query = trigramQuery(term);
    if (!query) return null;
    const match = `p.user_id = ? AND instr(p.sku_key, ?) > 0`;
    const result = await db.execute({
      sql: `SELECT CASE WHEN count(*) > ? THEN NULL
                   ELSE coalesce(group_concat(CASE WHEN ${match} THEN p.rowid END, ',' ORDER BY p.${sort.column}, p.rowid), '')
                   END AS rowids
            FROM (SELECT rowid AS r FROM ${t.skuSearch} WHERE ${t.skuSearch} MATCH ? LIMIT ?) AS c
            CROSS JOIN ${t.table} AS p ON p.rowid = c.r`,
      args: [MAX_CANDIDATES, userId, term, query, MAX_CANDIDATES + 1],
    });
    const rowids = result.rows[0]?.rowids;
    if (rowids === null || rowids === undefined) return null;
    return { total: countRowids(String(rowids)), rowids: String(rowids), sortedBy: sort.column };
  }

  /** Short or common terms: one pass over the user's SKU index (no table row read). */
  async function viaSkuIndex(t: CatalogTable, userId: string, term: string) {
    const rowids = await rowidsText(
      `SELECT group_concat(rowid) AS rowids FROM ${t.table} INDEXED BY ${t.skuIndex}
       WHERE user_id = ? AND instr(sku_key, ?) > 0`,
      [userId, term],
    );
    return { total: countRowids(rowids), rowids, sortedBy: null };
  }

  /**
   * How many of the user's rows contain the term, and their rowids ("1,5,9"). Right after a pull the
   * rows it added may not be in the trigram index yet (`searchIndexed` false): the SKU index then.
   */
  async function matches(
    t: CatalogTable,
    userId: string,
    search: { term: string; sort: Sort; searchIndexed: boolean },
  ) {
    const { term, sort, searchIndexed } = search;
    const viaIndex = searchIndexed ? await viaTrigrams(t, userId, { term, sort }) : null;
    return viaIndex ?? (await viaSkuIndex(t, userId, term));
  }

  /** The user's rows with these rowids, in the order given: one JSON array for the whole page. */
  async function rowsAt(t: CatalogTable, userId: string, rowids: number[]): Promise<unknown[][]> {
    if (rowids.length === 0) return [];
    const result = await db.execute({
      sql: `SELECT json_group_array(${t.listed} ORDER BY k.key) AS page
            FROM json_each(?) AS k CROSS JOIN ${t.table} AS p ON p.rowid = k.value WHERE p.user_id = ?`,
      args: [JSON.stringify(rowids), userId],
    });
    return JSON.parse(String(result.rows[0]?.page ?? "[]")) as unknown[][];
  }

  /**
   * The rowids of the user's catalog (or of those in `within`, "4,1,9") in ascending sort order, as
   * one text: a value per row would cost about a microsecond each to cross into JS.
   */
  async function readOrder(t: CatalogTable, userId: string, order: { sort: Sort; within?: string }) {
    const { sort, within } = order;
    return parseRowids(
      within === undefined
        ? await rowidsText(
            `SELECT group_concat(rowid, ',' ORDER BY ${sort.column}, rowid) AS rowids
             FROM ${t.table} WHERE user_id = ?`,
            [userId],
          )
        : await rowidsText(
            `SELECT group_concat(p.rowid, ',' ORDER BY p.${sort.column}, p.rowid) AS rowids
             FROM json_each(?) AS m CROSS JOIN ${t.table} AS p ON p.rowid = m.value WHERE p.user_id = ?`,
            [`[${within}]`, userId],
          ),
    );
  }

  /** The `rowids` text a query answers ("" for NULL: no rows). */
  async function rowidsText(sql: string, args: InArgs): Promise<string> {
    const result = await db.execute({ sql, args });
    return String(result.rows[0]?.rowids ?? "");
  }

  async function catalogState(t: CatalogTable, userId: string) {
    const result = await db.execute({
      sql: "SELECT total, version, last_synced, unindexed_from FROM catalog_state WHERE user_id = ? AND system = ?",
      args: [userId, t.system],
    });
    const row = result.rows[0];
    if (!row) return null;
    return {
      total: Number(row.total),
      version: Number(row.version),
      lastSynced: String(row.last_synced),
      searchIndexed: row.unindexed_from === null,
    };
  }

  return { list };
}

/**
 * An FTS5 query requiring trigrams that cover the term (each quoted, so no character is syntax):
 * every third one and the last, as more only add lists to intersect. Null below three characters,
 * which a trigram index cannot answer, and for a term holding a NUL: FTS5 reads its query as C text,
 * so a NUL ends it inside a quoted string ("unterminated string"); instr, which scans, compares bytes.
 */
function trigramQuery(term: string): string | null {
  const characters = [...term];
  if (characters.length < 3 || term.includes("\u0000")) return null;
  const trigrams = new Set<string>();
  for (let at = 0; at < characters.length; at += 3) {
    const start = Math.min(at, characters.length - 3);
    trigrams.add(characters.slice(start, start + 3).join(""));
  }
  return [...trigrams].map((trigram) => `"${trigram.replaceAll('"', '""')}"`).join(" AND ");
}
