import { invalidRequest, serverError } from "./errors.ts";
import { compileFilter } from "./odata-filter.ts";
import { FilterError, parseFilter } from "./odata-parse.ts";
import { type EntityDef, type FieldDef, inVersion } from "./schema.ts";

/** Top-level name -> the nested fields selected in it (null = all of it). */
export type Selection = Map<string, Set<string> | null>;

export interface EntityQuery<T> {
  select: Selection | null;
  expand: Set<string>;
  filter: ((record: T) => boolean) | null;
  top: number | null;
  skip: number;
}

const SYSTEM_FIELDS = new Set(["id", "rowNumber", "note", "custom", "files", "_links"]);

/**
 * Reads $select, $expand, $filter, $top and $skip (the only options the swagger declares; there is
 * no $orderby and no count). Malformed values answer 400; names the version lacks answer 500.
 */
export function parseEntityQuery<T>(
  params: URLSearchParams,
  def: EntityDef<T>,
  major: number,
): EntityQuery<T> {
  const expand = parseExpand(params.get("$expand"), def, major);
  const select = parseSelect(params.get("$select"), def, major);
  const filterText = params.get("$filter");
  let filter: ((record: T) => boolean) | null = null;
  if (filterText !== null && filterText.trim() !== "") {
    try {
      filter = compileFilter(parseFilter(filterText), (path) => findField(def, path, major));
    } catch (error) {
      if (!(error instanceof FilterError)) throw error;
      if (error.syntax) throw invalidRequest("$filter", error.message);
      throw serverError(`${error.message} Entity: ${def.name}.`, "PX.Data.PXException");
    }
  }
  return {
    select,
    expand,
    filter,
    top: parseCount(params.get("$top"), "$top"),
    skip: parseCount(params.get("$skip"), "$skip") ?? 0,
  };
}

export function findField<T>(def: EntityDef<T>, name: string, major: number): FieldDef<T> | undefined {
  return def.fields.find((candidate) => candidate.name === name && inVersion(candidate, major));
}

function parseCount(raw: string | null, name: string): number | null {
  if (raw === null || raw === "") return null;
  if (!/^\d+$/.test(raw.trim())) throw invalidRequest(name, `The value '${raw}' is not valid for ${name}.`);
  return Number(raw.trim());
}

function parseExpand<T>(raw: string | null, def: EntityDef<T>, major: number): Set<string> {
  const expand = new Set<string>();
  for (const entry of splitList(raw)) {
    const head = entry.split("/")[0]!;
    if (head.toLowerCase() === "files") {
      expand.add("files");
      continue;
    }
    const detailDef = def.details.find((candidate) => candidate.name === head && inVersion(candidate, major));
    if (!detailDef) {
      throw serverError(
        `The entity ${def.name} has no detail or linked entity named '${head}'.`,
        "PX.Data.PXException",
      );
    }
    expand.add(detailDef.name);
  }
  return expand;
}

function parseSelect<T>(raw: string | null, def: EntityDef<T>, major: number): Selection | null {
  const entries = splitList(raw);
  if (entries.length === 0) return null;
  const selection: Selection = new Map();
  for (const entry of entries) {
    const [head, nested] = entry.split("/", 2) as [string, string | undefined];
    if (SYSTEM_FIELDS.has(head)) continue;
    const detailDef = def.details.find((candidate) => candidate.name === head && inVersion(candidate, major));
    if (detailDef) {
      if (nested === undefined) {
        selection.set(head, null);
        continue;
      }
      if (!detailDef.fieldNames(major).includes(nested)) {
        throw serverError(
          `The field '${entry}' is not found in the entity ${def.name}.`,
          "PX.Data.PXException",
        );
      }
      const current = selection.get(head);
      if (current !== null) selection.set(head, new Set([...(current ?? []), nested]));
      continue;
    }
    if (nested !== undefined || !findField(def, head, major)) {
      throw serverError(
        `The field '${entry}' is not found in the entity ${def.name}.`,
        "PX.Data.PXException",
      );
    }
    selection.set(head, null);
  }
  return selection;
}

function splitList(raw: string | null): string[] {
  if (!raw) return [];
  return raw
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");
}

/**
 * `$skip` first, then `$top`. Without a filter this is a slice (no copy of the whole table); with
 * one it scans only until the page is full.
 */
export function pageRows<T>(rows: readonly T[], query: EntityQuery<T>): T[] {
  const { filter, skip, top } = query;
  if (!filter) return rows.slice(skip, top === null ? undefined : skip + top);
  const page: T[] = [];
  if (top === 0) return page;
  let skipped = 0;
  for (const row of rows) {
    if (!filter(row)) continue;
    if (skipped < skip) {
      skipped += 1;
      continue;
    }
    page.push(row);
    if (top !== null && page.length >= top) break;
  }
  return page;
}
