/**
 * Remembers, per catalog version, the order of a user's rows under one sort column: their rowids
 * ascending (a descending list reads it backwards, as the id tie-break flips too). A page at any
 * depth is then a slice of it plus one lookup by rowid, where OFFSET would walk up to 100,000 index
 * entries per request. Every change to a listed row bumps the version (pulls, and triggers for
 * in-place updates), so an order is never served for data it was not read from.
 */
export interface SortOrders {
  get(scope: string, version: number, load: () => Promise<Float64Array>): Promise<Float64Array>;
}

/** `capacity` bounds the rowids held over all orders (8 bytes each). */
export function createSortOrders(capacity = 8_000_000): SortOrders {
  // Insertion order is recency: the first entry is the one to evict.
  const entries = new Map<string, { version: number; order: Float64Array }>();
  const loading = new Map<string, Promise<Float64Array>>();
  let held = 0;

  function remember(scope: string, version: number, order: Float64Array) {
    forget(scope);
    entries.set(scope, { version, order });
    held += order.length;
    for (const [oldest] of entries) {
      if (held <= capacity || oldest === scope) break;
      forget(oldest);
    }
  }

  function forget(scope: string) {
    const entry = entries.get(scope);
    if (!entry) return;
    entries.delete(scope);
    held -= entry.order.length;
  }

  return {
    async get(scope, version, load) {
      const entry = entries.get(scope);
      if (entry?.version === version) {
        entries.delete(scope);
        entries.set(scope, entry);
        return entry.order;
      }
      // Concurrent first requests share one read.
      const key = `${scope}|${version}`;
      const pending = loading.get(key);
      if (pending) return pending;
      const read = load().then(
        (order) => {
          loading.delete(key);
          // A slower read of an older version must not replace a newer one.
          if ((entries.get(scope)?.version ?? -1) <= version) remember(scope, version, order);
          return order;
        },
        (error: unknown) => {
          loading.delete(key);
          throw error;
        },
      );
      loading.set(key, read);
      return read;
    },
  };
}

/** Parses `group_concat(rowid)` output ("12,7,9") without an intermediate array of strings. */
export function parseRowids(text: string, count: number): Float64Array {
  const rowids = new Float64Array(count);
  let index = 0;
  let value = 0;
  let sign = 1;
  for (let at = 0; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (code === 44) {
      rowids[index++] = sign * value;
      value = 0;
      sign = 1;
    } else if (code === 45) {
      sign = -1;
    } else {
      value = value * 10 + (code - 48);
    }
  }
  if (text.length > 0) rowids[index++] = sign * value;
  if (index !== count) throw new Error(`expected ${count} rowids, read ${index}`);
  return rowids;
}
