/**
 * How the server orders and pages its lists, for rows held in memory: ORDER BY value, position
 * (NULL first, stored as -Infinity), a descending list being the ascending one read backwards, and
 * SKU search as "contains", case-insensitively. Pure, so tests compare it with the server's answers.
 */
export interface Projection {
  _id: string;
  skuKey: string;
  position: number;
  [sortValue: `s_${string}`]: number;
}

export type SortKey = "sku" | "lastSynced" | `s_${string}`;

export function compareBy(key: SortKey): (a: Projection, b: Projection) => number {
  if (key === "lastSynced") return (a, b) => a.position - b.position;
  if (key === "sku") return (a, b) => compareText(a.skuKey, b.skuKey) || a.position - b.position;
  return (a, b) =>
    compareNumber(a[key] ?? Number.NEGATIVE_INFINITY, b[key] ?? Number.NEGATIVE_INFINITY) ||
    a.position - b.position;
}

function compareNumber(a: number, b: number): number {
  return a === b ? 0 : a < b ? -1 : 1;
}

export function compareText(a: string, b: string): number {
  return a === b ? 0 : a < b ? -1 : 1;
}

/** The ids on one page of `ascending` (already sorted), filtered by the search term, and how many matched. */
export function pageOfSorted(
  ascending: readonly Projection[],
  options: { term: string; descending: boolean; offset: number; limit: number },
): { ids: string[]; total: number } {
  const term = options.term.toLowerCase();
  const matching = term ? ascending.filter((row) => row.skuKey.includes(term)) : ascending;
  const total = matching.length;
  const ids: string[] = [];
  for (let index = options.offset; index < Math.min(total, options.offset + options.limit); index += 1) {
    const row = options.descending ? matching[total - 1 - index] : matching[index];
    if (row) ids.push(row._id);
  }
  return { ids, total };
}

/** SQLite's LIKE '%term%': case-insensitive for ASCII letters only. */
export function likeContains(text: string, term: string): boolean {
  return asciiLower(text).includes(asciiLower(term));
}

function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

export function totalPages(total: number, limit: number): number {
  return Math.ceil(total / limit);
}
