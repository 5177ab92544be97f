import type {
  AcumaticaProductList,
  AcumaticaProductQuery,
  ExecutionHistoryList,
  MappingHistory,
  ShopifyProductList,
  ShopifyProductQuery,
  Unmapped,
  UnmappedQuery,
} from "@stockbridge/shared";
import type { Table } from "dexie";
import type { StockbridgeDatabase } from "./database.ts";
import {
  compareBy,
  likeContains,
  type Projection,
  pageOfSorted,
  type SortKey,
  totalPages,
} from "./mirror-query.ts";
import {
  type MirrorList,
  type MirrorSchedule,
  type MirrorState,
  toMirrorAcumatica,
  toMirrorShopify,
  toMirrorUnmapped,
  withoutMirrorFields,
} from "./mirror-rows.ts";

/** One page of a change feed, whatever its rows. */
export interface FeedPage {
  rows: { _id: string }[];
  removedIds: string[];
  version: number;
  hasMore: boolean;
  reset: boolean;
  lastSynced?: string | null;
  currencyCode?: string | null;
}

type ListQuery = { page: number; limit: number; search: string };
type ScheduleList = { schedules: MirrorSchedule[]; total: number; page: number; totalPages: number };

/**
 * The mirror's tables (db/database.ts version 2): feed pages written in, and every list the screens
 * read answered from them exactly as the server pages it. Sorted orders of the two catalogs are
 * kept in memory per write generation, so a search or sort over 100,000 rows filters an array.
 */
export function createMirrorStore(open: () => Promise<StockbridgeDatabase>) {
  // IndexedDB opens on first use (lib/services.ts keeps Dexie out of the start-up bundle).
  const use = async () => {
    const db = await open();
    return { db, tables: tablesByList(db) };
  };
  const generation: Record<MirrorList, number> = {
    shopify: 0,
    acumatica: 0,
    mappings: 0,
    unmapped: 0,
    schedules: 0,
    history: 0,
  };
  const orders = new Map<string, { generation: number; rows: Projection[] }>();
  // Counts clears (sign-out, a 401): a feed page read before one must not be written after it.
  let clears = 0;

  function toStored(list: MirrorList, row: { _id: string }): LooseRow {
    const stored: object =
      list === "shopify"
        ? toMirrorShopify(row as Parameters<typeof toMirrorShopify>[0])
        : list === "acumatica"
          ? toMirrorAcumatica(row as Parameters<typeof toMirrorAcumatica>[0])
          : list === "unmapped"
            ? toMirrorUnmapped(row as Parameters<typeof toMirrorUnmapped>[0])
            : row;
    return stored as LooseRow;
  }

  function touched(list: MirrorList): void {
    generation[list] += 1;
  }

  /** Rows sorted ascending by `key` (for the catalogs), read once per generation of the table. */
  async function sortedProjections(
    list: "shopify" | "acumatica" | "unmapped",
    key: SortKey,
    system?: string,
  ) {
    const scope = `${list}|${key}|${system ?? ""}`;
    const cached = orders.get(scope);
    if (cached?.generation === generation[list]) return cached.rows;
    const base = orders.get(`${list}|*|${system ?? ""}`);
    let rows: Projection[];
    if (base?.generation === generation[list]) rows = [...base.rows];
    else {
      const { tables } = await use();
      const all = (await tables[list].toArray()) as unknown as Record<string, unknown>[];
      rows = all
        .filter((row) => system === undefined || row.system === system)
        .map((row) => {
          const projection: Record<string, unknown> = {
            _id: row._id,
            skuKey: row.skuKey,
            position: typeof row.position === "number" ? row.position : 0,
          };
          if (list === "unmapped") projection.externalId = row.externalId;
          for (const [name, value] of Object.entries(row))
            if (name.startsWith("s_")) projection[name] = value;
          return projection as unknown as Projection;
        });
      orders.set(`${list}|*|${system ?? ""}`, { generation: generation[list], rows });
      rows = [...rows];
    }
    rows.sort(list === "unmapped" ? compareUnmapped : compareBy(key));
    orders.set(scope, { generation: generation[list], rows });
    return rows;
  }

  async function productPage<T>(
    list: "shopify" | "acumatica",
    query: ShopifyProductQuery | AcumaticaProductQuery,
  ) {
    const key: SortKey =
      query.sortBy === "sku" ? "sku" : query.sortBy === "lastSynced" ? "lastSynced" : `s_${query.sortBy}`;
    const ascending = await sortedProjections(list, key);
    const { ids, total } = pageOfSorted(ascending, {
      term: query.search,
      descending: query.sortDirection === "desc",
      offset: (query.page - 1) * query.limit,
      limit: query.limit,
    });
    const { db, tables } = await use();
    const rows = (await tables[list].bulkGet(ids)).filter((row) => row !== undefined);
    const state = await db.mirrorState.get(list);
    const lastSynced = state?.lastSynced ?? "";
    return {
      currencyCode: state?.currencyCode ?? null,
      products: rows.map((row) => {
        const { position: _position, ...shown } = withoutMirrorFields(row);
        return { ...shown, lastSynced } as unknown as T;
      }),
      total,
      page: query.page,
      totalPages: totalPages(total, query.limit),
    };
  }

  return {
    state: async (list: MirrorList) => (await open()).mirrorState.get(list),
    states: async () => (await open()).mirrorState.toArray(),
    saveState: async (state: MirrorState) => (await open()).mirrorState.put(state),

    /**
     * Writes one feed page and the version it brings the list up to, in one transaction. Rows
     * holding an offline edit (`keep`) keep the local copy: the replay's answer replaces them.
     */
    async applyPage(
      list: MirrorList,
      page: FeedPage,
      options: { keep: ReadonlySet<string>; total: number | null; clears?: number },
    ) {
      const { db, tables } = await use();
      const table = tables[list];
      await db.transaction("rw", [table, db.mirrorState], async () => {
        // Cleared since the page was asked for: it belongs to a session that ended. Checked inside
        // the transaction, which the clear's own transaction waits for (or runs after).
        if (options.clears !== undefined && options.clears !== clears) return;
        if (page.reset) await table.clear();
        const removed = page.removedIds.filter((id) => !options.keep.has(id));
        if (removed.length > 0) await table.bulkDelete(removed);
        const rows = page.rows.filter((row) => !options.keep.has(row._id)).map((row) => toStored(list, row));
        if (rows.length > 0) await table.bulkPut(rows);
        const current = await db.mirrorState.get(list);
        await db.mirrorState.put({
          list,
          version: page.version,
          complete: (current?.complete ?? false) || !page.hasMore,
          saved: await table.count(),
          total: options.total ?? current?.total ?? null,
          lastSynced: page.lastSynced === undefined ? (current?.lastSynced ?? null) : page.lastSynced,
          currencyCode: page.currencyCode === undefined ? (current?.currencyCode ?? null) : page.currencyCode,
        });
      });
      touched(list);
    },

    /** A row as stored (with its pending mark), for an offline edit to change and to restore. */
    async row(list: MirrorList, id: string): Promise<Record<string, unknown> | undefined> {
      const { tables } = await use();
      return (await tables[list].get(id)) as Record<string, unknown> | undefined;
    },
    async putRow(list: MirrorList, row: { _id: string }) {
      const { tables } = await use();
      await tables[list].put(toStored(list, row));
      touched(list);
    },
    async deleteRow(list: MirrorList, id: string) {
      const { tables } = await use();
      await tables[list].delete(id);
      touched(list);
    },
    async findUnmapped(system: "shopify" | "acumatica", externalId: string) {
      const { db } = await use();
      return db.unmapped
        .where("[system+skuKey+externalId]")
        .between([system, "", ""], [system, "\uffff", "\uffff"])
        .filter((row) => row.externalId === externalId)
        .first();
    },

    /** Every mirror table, its state and the outbox emptied (sign-out, a 401, another user). */
    /** How many clears so far: pass it back to `applyPage` with a page asked for now. */
    clears: () => clears,

    async clear() {
      clears += 1;
      const { db, tables } = await use();
      await db.transaction("rw", [...Object.values(tables), db.mirrorState, db.outbox], async () => {
        for (const table of [...Object.values(tables), db.mirrorState, db.outbox]) await table.clear();
      });
      for (const list of Object.keys(generation) as MirrorList[]) touched(list);
      orders.clear();
    },

    shopifyProducts: (query: ShopifyProductQuery) =>
      productPage("shopify", query) as Promise<ShopifyProductList>,
    acumaticaProducts: (query: AcumaticaProductQuery) =>
      productPage("acumatica", query) as Promise<AcumaticaProductList>,

    /**
     * Newest first (createdAt, then id); the search matches either side's SKU as shown or as stored
     * when the pair was saved, as SQL LIKE does (the server's search reads both).
     */
    async mappingHistory(query: ListQuery): Promise<MappingHistory> {
      const { db } = await use();
      const all = await db.mappings.orderBy("[createdAt+_id]").reverse().toArray();
      const matching = query.search
        ? all.filter((row) =>
            [
              row.shopifyDetails.sku,
              row.acumaticaDetails.sku,
              row.skuSnapshots.shopify,
              row.skuSnapshots.acumatica,
            ].some((sku) => likeContains(sku, query.search)),
          )
        : all;
      const offset = (query.page - 1) * query.limit;
      return {
        mappings: matching
          .slice(offset, offset + query.limit)
          .map(({ createdAt: _created, skuSnapshots: _snapshots, ...row }) => row),
        total: matching.length,
        page: query.page,
        totalPages: totalPages(matching.length, query.limit),
      };
    },

    /** Each side by SKU (then its own id) in the direction asked, from its own offset. */
    async unmapped(query: UnmappedQuery): Promise<Unmapped> {
      const side = async (system: "shopify" | "acumatica", offset: number) => {
        const ascending = await sortedProjections("unmapped", "sku", system);
        const { ids, total } = pageOfSorted(ascending, {
          term: query.search,
          descending: query.sortDirection === "desc",
          offset,
          limit: query.limit,
        });
        const { db } = await use();
        const rows = (await db.unmapped.bulkGet(ids)).filter((row) => row !== undefined);
        return { rows, total };
      };
      const [shopify, acumatica] = await Promise.all([
        side("shopify", query.shopifyOffset),
        side("acumatica", query.acumaticaOffset),
      ]);
      return {
        shopify: shopify.rows.map((row) => ({ _id: row._id, variantId: row.externalId, sku: row.sku })),
        acumatica: acumatica.rows.map((row) => ({ _id: row._id, acumaticaId: row.externalId, sku: row.sku })),
        shopifyTotal: shopify.total,
        acumaticaTotal: acumatica.total,
        shopifyOffset: query.shopifyOffset,
        acumaticaOffset: query.acumaticaOffset,
        limit: query.limit,
      };
    },

    /** Newest first (createdAt, then stored order), the name containing the search as SQL LIKE does. */
    async schedules(query: ListQuery): Promise<ScheduleList> {
      const { db } = await use();
      const all = await db.schedules.orderBy("[createdAt+position]").reverse().toArray();
      const matching = query.search ? all.filter((row) => likeContains(row.name, query.search)) : all;
      const offset = (query.page - 1) * query.limit;
      return {
        schedules: matching
          .slice(offset, offset + query.limit)
          .map(({ createdAt: _created, position: _position, ...row }) => row as MirrorSchedule),
        total: matching.length,
        page: query.page,
        totalPages: totalPages(matching.length, query.limit),
      };
    },

    /** Newest first (start date, then id). */
    async history(query: { page: number; limit: number }): Promise<ExecutionHistoryList> {
      const { db } = await use();
      const total = await db.history.count();
      const histories = await db.history
        .orderBy("[startDate+_id]")
        .reverse()
        .offset((query.page - 1) * query.limit)
        .limit(query.limit)
        .toArray();
      return { histories, total, page: query.page, totalPages: totalPages(total, query.limit) };
    },
  };
}

export type MirrorStore = ReturnType<typeof createMirrorStore>;

type LooseRow = { _id: string } & Record<string, unknown>;

/**
 * Each list's table with its rows seen loosely: every write goes through `toStored`, which gives a
 * row its table's shape, and reads that need the exact type use the typed table on `db`.
 */
function tablesByList(db: StockbridgeDatabase): Record<MirrorList, Table<LooseRow, string>> {
  const typed = {
    shopify: db.shopifyProducts,
    acumatica: db.acumaticaProducts,
    mappings: db.mappings,
    unmapped: db.unmapped,
    schedules: db.schedules,
    history: db.history,
  };
  return typed as unknown as Record<MirrorList, Table<LooseRow, string>>;
}

/** The unmapped lists' order: SKU key, then the product's own id (both as SQLite compares text). */
function compareUnmapped(a: Projection, b: Projection): number {
  const keyA = a.skuKey;
  const keyB = b.skuKey;
  if (keyA !== keyB) return keyA < keyB ? -1 : 1;
  const idA = String((a as unknown as { externalId: string }).externalId);
  const idB = String((b as unknown as { externalId: string }).externalId);
  return idA === idB ? 0 : idA < idB ? -1 : 1;
}
