/**
 * Remembers, per catalog version and search text, how many rows match and (for selective searches)
 * which ones. Paging through a search, or typing on after a debounce, then costs one indexed page
 * read instead of a scan of 100,000 SKUs. Entries are keyed by the catalog's version, which every
 * pull bumps, so a new catalog never sees old results.
 */
export interface SearchMatch {
  total: number;
  /** The rowids of every match as a JSON array when there are few; null when there are many (page via the sort index). */
  rowids: string | null;
}

export function createSearchCache(capacity = 500) {
  const entries = new Map<string, SearchMatch>();
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
      entries.delete(key);
      entries.set(key, match);
      if (entries.size > capacity) entries.delete(entries.keys().next().value as string);
    },
  };
}

export type SearchCache = ReturnType<typeof createSearchCache>;
