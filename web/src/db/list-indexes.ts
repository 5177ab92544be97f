import type { Table } from "dexie";
import type { StockbridgeDatabase } from "./database.ts";
import {
  applyWrite,
  emptyIndex,
  type IndexColumns,
  indexFromRows,
  indexFromStored,
  type ListIndex,
  type OrderKey,
  orderBy,
  pageOf,
  toStored,
} from "./mirror-index.ts";
import { ACUMATICA_SORTS, type MirrorList, SHOPIFY_SORTS } from "./mirror-rows.ts";

/** The lists searched and sorted over up to 100,000 rows, and the columns that takes. */
const COLUMNS = {
  shopify: { texts: ["skuKey"], numbers: ["position", ...SHOPIFY_SORTS.map((field) => `s_${field}`)] },
  acumatica: { texts: ["skuKey"], numbers: ["position", ...ACUMATICA_SORTS.map((field) => `s_${field}`)] },
  unmapped: { texts: ["skuKey", "system", "externalId"], numbers: [] },
} as const satisfies Partial<Record<MirrorList, IndexColumns>>;

export type IndexedList = keyof typeof COLUMNS;

function isIndexedList(list: MirrorList): list is IndexedList {
  return list in COLUMNS;
}

/** Each side of the unmapped list: by SKU key, then the product's own id. */
const UNMAPPED_ORDER = { text: "skuKey", tieBy: "externalId" } as const;

function withinSystem(index: ListIndex, system: string) {
  return { name: system, filter: (slot: number) => index.texts.system?.[slot] === system };
}

/** What a committed write did to a list's table, and its revision before and after. */
export interface TableWrite {
  before: number;
  after: number;
  /** The list's fill or refresh ended with this write: the index is saved now, not later. */
  settled?: boolean;
  reset?: boolean;
  removed?: readonly string[];
  rows?: readonly Record<string, unknown>[];
}

/** Writes are saved to `mirrorIndexes` this long after the last one (a fill writes pages faster). */
const SAVE_AFTER_MS = 1_000;

/**
 * The search indexes of the catalog lists, held in memory while the app runs: read from their
 * saved record when it matches the table's revision (else from the rows, once, and saved), kept
 * current by every write the mirror store makes, and saved again shortly after writes stop.
 */
export function createListIndexes(
  open: () => Promise<StockbridgeDatabase>,
  tables: (db: StockbridgeDatabase) => Record<MirrorList, Table<{ _id: string }, string>>,
) {
  const held = new Map<IndexedList, ListIndex>();
  const loading = new Map<IndexedList, Promise<ListIndex>>();
  const saves = new Map<IndexedList, ReturnType<typeof setTimeout>>();
  // Bumped by clear(): a load that began before it belongs to the rows cleared.
  let epoch = 0;

  async function load(list: IndexedList): Promise<ListIndex> {
    const started = epoch;
    const db = await open();
    const table = tables(db)[list];
    let rebuilt = false;
    let filled = false;
    const index = await db.transaction("r", [table, db.mirrorState, db.mirrorIndexes], async () => {
      const state = await db.mirrorState.get(list);
      filled = state !== undefined;
      const revision = state?.revision ?? 0;
      const stored = await db.mirrorIndexes.get(list);
      const fromStored =
        stored?.revision === revision && filled ? indexFromStored(COLUMNS[list], stored) : null;
      if (fromStored) return fromStored;
      rebuilt = true;
      const rows = (await table.toArray()) as unknown as Record<string, unknown>[];
      return indexFromRows(COLUMNS[list], revision, rows);
    });
    if (started !== epoch) return emptyIndex(COLUMNS[list], 0);
    held.set(list, index);
    // A list never filled has no revision to stamp a saved index with.
    if (rebuilt && filled) scheduleSave(list);
    return index;
  }

  function scheduleSave(list: IndexedList, wait = SAVE_AFTER_MS): void {
    const pending = saves.get(list);
    if (pending) clearTimeout(pending);
    saves.set(
      list,
      setTimeout(() => {
        saves.delete(list);
        void save(list).catch(() => undefined);
      }, wait),
    );
  }

  async function save(list: IndexedList): Promise<void> {
    const index = held.get(list);
    if (!index) return;
    // The SKU order is the one slow to sort: worked out here, after the writes, and saved with it.
    if (list === "unmapped")
      for (const system of ["shopify", "acumatica"])
        orderBy(index, UNMAPPED_ORDER, withinSystem(index, system));
    else orderBy(index, { text: "skuKey" });
    const db = await open();
    // Checked where it is written: a record stamped with an older revision is never read.
    await db.transaction("rw", [db.mirrorState, db.mirrorIndexes], async () => {
      const state = await db.mirrorState.get(list);
      if (state && (state.revision ?? 0) === index.revision)
        await db.mirrorIndexes.put(toStored(list, index));
    });
  }

  /** The list's index as of `revision` or later. */
  async function of(list: IndexedList, revision: number): Promise<ListIndex> {
    const current = held.get(list);
    if (current && current.revision >= revision) return current;
    const pending = loading.get(list) ?? load(list).finally(() => loading.delete(list));
    loading.set(list, pending);
    return pending;
  }

  return {
    /**
     * The ids of one page of the list as of `revision` (ordered by `key`, only `system`'s rows when
     * given, the SKU key containing `term`), and how many rows matched.
     */
    async page(
      list: IndexedList,
      revision: number,
      query: {
        key: OrderKey;
        system?: string;
        term: string;
        descending: boolean;
        offset: number;
        limit: number;
      },
    ): Promise<{ ids: string[]; total: number }> {
      const index = await of(list, revision);
      const within = query.system === undefined ? undefined : withinSystem(index, query.system);
      return pageOf(index, orderBy(index, query.key, within), query);
    },

    /**
     * Before a write: the index is held, so the write can follow it (a saved record read now is
     * stale once the table moved on, and reading the rows instead takes seconds at 100,000).
     */
    async prepare(list: MirrorList, revision: number): Promise<void> {
      if (isIndexedList(list)) await of(list, revision);
    },

    /** A write committed: the index in memory follows it, or is dropped when it missed one. */
    written(list: MirrorList, write: TableWrite): void {
      if (!isIndexedList(list)) return;
      if (write.before !== write.after) {
        let index = held.get(list);
        if (index?.revision !== write.before)
          index = write.reset ? emptyIndex(COLUMNS[list], write.before) : undefined;
        if (!index) {
          held.delete(list);
          return;
        }
        applyWrite(index, write);
        index.revision = write.after;
        held.set(list, index);
        scheduleSave(list);
      }
      if (write.settled && saves.has(list)) scheduleSave(list, 0);
    },

    /** A write no revision counted: the index is read from the rows when next asked. */
    forget(list: MirrorList): void {
      if (isIndexedList(list)) held.delete(list);
    },

    /** Everything forgotten (sign-out): the saved records go with the tables. */
    clear(): void {
      epoch += 1;
      held.clear();
      loading.clear();
      for (const pending of saves.values()) clearTimeout(pending);
      saves.clear();
    },
  };
}

export type ListIndexes = ReturnType<typeof createListIndexes>;
