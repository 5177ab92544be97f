import type { MirrorList } from "./mirror-rows.ts";

/**
 * A list's rows reduced to what its searches and sorts read (id, SKU key, sort values), one array
 * per column, so a search or a sort over 100,000 rows runs over arrays instead of reading rows from
 * IndexedDB. Kept current by the same writes as the table, and saved beside it as one record
 * (`mirrorIndexes`) stamped with the table's revision, so an app opened again reads one record.
 */
export interface IndexColumns {
  /**
   * Text columns read (the first one is the searched SKU key); a dotted name reads a nested field
   * (`shopifyDetails.variantId`).
   */
  texts: readonly string[];
  /** Number columns read; `position` (the server's stored order) breaks ties. */
  numbers: readonly string[];
}

/** The stored form: plain arrays and typed arrays, which IndexedDB clones quickly. */
export interface StoredListIndex {
  list: MirrorList;
  revision: number;
  ids: string[];
  texts: Record<string, string[]>;
  numbers: Record<string, Float64Array>;
  /** Orders worked out before saving (the SKU order takes over 100 ms to sort at 100,000 rows). */
  orders?: Record<string, Uint32Array>;
}

export interface ListIndex {
  /** The table revision (mirrorState.revision) these columns were read from. */
  revision: number;
  readonly columns: IndexColumns;
  ids: string[];
  texts: Record<string, string[]>;
  numbers: Record<string, number[]>;
  /** Slot of each id, built on the first write. */
  slots: Map<string, number> | null;
  /** Orders and the last search, dropped on every write. */
  orders: Map<string, Uint32Array>;
  search: { term: string; matches: Uint8Array; total: number } | null;
}

export function emptyIndex(columns: IndexColumns, revision: number): ListIndex {
  return {
    revision,
    columns,
    ids: [],
    texts: Object.fromEntries(columns.texts.map((name) => [name, []])),
    numbers: Object.fromEntries(columns.numbers.map((name) => [name, []])),
    slots: null,
    orders: new Map(),
    search: null,
  };
}

export function indexFromRows(
  columns: IndexColumns,
  revision: number,
  rows: readonly Record<string, unknown>[],
): ListIndex {
  const index = emptyIndex(columns, revision);
  for (const row of rows) append(index, row);
  return index;
}

/** Null when the record was saved with other columns (an older app): the rows are read instead. */
export function indexFromStored(columns: IndexColumns, stored: StoredListIndex): ListIndex | null {
  const index = emptyIndex(columns, stored.revision);
  index.ids = stored.ids;
  for (const name of columns.texts) {
    const values = stored.texts[name];
    if (values?.length !== stored.ids.length) return null;
    index.texts[name] = values;
  }
  for (const name of columns.numbers) {
    const values = stored.numbers[name];
    if (values?.length !== stored.ids.length) return null;
    index.numbers[name] = Array.from(values);
  }
  for (const [scope, order] of Object.entries(stored.orders ?? {}))
    if (order.length === stored.ids.length) index.orders.set(scope, order);
  return index;
}

export function toStored(list: MirrorList, index: ListIndex): StoredListIndex {
  return {
    list,
    revision: index.revision,
    ids: index.ids.slice(),
    texts: Object.fromEntries(Object.entries(index.texts).map(([name, values]) => [name, values.slice()])),
    numbers: Object.fromEntries(
      Object.entries(index.numbers).map(([name, values]) => [name, Float64Array.from(values)]),
    ),
    orders: Object.fromEntries(index.orders),
  };
}

/** Applies what one write did to the table: cleared first, then ids removed, then rows put. */
export function applyWrite(
  index: ListIndex,
  write: { reset?: boolean; removed?: readonly string[]; rows?: readonly Record<string, unknown>[] },
): void {
  if (write.reset) {
    index.ids = [];
    for (const name of index.columns.texts) index.texts[name] = [];
    for (const name of index.columns.numbers) index.numbers[name] = [];
    index.slots = null;
  }
  const slots = slotsOf(index);
  for (const id of write.removed ?? []) {
    const slot = slots.get(id);
    if (slot === undefined) continue;
    // The last slot moves into the hole: orders are computed, never kept in slot order.
    const last = index.ids.length - 1;
    moveSlot(index, last, slot);
    slots.delete(id);
    if (slot !== last) slots.set(index.ids[slot] ?? "", slot);
  }
  for (const row of write.rows ?? []) {
    const slot = slots.get(String(row._id));
    if (slot === undefined) slots.set(String(row._id), append(index, row));
    else setSlot(index, slot, row);
  }
  index.orders.clear();
  index.search = null;
}

function slotsOf(index: ListIndex): Map<string, number> {
  if (!index.slots) index.slots = new Map(index.ids.map((id, slot) => [id, slot]));
  return index.slots;
}

function append(index: ListIndex, row: Record<string, unknown>): number {
  const slot = index.ids.length;
  index.ids.push(String(row._id));
  setSlot(index, slot, row);
  return slot;
}

function setSlot(index: ListIndex, slot: number, row: Record<string, unknown>): void {
  for (const name of index.columns.texts) {
    const values = index.texts[name] ?? [];
    values[slot] = String(fieldAt(row, name) ?? "");
  }
  for (const name of index.columns.numbers) {
    const values = index.numbers[name] ?? [];
    const value = row[name];
    // -0 as 0: the two compare equal, so their order falls to position as in SQL.
    values[slot] = typeof value === "number" ? value + 0 : name === "position" ? 0 : Number.NEGATIVE_INFINITY;
  }
}

function fieldAt(row: Record<string, unknown>, name: string): unknown {
  let value: unknown = row;
  for (const part of name.split(".")) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function moveSlot(index: ListIndex, from: number, to: number): void {
  for (const values of [index.ids, ...Object.values(index.texts), ...Object.values(index.numbers)]) {
    values[to] = values[from] as never;
    values.length = from;
  }
}

/**
 * Slots ascending by a number column or a text column (ties by the text column `tieBy`, else by
 * position), or by position alone. Remembered until the next write.
 */
export type OrderKey = { number: string } | { text: string; tieBy?: string } | { position: true };

export function orderBy(index: ListIndex, key: OrderKey): Uint32Array {
  const scope =
    "number" in key ? `n:${key.number}` : "text" in key ? `t:${key.text}:${key.tieBy ?? ""}` : "p";
  const cached = index.orders.get(scope);
  if (cached) return cached;
  const slots = allSlots(index.ids.length);
  const positions = index.numbers.position;
  let order: Uint32Array;
  if ("text" in key) {
    const texts = index.texts[key.text] ?? [];
    const tied = key.tieBy === undefined ? undefined : index.texts[key.tieBy];
    const tie = (a: number, b: number) =>
      tied
        ? compareStrings(tied[a] ?? "", tied[b] ?? "")
        : positions
          ? (positions[a] ?? 0) - (positions[b] ?? 0)
          : a - b;
    // The same text order with other ties (the catalog's SKU sort, the unmapped list's) is one pass
    // and a few short sorts away, where sorting again takes over 100 ms at 100,000 rows.
    const sameText = [...index.orders].find(([held]) => held.startsWith(`t:${key.text}:`))?.[1];
    order = sameText
      ? retied(sameText, texts, tie)
      : slots.sort((a, b) => {
          const textA = texts[a] ?? "";
          const textB = texts[b] ?? "";
          if (textA !== textB) return textA < textB ? -1 : 1;
          return tie(a, b);
        });
  } else {
    // Radix sorts are stable: sorting by position first leaves ties in position order.
    const byPosition = positions ? radixSort(slots, positions) : slots;
    order = "number" in key ? radixSort(byPosition, index.numbers[key.number] ?? []) : byPosition;
  }
  index.orders.set(scope, order);
  return order;
}

/** `order` (by `texts`) with each run of equal texts sorted by `tie`. */
function retied(
  order: Uint32Array,
  texts: readonly string[],
  tie: (a: number, b: number) => number,
): Uint32Array {
  const result = order.slice();
  let start = 0;
  for (let at = 1; at <= result.length; at += 1) {
    if (at < result.length && texts[result[at] ?? 0] === texts[result[start] ?? 0]) continue;
    if (at - start > 1) result.subarray(start, at).sort(tie);
    start = at;
  }
  return result;
}

function compareStrings(a: string, b: string): number {
  return a === b ? 0 : a < b ? -1 : 1;
}

function allSlots(count: number): Uint32Array {
  const slots = new Uint32Array(count);
  for (let slot = 0; slot < count; slot += 1) slots[slot] = slot;
  return slots;
}

const scratch = new Float64Array(1);
const scratchBits = new Uint32Array(scratch.buffer);
const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * `slots` stably sorted by `values[slot]` ascending: an LSD radix sort over the doubles' bits, 16
 * at a time (a comparison sort of 100,000 rows takes about 50 ms here, this a few). A double's bits
 * compare as unsigned integers once negative ones are flipped whole and positive ones in the sign.
 */
function radixSort(slots: Uint32Array, values: ArrayLike<number>): Uint32Array {
  const count = slots.length;
  const high = new Uint32Array(values.length);
  const low = new Uint32Array(values.length);
  const [lowWord, highWord] = littleEndian ? [0, 1] : [1, 0];
  for (let index = 0; index < count; index += 1) {
    const slot = slots[index] ?? 0;
    scratch[0] = values[slot] ?? 0;
    const hi = scratchBits[highWord] ?? 0;
    const lo = scratchBits[lowWord] ?? 0;
    const negative = hi >>> 31 === 1;
    high[slot] = negative ? ~hi >>> 0 : (hi | 0x80000000) >>> 0;
    low[slot] = negative ? ~lo >>> 0 : lo;
  }
  let source = slots.slice();
  let target = new Uint32Array(count);
  const counts = new Uint32Array(0x10000);
  for (const [words, shift] of [
    [low, 0],
    [low, 16],
    [high, 0],
    [high, 16],
  ] as const) {
    counts.fill(0);
    for (let index = 0; index < count; index += 1) {
      const digit = ((words[source[index] ?? 0] ?? 0) >>> shift) & 0xffff;
      counts[digit] = (counts[digit] ?? 0) + 1;
    }
    // Every slot has the same digit here: this pass would move nothing.
    if (count === 0 || counts[((words[source[0] ?? 0] ?? 0) >>> shift) & 0xffff] === count) continue;
    let sum = 0;
    for (let digit = 0; digit < 0x10000; digit += 1) {
      const here = counts[digit] ?? 0;
      counts[digit] = sum;
      sum += here;
    }
    for (let index = 0; index < count; index += 1) {
      const slot = source[index] ?? 0;
      const digit = ((words[slot] ?? 0) >>> shift) & 0xffff;
      const at = counts[digit] ?? 0;
      target[at] = slot;
      counts[digit] = at + 1;
    }
    [source, target] = [target, source];
  }
  return source;
}

/**
 * The ids on one page of `order` (ascending; a descending list reads it backwards, as the server's
 * does), keeping the slots whose SKU key contains the lowercased term and that `skip` does not mark,
 * and how many were kept.
 */
export function pageOf(
  index: ListIndex,
  order: Uint32Array,
  options: { term: string; descending: boolean; offset: number; limit: number; skip?: Uint8Array },
): { ids: string[]; total: number } {
  const term = options.term.toLowerCase();
  const end = options.offset + options.limit;
  const ids: string[] = [];
  const { skip } = options;
  if (!term && !skip) {
    const total = order.length;
    for (let at = options.offset; at < Math.min(total, end); at += 1) {
      const slot = order[options.descending ? total - 1 - at : at] ?? 0;
      ids.push(index.ids[slot] ?? "");
    }
    return { ids, total };
  }
  const matches = term ? searchOf(index, term).matches : null;
  let total = 0;
  for (let at = 0; at < order.length; at += 1) {
    const slot = order[options.descending ? order.length - 1 - at : at] ?? 0;
    if ((matches && matches[slot] !== 1) || skip?.[slot] === 1) continue;
    if (total >= options.offset && total < end) ids.push(index.ids[slot] ?? "");
    total += 1;
  }
  return { ids, total };
}

/** Which slots' SKU key contains `term`, remembered for the next page or sort of the same search. */
function searchOf(index: ListIndex, term: string) {
  if (index.search?.term === term) return index.search;
  const keys = index.texts[index.columns.texts[0] ?? ""] ?? [];
  const matches = new Uint8Array(keys.length);
  let total = 0;
  for (let slot = 0; slot < keys.length; slot += 1) {
    if (keys[slot]?.includes(term)) {
      matches[slot] = 1;
      total += 1;
    }
  }
  index.search = { term, matches, total };
  return index.search;
}
