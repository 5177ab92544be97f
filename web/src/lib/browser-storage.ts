import type { Persister } from "@tanstack/react-query-persist-client";
import { createDatabase, type DatabaseOptions, type StockbridgeDatabase } from "../db/database.ts";
import { createQueryPersister } from "../db/query-persister.ts";
import { createUserCache, type UserCache } from "../db/user-cache.ts";

/** What the app keeps in IndexedDB, opened together. */
export interface BrowserStorage {
  db: StockbridgeDatabase;
  persister: Persister;
  users: UserCache;
}

/** Opens the app's IndexedDB storage. Imported on demand (services.ts): Dexie stays out of the entry. */
export function openBrowserStorage(
  database: DatabaseOptions | undefined,
  options: { onQuotaExceeded(): void },
): BrowserStorage {
  const db = createDatabase(database);
  return {
    db,
    persister: createQueryPersister(db, { onQuotaExceeded: options.onQuotaExceeded }),
    users: createUserCache(db),
  };
}
