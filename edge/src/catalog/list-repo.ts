import type { InArgs } from "@libsql/client";
import type { Db } from "../db/client.ts";
import type { SearchCache, SearchMatch } from "./search-cache.ts";
import { parseRowids, type SortOrders } from "./sort-orders.ts";
import type { CatalogTable } from "./tables.ts";

export interface ListRequest {
  page: number;
  limit: number;
  search: string;
  sortBy: string;
  sortDirection: "asc" | "desc";
}

/** A page of products, each the values of the table's `listed` array, and the rows matched. */
export interface ListedPage {
  rows: unknown[][];
  total: number;
}

/** Searches matching at most this many rows keep their rowids; more are paged via the sort index. */
const FEW_MATCHES = 2_000;
/**
 * A trigram lookup returning more candidates than this (over all users) costs more in row reads
 * than scanning the user's SKU index once, which it then does instead.
 */
const MAX_CANDIDATES = 5_000;

/**
 * The list queries of the catalog tables. Every answer equals ORDER BY column, id LIMIT/OFFSET over
 * the user's rows (SKU contains the lowercased search, as instr on sku_key); the caches only
 * change how the rows are found. Rows cross into JS as one JSON text each: per-value conversion
 * in the driver costs more than the queries.
 */
export function createListQueries(db: Db, caches: { searches: SearchCache; orders: SortOrders }) {
  async function list(t: CatalogTable, userId: string, request: ListRequest): Promise<ListedPage> {
    const sort = t.sorts[request.sortBy] ?? t.sorts.lastSynced;
    if (!sort) throw new Error(`no sort for ${request.sortBy}`);
    const direction = request.sortDirection === "asc" ? "ASC" : "DESC";
    const orderBy = `ORDER BY p.${sort.column} ${direction}, p.id ${direction}`;
    const offset = (request.page - 1) * request.limit;
    const state = await catalogState(t, userId);
    const term = request.search.toLowerCase();

    if (!term) {
      if (!state) {
        const total = await count(`SELECT count(*) AS total FROM ${t.table} WHERE user_id = ?`, [userId]);
        return { rows: await pageOf(t, orderBy, sort.index, [userId, request.limit, offset]), total };
      }
      const order = await caches.orders.get(`${t.system}|${userId}|${sort.column}`, state.version, () =>
        readOrder(t, userId, sort),
      );
      const rowids = slice(order, offset, request.limit, direction === "DESC");
      return { rows: await rowsAt(t, userId, rowids), total: state.total };
    }

    const match = await searchMatch(t, userId, term, state?.version);
    if (match.total === 0 || offset >= match.total) return { rows: [], total: match.total };
    const rows = match.rowids
      ? // The few matches are the outer loop; otherwise SQLite may walk a sort index over every row.
        await withPage(
          t,
          orderBy,
          `SELECT p.rowid AS r FROM json_each(?) AS m CROSS JOIN ${t.table} AS p ON p.rowid = m.value
           WHERE p.user_id = ? ${orderBy} LIMIT ? OFFSET ?`,
          [match.rowids, userId, request.limit, offset],
        )
      : // Many matches: walking the sort index (it holds sku_key) finds a page after a short stretch.
        await pageOf(t, orderBy, sort.index, [userId, request.limit, offset], term);
    return { rows, total: match.total };
  }

  /** Which of the user's rows contain the term, remembered per catalog version. */
  async function searchMatch(
    t: CatalogTable,
    userId: string,
    term: string,
    version: number | undefined,
  ): Promise<SearchMatch> {
    const key = version === undefined ? null : `${t.system}|${userId}|${term}|${version}`;
    const cached = key ? caches.searches.get(key) : undefined;
    if (cached) return cached;
    const found = (await viaTrigrams(t, userId, term)) ?? (await viaSkuIndex(t, userId, term));
    const match: SearchMatch = {
      total: found.total,
      rowids: found.total <= FEW_MATCHES ? `[${found.rowids}]` : null,
    };
    if (key) caches.searches.set(key, match);
    return match;
  }

  /** Rows holding every trigram of the term are candidates; instr on the row decides, as without the index. */
  async function viaTrigrams(t: CatalogTable, userId: string, term: string) {
    const query = trigramQuery(term);
    if (!query) return null;
    const candidates = await count(
      `SELECT count(*) AS total FROM (SELECT 1 FROM ${t.skuSearch} WHERE ${t.skuSearch} MATCH ? LIMIT ?)`,
      [query, MAX_CANDIDATES + 1],
    );
    if (candidates > MAX_CANDIDATES) return null;
    return matches(
      `SELECT count(*) AS total, group_concat(p.rowid) AS rowids
       FROM ${t.skuSearch} CROSS JOIN ${t.table} AS p ON p.rowid = ${t.skuSearch}.rowid
       WHERE ${t.skuSearch} MATCH ? AND p.user_id = ? AND instr(p.sku_key, ?) > 0`,
      [query, userId, term],
    );
  }

  /** Short or common terms: one pass over the user's SKU index (no table row read). */
  function viaSkuIndex(t: CatalogTable, userId: string, term: string) {
    return matches(
      `SELECT count(*) AS total, group_concat(rowid) AS rowids FROM ${t.table} INDEXED BY ${t.skuIndex}
       WHERE user_id = ? AND instr(sku_key, ?) > 0`,
      [userId, term],
    );
  }

  async function matches(sql: string, args: InArgs) {
    const row = (await db.execute({ sql, args })).rows[0];
    return { total: Number(row?.total ?? 0), rowids: String(row?.rowids ?? "") };
  }

  /** A page found by walking a sort index, optionally only over SKUs containing `term`. */
  function pageOf(t: CatalogTable, orderBy: string, index: string, args: unknown[], term?: string) {
    const filter = term === undefined ? "" : "AND instr(p.sku_key, ?) > 0";
    const [userId, ...window] = args;
    return withPage(
      t,
      orderBy,
      `SELECT p.rowid AS r FROM ${t.table} AS p INDEXED BY ${index} WHERE p.user_id = ? ${filter} ${orderBy} LIMIT ? OFFSET ?`,
      term === undefined ? args : [userId, term, ...window],
    );
  }

  /**
   * Finds the page's rowids first, then reads only those rows: OFFSET skips index entries, and
   * the JSON of a row is built for the rows shown, not for every row sorted.
   */
  async function withPage(t: CatalogTable, orderBy: string, pageSql: string, args: unknown[]) {
    const result = await db.execute({
      sql: `WITH page AS MATERIALIZED (${pageSql})
            SELECT ${t.listed} AS j FROM page CROSS JOIN ${t.table} AS p ON p.rowid = page.r ${orderBy}`,
      args: args as InArgs,
    });
    return result.rows.map((row) => JSON.parse(String(row.j)) as unknown[]);
  }

  /** The user's rows with these rowids, in the order given. */
  async function rowsAt(t: CatalogTable, userId: string, rowids: number[]): Promise<unknown[][]> {
    if (rowids.length === 0) return [];
    const result = await db.execute({
      sql: `SELECT ${t.listed} AS j FROM json_each(?) AS k CROSS JOIN ${t.table} AS p ON p.rowid = k.value
            WHERE p.user_id = ? ORDER BY k.key`,
      args: [JSON.stringify(rowids), userId],
    });
    return result.rows.map((row) => JSON.parse(String(row.j)) as unknown[]);
  }

  /** Every rowid of the user's catalog in ascending sort order, as one text (a value per row costs ~1 µs). */
  async function readOrder(t: CatalogTable, userId: string, sort: { column: string; index: string }) {
    const row = (
      await db.execute({
        sql: `SELECT count(*) AS total, group_concat(rowid, ',' ORDER BY ${sort.column}, id) AS rowids
              FROM ${t.table} INDEXED BY ${sort.index} WHERE user_id = ?`,
        args: [userId],
      })
    ).rows[0];
    return parseRowids(String(row?.rowids ?? ""), Number(row?.total ?? 0));
  }

  async function count(sql: string, args: InArgs): Promise<number> {
    const result = await db.execute({ sql, args });
    return Number(result.rows[0]?.total ?? 0);
  }

  async function catalogState(t: CatalogTable, userId: string) {
    const result = await db.execute({
      sql: "SELECT total, version FROM catalog_state WHERE user_id = ? AND system = ?",
      args: [userId, t.system],
    });
    const row = result.rows[0];
    return row ? { total: Number(row.total), version: Number(row.version) } : null;
  }

  return { list };
}

/** Rowids of a page of `order` (ascending), read from the end for a descending list. */
function slice(order: Float64Array, offset: number, limit: number, descending: boolean): number[] {
  const rowids: number[] = [];
  for (let at = offset; at < Math.min(order.length, offset + limit); at += 1) {
    rowids.push(order[descending ? order.length - 1 - at : at] as number);
  }
  return rowids;
}

/**
 * An FTS5 query requiring every trigram of the term (each quoted, so no character is syntax), or
 * null below three characters, which a trigram index cannot answer.
 */
export function trigramQuery(term: string): string | null {
  const characters = [...term];
  if (characters.length < 3) return null;
  const trigrams = new Set<string>();
  for (let at = 0; at + 3 <= characters.length; at += 1) trigrams.add(characters.slice(at, at + 3).join(""));
  return [...trigrams].map((trigram) => `"${trigram.replaceAll('"', '""')}"`).join(" AND ");
}
