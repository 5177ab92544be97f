import { createAsyncStoragePersister } from "@tanstack/query-async-storage-persister";
import type { Persister } from "@tanstack/react-query-persist-client";
import type { StockbridgeDatabase } from "./database.ts";
import { createKeyValueStorage, type KeyValueStorageOptions } from "./kv-storage.ts";

export const QUERY_CACHE_KEY = "stockbridge.query-cache";

/** Persists the TanStack Query cache into IndexedDB so lists survive a reload and an offline start. */
export function createQueryPersister(
  db: StockbridgeDatabase,
  options: KeyValueStorageOptions & { throttleTime?: number } = {},
): Persister {
  return createAsyncStoragePersister({
    storage: createKeyValueStorage(db, options),
    key: QUERY_CACHE_KEY,
    throttleTime: options.throttleTime ?? 1_000,
  });
}
