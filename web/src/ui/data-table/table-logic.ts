/** Pure helpers of the shared table (spec "Shared table behaviour"), kept apart so tests need no DOM. */

export type SortDirection = "asc" | "desc";
export interface SortState {
  id: string;
  direction: SortDirection;
}

export const EMPTY_CELL = "-";
const NO_DATA_TEXT = "No data available";
const NO_MATCH_TEXT = "No matching results";

/** Reads `a.b.c` from a row; arrays take numeric segments (`inventoryLocations.0.available`). */
export function getByPath(row: unknown, path: string): unknown {
  let current: unknown = row;
  for (const segment of path.split(".")) {
    if (current === null || current === undefined || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

export function isEmptyCellValue(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === "string" && value.trim() === "");
}

/** The text of a plain cell: '-' for nothing, otherwise the value as text. */
export function formatCellValue(value: unknown): string {
  if (isEmptyCellValue(value)) return EMPTY_CELL;
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : EMPTY_CELL;
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

/** Ascending order with empty values last; numbers numerically, text by locale with numbers inside. */
export function compareValues(a: unknown, b: unknown): number {
  const aEmpty = isEmptyCellValue(a);
  const bEmpty = isEmptyCellValue(b);
  if (aEmpty || bEmpty) return aEmpty === bEmpty ? 0 : aEmpty ? 1 : -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "boolean" && typeof b === "boolean") return Number(a) - Number(b);
  return String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: "base" });
}

/** Clicking a header: a new column sorts ascending, the sorted column flips direction. */
export function nextSort(current: SortState | null, columnId: string): SortState {
  if (current?.id === columnId)
    return { id: columnId, direction: current.direction === "asc" ? "desc" : "asc" };
  return { id: columnId, direction: "asc" };
}

export function ariaSort(current: SortState | null, columnId: string): "ascending" | "descending" | "none" {
  if (current?.id !== columnId) return "none";
  return current.direction === "asc" ? "ascending" : "descending";
}

/** The index column continues across pages: row 0 of page 2 (size 10) is number 11. */
export function rowNumber(pageIndex: number, pageSize: number, rowIndex: number): number {
  return pageIndex * pageSize + rowIndex + 1;
}

export function emptyText(searchActive: boolean): string {
  return searchActive ? NO_MATCH_TEXT : NO_DATA_TEXT;
}

/** "11–20 of 57" as numbers; `from` is 0 for an empty list. */
export function pageRange(pageIndex: number, pageSize: number, total: number): { from: number; to: number } {
  if (total <= 0) return { from: 0, to: 0 };
  const from = Math.min(total, pageIndex * pageSize + 1);
  return { from, to: Math.min(total, (pageIndex + 1) * pageSize) };
}

export function pageCount(pageSize: number, total: number): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / Math.max(1, pageSize)));
}

/** Client-side search: a row matches when any searchable value contains the term (case-insensitive). */
export function matchesSearch(values: readonly unknown[], term: string): boolean {
  const needle = term.trim().toLowerCase();
  if (!needle) return true;
  return values.some(
    (value) => !isEmptyCellValue(value) && formatCellValue(value).toLowerCase().includes(needle),
  );
}
