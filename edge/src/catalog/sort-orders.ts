/**
 * Remembers, per catalog version, the order of a user's rows under one sort column: their rowids
 * ascending (a descending list reads it backwards, as the rowid tie-break flips too). A page at any
 * depth is then a slice of it plus one lookup by rowid, where each request would otherwise sort up
 * to 100,000 rows (there is no index per sort column: see migration 10). Every change to a listed row bumps the version (pulls, and triggers for
 * in-place updates), so an order is never served for data it was not read from.
 */
export interface SortOrders {
  get(scope: string, version: number, load: () => Promise<Rowids>): Promise<Rowids>;
}

/** Rowids in order; 4 bytes each while they fit (SQLite's rowids only grow past 2^31 on 2^31 inserts). */
export type Rowids = Int32Array | Float64Array;

/** Holds at most `limits.orders` orders and `limits.rowids` rowids over all of them (4 bytes each). */
export function createSortOrders(limits: { orders: number; rowids: number }): SortOrders {
  // Insertion order is recency: the first entry is the one to evict.
  const entries = new Map<string, { version: number; order: Rowids }>();
  const loading = new Map<string, Promise<Rowids>>();
  let held = 0;

  function remember(scope: string, version: number, order: Rowids) {
    forget(scope);
    entries.set(scope, { version, order });
    held += order.length;
    for (const [oldest] of entries) {
      if ((held <= limits.rowids && entries.size <= limits.orders) || oldest === scope) break;
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

/** How many rowids `group_concat(rowid)` output ("12,7,9", or "" for none) holds. */
export function countRowids(text: string): number {
  if (text === "") return 0;
  let count = 1;
  for (let at = text.indexOf(","); at !== -1; at = text.indexOf(",", at + 1)) count += 1;
  return count;
}

/** Parses `group_concat(rowid)` output without an intermediate array of strings. */
export function parseRowids(text: string): Rowids {
  const rowids = new Float64Array(countRowids(text));
  let index = 0;
  let value = 0;
  let sign = 1;
  let fitsInt32 = true;
  const push = () => {
    const rowid = sign * value;
    if (rowid > 2_147_483_647 || rowid < -2_147_483_648) fitsInt32 = false;
    rowids[index++] = rowid;
    value = 0;
    sign = 1;
  };
  for (let at = 0; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (code === 44) push();
    else if (code === 45) sign = -1;
    else value = value * 10 + (code - 48);
  }
  if (text.length > 0) push();
  return fitsInt32 ? Int32Array.from(rowids) : rowids;
}

/** A set of rowids that answers membership in a few nanoseconds. */
export interface RowidSet {
  has(rowid: number): boolean;
  /** Memory held, for cache bounds. */
  bytes: number;
}

/**
 * A bitmap over the members' span when that is not much larger than a list of them (rowids of one
 * catalog are mostly dense), else the sorted members and a binary search.
 */
export function rowidSet(members: Rowids): RowidSet {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const rowid of members) {
    if (rowid < min) min = rowid;
    if (rowid > max) max = rowid;
  }
  if (members.length === 0) return { has: () => false, bytes: 0 };
  const span = max - min + 1;
  if (span <= Math.max(1 << 20, members.length * 32)) {
    const bits = new Uint8Array(Math.ceil(span / 8));
    for (const rowid of members) {
      const at = rowid - min;
      bits[at >> 3] = (bits[at >> 3] as number) | (1 << (at & 7));
    }
    return {
      has(rowid) {
        const at = rowid - min;
        return at >= 0 && at < span && ((bits[at >> 3] as number) & (1 << (at & 7))) !== 0;
      },
      bytes: bits.byteLength,
    };
  }
  const sorted = members.slice().sort();
  return {
    has(rowid) {
      let low = 0;
      let high = sorted.length - 1;
      while (low <= high) {
        const middle = (low + high) >> 1;
        const value = sorted[middle] as number;
        if (value === rowid) return true;
        if (value < rowid) low = middle + 1;
        else high = middle - 1;
      }
      return false;
    },
    bytes: sorted.byteLength,
  };
}

/**
 * Rowids of a page of `order` (ascending; read from the end for a descending list), counting only
 * rows in `members` when given: for a common term a page is found after a short stretch.
 */
export function pageOf(
  order: Rowids,
  window: { offset: number; limit: number; descending: boolean },
  members?: RowidSet,
): number[] {
  const rowids: number[] = [];
  const rowidAt = (at: number) => order[window.descending ? order.length - 1 - at : at] as number;
  if (!members) {
    for (let at = window.offset; at < Math.min(order.length, window.offset + window.limit); at += 1) {
      rowids.push(rowidAt(at));
    }
    return rowids;
  }
  let skip = window.offset;
  for (let at = 0; at < order.length && rowids.length < window.limit; at += 1) {
    const rowid = rowidAt(at);
    if (!members.has(rowid)) continue;
    if (skip > 0) skip -= 1;
    else rowids.push(rowid);
  }
  return rowids;
}
