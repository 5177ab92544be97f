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
import type { ListIndexes, TableWrite, UnmappedSystem } from "./list-indexes.ts";
import { likeContains, totalPages } from "./mirror-query.ts";
import {
  type MirrorList,
  type MirrorSchedule,
  type MirrorState,
  toMirrorAcumatica,
  toMirrorShopify,
  UNMAPPED_SOURCES,
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
 * The mirror's tables (db/database.ts): feed pages written in, and every list the screens read
 * answered from them exactly as the server pages it. The catalogs are searched and sorted over their
 * search indexes (db/list-indexes.ts), arrays of only the columns that takes; the unmapped products
 * are worked out from the catalogs' indexes less the products the mappings' index names.
 */
export function createMirrorStore(open: () => Promise<StockbridgeDatabase>) {
  // IndexedDB opens on first use (services.ts keeps Dexie out of the start-up bundle).
  const use = async () => {
    const db = await open();
    return { db, tables: tablesByList(db) };
  };
  // The search indexes' code loads on first use, like Dexie: the start-up bundle has a budget.
  let listIndexes: Promise<ListIndexes> | undefined;
  const indexes = () =>
    (listIndexes ??= import("./list-indexes.ts").then((module) =>
      module.createListIndexes(open, tablesByList),
    ));
  // Counts clears (sign-out, a 401): a feed page read before one must not be written after it.
  let clears = 0;

  function toStored(list: MirrorList, row: { _id: string }): LooseRow {
    const stored: object =
      list === "shopify"
        ? toMirrorShopify(row as Parameters<typeof toMirrorShopify>[0])
        : list === "acumatica"
          ? toMirrorAcumatica(row as Parameters<typeof toMirrorAcumatica>[0])
          : row;
    return stored as LooseRow;
  }

  /**
   * Writes in one transaction with the list's state, whose revision counts the writes; the list's
   * search index then follows what was written.
   */
  async function write(
    list: MirrorList,
    change: (
      table: Table<LooseRow, string>,
    ) => Promise<Pick<TableWrite, "reset" | "removed" | "rows" | "settled">>,
    state?: (current: MirrorState | undefined, revision: number) => Promise<void>,
  ) {
    const { db, tables } = await use();
    const table = tables[list];
    await (await indexes()).prepare(list, (await db.mirrorState.get(list))?.revision ?? 0);
    const done = await db.transaction("rw", [table, db.mirrorState], async () => {
      const written = await change(table);
      const current = await db.mirrorState.get(list);
      const changed =
        written.reset === true || (written.removed?.length ?? 0) > 0 || (written.rows?.length ?? 0) > 0;
      const before = current?.revision ?? 0;
      const after = before + (changed ? 1 : 0);
      if (state) await state(current, after);
      else if (current && changed) await db.mirrorState.put({ ...current, revision: after });
      return { ...written, before, after, counted: state !== undefined || current !== undefined };
    });
    // Without a state the list was never filled: no revision counts this write, so its index is
    // read from the rows when next asked.
    if (done.counted) (await indexes()).written(list, done);
    else (await indexes()).forget(list);
  }

  async function productPage<T>(
    list: "shopify" | "acumatica",
    query: ShopifyProductQuery | AcumaticaProductQuery,
  ) {
    const { db, tables } = await use();
    const state = await db.mirrorState.get(list);
    const { ids, total } = await (await indexes()).page(list, state?.revision ?? 0, {
      key:
        query.sortBy === "sku"
          ? { text: "skuKey" }
          : query.sortBy === "lastSynced"
            ? { position: true }
            : { number: `s_${query.sortBy}` },
      term: query.search,
      descending: query.sortDirection === "desc",
      offset: (query.page - 1) * query.limit,
      limit: query.limit,
    });
    const rows = (await tables[list].bulkGet(ids)).filter((row) => row !== undefined);
    const lastSynced = state?.lastSynced ?? "";
    return {
      products: rows.map((row) => {
        const { position: _position, ...shown } = withoutMirrorFields(row);
        return { ...shown, lastSynced } as unknown as T;
      }),
      total,
      page: query.page,
      totalPages: totalPages(total, query.limit),
      currencyCode: state?.currencyCode ?? null,
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
      const stale = () => options.clears !== undefined && options.clears !== clears;
      await write(
        list,
        async () => {
          // Cleared since the page was asked for: it belongs to a session that ended. Checked inside
          // the transaction, which the clear's own transaction waits for (or runs after).
          if (stale()) return { reset: false, removed: [], rows: [], settled: false };
          if (page.reset) await table.clear();
          const removed = page.removedIds.filter((id) => !options.keep.has(id));
          if (removed.length > 0) await table.bulkDelete(removed);
          const rows = page.rows
            .filter((row) => !options.keep.has(row._id))
            .map((row) => toStored(list, row));
          if (rows.length > 0) await table.bulkPut(rows);
          return { reset: page.reset, removed, rows, settled: !page.hasMore };
        },
        async (current, revision) => {
          if (stale()) return;
          await db.mirrorState.put({
            list,
            version: page.version,
            complete: (current?.complete ?? false) || !page.hasMore,
            saved: await table.count(),
            total: options.total ?? current?.total ?? null,
            lastSynced: page.lastSynced === undefined ? (current?.lastSynced ?? null) : page.lastSynced,
            revision,
            // A catalog feed's page carries its currency (the mirror answers it with the list).
            ...(page.currencyCode !== undefined
              ? { currencyCode: page.currencyCode }
              : current?.currencyCode === undefined
                ? {}
                : { currencyCode: current.currencyCode }),
          });
        },
      );
    },

    /** A row as stored (with its pending mark), for an offline edit to change and to restore. */
    async row(list: MirrorList, id: string): Promise<Record<string, unknown> | undefined> {
      const { tables } = await use();
      return (await tables[list].get(id)) as Record<string, unknown> | undefined;
    },
    async putRow(list: MirrorList, row: { _id: string }) {
      const stored = toStored(list, row);
      await write(list, async (table) => {
        await table.put(stored);
        return { rows: [stored] };
      });
    },
    async deleteRow(list: MirrorList, id: string) {
      await write(list, async (table) => {
        await table.delete(id);
        return { removed: [id] };
      });
    },
    /** The catalog row of a Shopify variant id or an Acumatica item id, if the mirror holds it. */
    async findProduct(
      system: UnmappedSystem,
      productId: string,
    ): Promise<{ _id: string; sku: string } | undefined> {
      const { db, tables } = await use();
      const revision = (await db.mirrorState.get(system))?.revision ?? 0;
      const id = await (await indexes()).findProduct(system, revision, productId);
      const row = id === undefined ? undefined : await tables[system].get(id);
      return row === undefined ? undefined : { _id: row._id, sku: String(row.sku) };
    },

    /** How many clears so far: pass it back to `applyPage` with a page asked for now. */
    clears: () => clears,

    /** Every mirror table, its state and the outbox emptied (sign-out, a 401, another user). */
    async clear() {
      clears += 1;
      const { db, tables } = await use();
      const all = [...Object.values(tables), db.mirrorState, db.mirrorIndexes, db.outbox];
      await db.transaction("rw", all, async () => {
        for (const table of all) await table.clear();
      });
      (await indexes()).clear();
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

    /**
     * Each catalog's products no mapping uses (offline edits included: they are in the mappings
     * table), by SKU then the product's own id in the direction asked, each from its own offset.
     */
    async unmapped(query: UnmappedQuery): Promise<Unmapped> {
      const { db } = await use();
      const [shopifyState, acumaticaState, mappingsState] = await db.mirrorState.bulkGet([
        ...UNMAPPED_SOURCES,
      ]);
      const revisions = {
        shopify: shopifyState?.revision ?? 0,
        acumatica: acumaticaState?.revision ?? 0,
        mappings: mappingsState?.revision ?? 0,
      };
      const window = { term: query.search, descending: query.sortDirection === "desc", limit: query.limit };
      const side = async (system: UnmappedSystem, offset: number) =>
        (await indexes()).unmappedPage(
          system,
          { catalog: revisions[system], mappings: revisions.mappings },
          { ...window, offset },
        );
      const [shopify, acumatica] = await Promise.all([
        side("shopify", query.shopifyOffset),
        side("acumatica", query.acumaticaOffset),
      ]);
      const [variants, items] = await Promise.all([
        db.shopifyProducts.bulkGet(shopify.ids),
        db.acumaticaProducts.bulkGet(acumatica.ids),
      ]);
      return {
        shopify: variants.flatMap((row) =>
          row ? [{ _id: row._id, variantId: row.variantId, sku: row.sku }] : [],
        ),
        acumatica: items.flatMap((row) =>
          row ? [{ _id: row._id, acumaticaId: row.acumaticaId, sku: row.sku }] : [],
        ),
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
    schedules: db.schedules,
    history: db.history,
  };
  return typed as unknown as Record<MirrorList, Table<LooseRow, string>>;
}
