import { Dexie, type Table } from "dexie";

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

  constructor(options: DatabaseOptions = {}) {
    super(options.name ?? DATABASE_NAME, {
      ...(options.indexedDB ? { indexedDB: options.indexedDB } : {}),
      ...(options.IDBKeyRange ? { IDBKeyRange: options.IDBKeyRange } : {}),
    });
    this.version(1).stores({ kv: "key" });
  }
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
