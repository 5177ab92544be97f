import { Dexie, type Table } from "dexie";
import type { StoredListIndex } from "./mirror-index.ts";
import type {
  MirrorAcumaticaProduct,
  MirrorHistoryEntry,
  MirrorList,
  MirrorMapping,
  MirrorSchedule,
  MirrorShopifyProduct,
  MirrorState,
} from "./mirror-rows.ts";
import type { OutboxEntry } from "./outbox-store.ts";

/** A small key/value row: the persisted query cache and the last signed-in user live here. */
export interface KeyValueRow {
  key: string;
  value: string;
  updatedAt: number;
}

const DATABASE_NAME = "stockbridge";

/**
 * The one IndexedDB database of the app. Every schema version stays listed here, oldest first, so
 * an installed app upgrades in place; add a new `version(n)` instead of editing an old one.
 */
export class StockbridgeDatabase extends Dexie {
  kv!: Table<KeyValueRow, string>;
  shopifyProducts!: Table<MirrorShopifyProduct, string>;
  acumaticaProducts!: Table<MirrorAcumaticaProduct, string>;
  mappings!: Table<MirrorMapping, string>;
  schedules!: Table<MirrorSchedule, string>;
  history!: Table<MirrorHistoryEntry, string>;
  mirrorState!: Table<MirrorState, MirrorList>;
  outbox!: Table<OutboxEntry, number>;
  mirrorIndexes!: Table<StoredListIndex, MirrorList>;

  constructor(options: DatabaseOptions = {}) {
    super(options.name ?? DATABASE_NAME, {
      ...(options.indexedDB ? { indexedDB: options.indexedDB } : {}),
      ...(options.IDBKeyRange ? { IDBKeyRange: options.IDBKeyRange } : {}),
    });
    this.version(1).stores({ kv: "key" });
    // The offline mirror (issue #16): one table per list, indexed by what its screen sorts by. A
    // sort value is stored as `s_<field>` with null as -Infinity (IndexedDB cannot index null; the
    // server sorts NULL first), ties broken by the server's stored order, `position`.
    this.version(2).stores({
      shopifyProducts: `_id, [skuKey+position], position, ${sortIndexes(["price", "compareAtPrice", "available", "onHandInventory"])}`,
      acumaticaProducts: `_id, [skuKey+position], position, ${sortIndexes(["defaultPrice", "msrp", "available", "onHandInventory", "availableForShipping"])}`,
      mappings: "_id, [createdAt+_id]",
      unmapped: "_id, [system+skuKey+externalId]",
      schedules: "_id, [createdAt+position]",
      history: "_id, [startDate+_id]",
      mirrorState: "list",
      outbox: "++seq, userId",
    });
    // Each catalog list's search and sort columns as one record (db/mirror-index.ts), so an app
    // opened again reads one record instead of every row before it can sort or search. The
    // catalogs' sort indexes go: the screens sort over that record, and each index made every
    // stored row cost more to write (a 100,000-row fill took half as long again with them).
    this.version(3).stores({ mirrorIndexes: "list", shopifyProducts: "_id", acumaticaProducts: "_id" });
    // The unmapped products are worked out from the catalogs and the mappings (db/list-indexes.ts):
    // their table, which held every product a second time, goes with its state, its saved index and
    // the outbox's snapshots of it (an edit queued before still replays, and restores its mapping).
    this.version(4)
      .stores({ unmapped: null })
      .upgrade(async (tx) => {
        await tx.table("mirrorState").delete("unmapped");
        await tx.table("mirrorIndexes").delete("unmapped");
        await tx
          .table<{ before: { list: string }[] }>("outbox")
          .toCollection()
          .modify((entry) => {
            entry.before = entry.before.filter((shot) => shot.list !== "unmapped");
          });
      });
  }
}

function sortIndexes(fields: string[]): string {
  return fields.map((field) => `[s_${field}+position]`).join(", ");
}

export interface DatabaseOptions {
  name?: string;
  /** Tests pass fake-indexeddb's factory here instead of touching globals. */
  indexedDB?: IDBFactory;
  IDBKeyRange?: typeof IDBKeyRange;
}

export function createDatabase(options: DatabaseOptions = {}): StockbridgeDatabase {
  return new StockbridgeDatabase(options);
}
