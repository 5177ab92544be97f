import { GraphQLError } from "graphql";

/** Records in their connection order, located by id without copying (e.g. the ascending id list). */
export interface OrderedSource<R> {
  length: number;
  at(index: number): R;
  /** Where the record with `id` sits, or the index it would be inserted at. */
  locate(id: number): { index: number; found: boolean };
}

export interface ConnectionArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
  reverse?: boolean | null;
}

export interface Connection<N> {
  edges: { cursor: string; node: N }[];
  nodes: N[];
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
}

/** Shopify caps connection pages at 250 (graphql-ruby's max_page_size silently limits larger asks). */
export const MAX_PAGE_SIZE = 250;

export function sortedIdSource<R>(ids: readonly number[], lookup: (id: number) => R): OrderedSource<R> {
  return {
    length: ids.length,
    at: (index) => lookup(ids[index]!),
    locate(id) {
      let low = 0;
      let high = ids.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (ids[middle]! < id) low = middle + 1;
        else high = middle;
      }
      return { index: low, found: ids[low] === id };
    },
  };
}

export function arraySource<R>(records: readonly R[], idOf: (record: R) => number): OrderedSource<R> {
  return {
    length: records.length,
    at: (index) => records[index]!,
    locate(id) {
      const index = records.findIndex((record) => idOf(record) === id);
      return index === -1 ? { index: 0, found: false } : { index, found: true };
    },
  };
}

export interface PageOptions<R, N> {
  source: OrderedSource<R>;
  args: ConnectionArgs;
  idOf(record: R): number;
  /** The sort value shown in cursors (Shopify's cursors carry last_id and last_value). */
  sortValueOf?(record: R): string;
  matches?(record: R): boolean;
  view(record: R): N;
  /** Bulk operations read whole connections: no first/last needed. */
  unbounded?: boolean;
}

export function paginate<R, N>(options: PageOptions<R, N>): Connection<N> {
  const { args, idOf } = options;
  const matches = options.matches ?? (() => true);
  const first = args.first ?? null;
  const last = args.last ?? null;
  if (first === null && last === null && !options.unbounded) {
    throw new GraphQLError("you must provide one of first or last");
  }
  const order = ordered(options.source, Boolean(args.reverse));
  const start = args.after ? order.afterIndex(decodeCursor(args.after)) : 0;
  const end = args.before ? order.beforeIndex(decodeCursor(args.before)) : order.length;
  const limit = (value: number | null) =>
    value === null ? Number.POSITIVE_INFINITY : options.unbounded ? Math.max(value, 0) : clamp(value);

  let picked: R[] = [];
  let hasNextPage = false;
  let hasPreviousPage = false;
  if (last !== null && first === null) {
    const wanted = limit(last);
    for (let index = end - 1; index >= start; index -= 1) {
      const record = order.at(index);
      if (!matches(record)) continue;
      if (picked.length === wanted) {
        hasPreviousPage = true;
        break;
      }
      picked.push(record);
    }
    picked.reverse();
    hasNextPage = Boolean(args.before) && anyMatch(order, { from: end, to: order.length, matches });
  } else {
    const wanted = limit(first);
    for (let index = start; index < end; index += 1) {
      const record = order.at(index);
      if (!matches(record)) continue;
      if (picked.length === wanted) {
        hasNextPage = true;
        break;
      }
      picked.push(record);
    }
    if (last !== null && picked.length > limit(last)) picked = picked.slice(picked.length - limit(last));
    hasPreviousPage = Boolean(args.after) && anyMatch(order, { from: 0, to: start, matches });
  }

  const cursorOf = (record: R) =>
    encodeCursor(idOf(record), options.sortValueOf?.(record) ?? String(idOf(record)));
  const edges = picked.map((record) => ({ cursor: cursorOf(record), node: options.view(record) }));
  return {
    edges,
    nodes: edges.map((edge) => edge.node),
    pageInfo: {
      hasNextPage,
      hasPreviousPage,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}

function clamp(value: number): number {
  return Math.min(Math.max(value, 0), MAX_PAGE_SIZE);
}

interface Order<R> {
  length: number;
  at(index: number): R;
  afterIndex(id: number): number;
  beforeIndex(id: number): number;
}

function ordered<R>(source: OrderedSource<R>, reverse: boolean): Order<R> {
  const length = source.length;
  if (!reverse) {
    return {
      length,
      at: (index) => source.at(index),
      afterIndex(id) {
        const { index, found } = source.locate(id);
        return found ? index + 1 : index;
      },
      beforeIndex: (id) => source.locate(id).index,
    };
  }
  return {
    length,
    at: (index) => source.at(length - 1 - index),
    // Reversed, the records after a cursor are those with smaller ids, found or not.
    afterIndex: (id) => length - source.locate(id).index,
    beforeIndex(id) {
      const { index, found } = source.locate(id);
      return found ? length - 1 - index : length - index;
    },
  };
}

function anyMatch<R>(
  order: Order<R>,
  { from, to, matches }: { from: number; to: number; matches: (record: R) => boolean },
): boolean {
  for (let index = from; index < to; index += 1) if (matches(order.at(index))) return true;
  return false;
}

export function encodeCursor(id: number, value: string): string {
  const bytes = new TextEncoder().encode(JSON.stringify({ last_id: id, last_value: value }));
  return btoa(String.fromCharCode(...bytes));
}

function decodeCursor(cursor: string): number {
  try {
    const bytes = Uint8Array.from(atob(cursor), (char) => char.charCodeAt(0));
    const parsed: unknown = JSON.parse(new TextDecoder().decode(bytes));
    if (typeof parsed === "object" && parsed !== null && "last_id" in parsed) {
      const id = parsed.last_id;
      if (typeof id === "number" && Number.isFinite(id)) return id;
    }
  } catch {
    // reported below
  }
  throw new GraphQLError("Invalid cursor for current pagination sort.");
}
