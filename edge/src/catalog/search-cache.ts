import type { RowidSet } from "./sort-orders.ts";

/**
 * Remembers, per catalog version and search text, how many rows match and which ones. Paging
 * through a search, or typing on after a debounce, then costs one read of the rows shown instead
 * of a scan of 100,000 SKUs. Entries are keyed by the catalog's version, which every change to the
 * catalog bumps, so a changed catalog never sees old results.
 */
export interface SearchMatch {
  total: number;
  /** The rowids of every match ("4,1,9") when there are few (sorted by SQL), else null. */
  rowids: string | null;
  /** The sort column `rowids` are in ascending order of (then id), if any. */
  sortedBy: string | null;
  /** Many matches: their set, filtered from the catalog's remembered sort order; else null. */
  members: RowidSet | null;
}

/** At most `capacity` searches, holding at most `maxBytes` of match sets between them. */
export function createSearchCache(capacity = 500, maxBytes = 16 * 1024 * 1024) {
  const entries = new Map<string, SearchMatch>();
  let held = 0;
  const weight = (match: SearchMatch) => (match.rowids?.length ?? 0) * 2 + (match.members?.bytes ?? 0);

  function forget(key: string) {
    const match = entries.get(key);
    if (!match) return;
    entries.delete(key);
    held -= weight(match);
  }

  return {
    get(key: string): SearchMatch | undefined {
      const hit = entries.get(key);
      if (hit) {
        // Most recently used goes last; the first entry is the one to evict.
        entries.delete(key);
        entries.set(key, hit);
      }
      return hit;
    },
    set(key: string, match: SearchMatch) {
      forget(key);
      entries.set(key, match);
      held += weight(match);
      for (const [oldest] of entries) {
        if ((entries.size <= capacity && held <= maxBytes) || oldest === key) break;
        forget(oldest);
      }
    },
  };
}

export type SearchCache = ReturnType<typeof createSearchCache>;
