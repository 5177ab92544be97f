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

/**
 * The lists searched, sorted or matched over up to 100,000 rows, and the columns that takes: the
 * catalogs' SKU keys, sort values and own ids, and the ids of the products each mapping uses.
 */
const COLUMNS = {
  shopify: {
    texts: ["skuKey", "variantId"],
    numbers: ["position", ...SHOPIFY_SORTS.map((field) => `s_${field}`)],
  },
  acumatica: {
    texts: ["skuKey", "acumaticaId"],
    numbers: ["position", ...ACUMATICA_SORTS.map((field) => `s_${field}`)],
  },
  mappings: { texts: ["shopifyDetails.variantId", "acumaticaDetails.acumaticaId"], numbers: [] },
} as const satisfies Partial<Record<MirrorList, IndexColumns>>;

export type IndexedList = keyof typeof COLUMNS;
export type UnmappedSystem = "shopify" | "acumatica";

function isIndexedList(list: MirrorList): list is IndexedList {
  return list in COLUMNS;
}

/** Per catalog: its own id column, the mappings' column naming it, and the unmapped list's order. */
const UNMAPPED = {
  shopify: {
    id: "variantId",
    mapped: "shopifyDetails.variantId",
    order: { text: "skuKey", tieBy: "variantId" },
  },
  acumatica: {
    id: "acumaticaId",
    mapped: "acumaticaDetails.acumaticaId",
    order: { text: "skuKey", tieBy: "acumaticaId" },
  },
} as const;

/** A catalog's slots a mapping uses (1), as of both lists' revisions. */
interface MappedSlots {
  catalog: ListIndex;
  catalogRevision: number;
  mappingsRevision: number;
  slots: Uint8Array;
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
  const mapped = new Map<UnmappedSystem, MappedSlots>();
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
    // The SKU orders are the ones slow to sort: worked out here, after the writes, and saved with it.
    if (list !== "mappings") {
      orderBy(index, { text: "skuKey" });
      orderBy(index, UNMAPPED[list].order);
    }
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

  /**
   * Which of the catalog's slots a mapping uses, kept until either list is written (an offline
   * mapping edit costs one pass over both lists, about 10 ms at 100,000 rows each).
   */
  function mappedSlots(system: UnmappedSystem, catalog: ListIndex, mappings: ListIndex): Uint8Array {
    const held = mapped.get(system);
    if (
      held?.catalog === catalog &&
      held.catalogRevision === catalog.revision &&
      held.mappingsRevision === mappings.revision
    )
      return held.slots;
    const used = new Set(mappings.texts[UNMAPPED[system].mapped]);
    const ids = catalog.texts[UNMAPPED[system].id] ?? [];
    const slots = new Uint8Array(ids.length);
    for (let slot = 0; slot < ids.length; slot += 1) if (used.has(ids[slot] ?? "")) slots[slot] = 1;
    mapped.set(system, {
      catalog,
      catalogRevision: catalog.revision,
      mappingsRevision: mappings.revision,
      slots,
    });
    return slots;
  }

  return {
    /**
     * The ids of one page of the list as of `revision` (ordered by `key`, the SKU key containing
     * `term`), and how many rows matched.
     */
    async page(
      list: IndexedList,
      revision: number,
      query: { key: OrderKey; term: string; descending: boolean; offset: number; limit: number },
    ): Promise<{ ids: string[]; total: number }> {
      const index = await of(list, revision);
      return pageOf(index, orderBy(index, query.key), query);
    },

    /**
     * One page of a catalog's unmapped products as of both lists' revisions: the catalog's rows no
     * mapping uses, by SKU key then the product's own id (the server's order), the SKU key
     * containing `term`; the ids of the catalog rows, and how many there are.
     */
    async unmappedPage(
      system: UnmappedSystem,
      revisions: { catalog: number; mappings: number },
      query: { term: string; descending: boolean; offset: number; limit: number },
    ): Promise<{ ids: string[]; total: number }> {
      const [catalog, mappings] = await Promise.all([
        of(system, revisions.catalog),
        of("mappings", revisions.mappings),
      ]);
      const order = orderBy(catalog, UNMAPPED[system].order);
      return pageOf(catalog, order, { ...query, skip: mappedSlots(system, catalog, mappings) });
    },

    /** The id of the catalog row with this product id (as of `revision`), if the catalog holds it. */
    async findProduct(
      system: UnmappedSystem,
      revision: number,
      productId: string,
    ): Promise<string | undefined> {
      const index = await of(system, revision);
      const slot = (index.texts[UNMAPPED[system].id] ?? []).indexOf(productId);
      return slot < 0 ? undefined : index.ids[slot];
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
      mapped.clear();
      for (const pending of saves.values()) clearTimeout(pending);
      saves.clear();
    },
  };
}

export type ListIndexes = ReturnType<typeof createListIndexes>;
