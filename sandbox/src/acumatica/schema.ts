import { Decimal, decimalText, formatDateTime, type Json } from "./json.ts";

/** The contract field types we serve (StringValue, DecimalValue, ...). */
export type FieldType = "string" | "decimal" | "datetime" | "boolean" | "guid" | "int";

/** A field's raw value: dates are epoch ms, null is an empty field (serialised as `{}`). */
export type FieldValue = string | number | boolean | null;

export interface FieldDef<T> {
  name: string;
  type: FieldType;
  /** First endpoint major version (20, 22, 24...) that has the field; absent = every version. */
  since?: number;
  /** Last endpoint major version that has it (renamed fields). */
  until?: number;
  get(record: T): FieldValue;
}

/** A detail collection (array of rows), only returned when named in `$expand`. */
export interface DetailDef<T> {
  name: string;
  since?: number;
  until?: number;
  fieldNames(major: number): string[];
  render(record: T, major: number, select: Set<string> | null): Json[];
}

export interface EntityDef<T> {
  name: string;
  since?: number;
  keyField: string;
  /** For `_links["files:put"]`: graph type and primary view of the screen behind the entity. */
  graph: string;
  primaryView: string;
  fields: FieldDef<T>[];
  details: DetailDef<T>[];
  id(record: T): string;
}

export function inVersion(member: { since?: number; until?: number }, major: number): boolean {
  return (member.since ?? 0) <= major && major <= (member.until ?? Number.POSITIVE_INFINITY);
}

export function field<T>(
  name: string,
  type: FieldType,
  { get, ...versions }: { get: (record: T) => FieldValue; since?: number; until?: number },
): FieldDef<T> {
  return { name, type, get, ...versions };
}

export function detail<T, R>(
  name: string,
  {
    rows,
    fields,
    ...versions
  }: { rows: (record: T) => R[]; fields: FieldDef<R>[]; since?: number; until?: number },
): DetailDef<T> {
  const sorted = sortByName(fields);
  return {
    name,
    ...versions,
    fieldNames: (major) => sorted.filter((def) => inVersion(def, major)).map((def) => def.name),
    render(record, major, select) {
      return rows(record).map((row, index) => {
        const out: Record<string, Json> = {
          id: detailRowId(record, index),
          rowNumber: index + 1,
          note: null,
        };
        for (const def of sorted) {
          if (!inVersion(def, major) || (select && !select.has(def.name))) continue;
          out[def.name] = wrap(def.type, def.get(row));
        }
        out.custom = {};
        return out;
      });
    },
  };
}

/** `{"value": X}` or `{}` for an empty field. */
export function wrap(type: FieldType, value: FieldValue): Json {
  if (value === null) return {};
  if (type === "decimal" && typeof value === "number") return { value: new Decimal(value) };
  if (type === "datetime" && typeof value === "number") return { value: formatDateTime(value) };
  return { value };
}

/** The same wrapper as raw JSON text, for rows written straight into a streamed body. */
export function wrapText(type: FieldType, value: FieldValue): string {
  if (value === null) return "{}";
  if (type === "decimal" && typeof value === "number") return `{"value":${decimalText(value)}}`;
  if (type === "datetime" && typeof value === "number") return `{"value":"${formatDateTime(value)}"}`;
  return `{"value":${JSON.stringify(value)}}`;
}

export function sortByName<D extends { name: string }>(defs: D[]): D[] {
  return [...defs].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

// Detail rows get ids valid for the session only in the real system; a derived id is close enough.
function detailRowId(record: unknown, index: number): string {
  const base =
    typeof record === "object" && record !== null && "id" in record && typeof record.id === "string"
      ? record.id
      : "00000000-0000-4000-8000-000000000000";
  const suffix = (index + 1).toString(16).padStart(4, "0");
  return `${base.slice(0, 19)}${suffix}${base.slice(23)}`;
}
