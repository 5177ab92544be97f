import { type DehydrateOptions, dehydrate, hydrate, type QueryClient } from "@tanstack/react-query";
import type { PersistedClient, Persister } from "@tanstack/react-query-persist-client";

/**
 * Restore and save of the persisted query cache, as `persistQueryClientRestore/Subscribe` do.
 * Written here because the installed persist-client packages pin an older query-core than
 * react-query's own; hydrating with that copy would mix two QueryClient implementations. Using
 * react-query's `hydrate`/`dehydrate` keeps one. (The storage side still comes from
 * @tanstack/query-async-storage-persister, which has no query-core code in it.)
 */
export interface PersistQueryCacheOptions {
  queryClient: QueryClient;
  persister: Persister;
  /** A different buster drops the saved cache (app version). */
  buster: string;
  maxAge: number;
  dehydrateOptions?: DehydrateOptions;
  now?(): number;
}

export async function restoreQueryCache(options: PersistQueryCacheOptions): Promise<void> {
  const now = options.now ?? Date.now;
  try {
    const saved = await options.persister.restoreClient();
    if (!saved) return;
    if (!isRestorable(saved, { buster: options.buster, maxAge: options.maxAge, now: now() })) {
      await options.persister.removeClient();
      return;
    }
    hydrate(options.queryClient, saved.clientState);
    // A saved list may predate the last change the user made (writes are throttled, a reload can
    // come first), so restored data is shown at once but counts as stale: mounted screens refetch
    // it when online, and offline it stays on screen.
    const restored = new Set(saved.clientState.queries.map((query) => query.queryHash));
    await options.queryClient.invalidateQueries({
      predicate: (query) => restored.has(query.queryHash),
      refetchType: "none",
    });
  } catch {
    // A cache that cannot be read is worth nothing; the lists load from the server instead.
    await Promise.resolve(options.persister.removeClient()).catch(() => undefined);
  }
}

export function isRestorable(
  saved: Pick<PersistedClient, "timestamp" | "buster">,
  options: { buster: string; maxAge: number; now: number },
): boolean {
  if (!saved.timestamp) return false;
  return saved.buster === options.buster && options.now - saved.timestamp <= options.maxAge;
}

/** Saves the cache on every query added, updated or removed (the persister throttles the writes). */
export function subscribeQueryCache(options: PersistQueryCacheOptions): () => void {
  const now = options.now ?? Date.now;
  return options.queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== "added" && event.type !== "removed" && event.type !== "updated") return;
    const snapshot: PersistedClient = {
      buster: options.buster,
      timestamp: now(),
      clientState: dehydrate(options.queryClient, options.dehydrateOptions) as PersistedClient["clientState"],
    };
    void Promise.resolve(options.persister.persistClient(snapshot)).catch(() => undefined);
  });
}
