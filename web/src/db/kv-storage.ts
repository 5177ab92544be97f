import type { StockbridgeDatabase } from "./database.ts";

/** The async storage shape TanStack's persister expects, backed by the `kv` table. */
export interface KeyValueStorage {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
  removeItem(key: string): Promise<void>;
}

export interface KeyValueStorageOptions {
  /** Told when the browser refuses a write for lack of space, so the UI can say so. */
  onQuotaExceeded?(error: unknown): void;
  now?(): number;
}

export function createKeyValueStorage(
  db: StockbridgeDatabase,
  options: KeyValueStorageOptions = {},
): KeyValueStorage {
  const now = options.now ?? Date.now;
  return {
    async getItem(key) {
      const row = await db.kv.get(key);
      return row?.value ?? null;
    },
    async setItem(key, value) {
      try {
        await db.kv.put({ key, value, updatedAt: now() });
      } catch (error) {
        if (isQuotaError(error)) {
          options.onQuotaExceeded?.(error);
          return;
        }
        throw error;
      }
    },
    async removeItem(key) {
      await db.kv.delete(key);
    },
  };
}

/** Dexie wraps the DOMException; both names appear depending on the browser. */
export function isQuotaError(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const name = "name" in error ? String(error.name) : "";
  const inner = "inner" in error ? error.inner : undefined;
  return name === "QuotaExceededError" || (inner !== undefined && inner !== error && isQuotaError(inner));
}
