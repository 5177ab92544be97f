import { readField } from "./body.ts";
import { AcumaticaError, invalidRequest } from "./errors.ts";
import { type Json, LazyArray } from "./json.ts";
import { onCalendar } from "./odata-parse.ts";
import {
  type FieldDef,
  type FieldType,
  type FieldValue,
  inVersion,
  sortByName,
  wrap,
  wrapText,
} from "./schema.ts";
import type { ErpStore } from "./store.ts";

/**
 * What every inquiry shares: parameters read from `{"value": ..}` wrappers in the PUT body, 422
 * with field errors for parameters naming unknown records, the parameters echoed in the answer,
 * and the result rows only when the detail is expanded (streamed, unpaged).
 */
export type Params = Map<string, FieldValue>;

export interface ParamDef {
  name: string;
  type: FieldType;
}

export interface InquirySpec<R> {
  name: string;
  since?: number;
  detail: string;
  params: ParamDef[];
  rowFields: FieldDef<R>[];
  /** Field errors (422) for parameters that name something that does not exist. */
  validate(params: Params, store: ErpStore): Record<string, string>;
  rows(params: Params, store: ErpStore): R[];
  /** Extra top-level result fields (InventoryAllocationInquiry's totals). */
  summary?(params: Params, store: ErpStore): FieldDef<null>[];
}

export interface Inquiry {
  name: string;
  since?: number;
  detail: string;
  params: ParamDef[];
  rowFieldTypes(major: number): ParamDef[];
  run(store: ErpStore, request: { major: number; body: Record<string, unknown>; expand: Set<string> }): Json;
}

export function defineInquiry<R>(spec: InquirySpec<R>): Inquiry {
  const rowFields = sortByName(spec.rowFields);
  return {
    name: spec.name,
    since: spec.since,
    detail: spec.detail,
    params: spec.params,
    rowFieldTypes: (major) =>
      rowFields.filter((def) => inVersion(def, major)).map((def) => ({ name: def.name, type: def.type })),
    run(store, { major, body, expand }) {
      const params: Params = new Map();
      for (const param of spec.params) params.set(param.name, readParam(body, param));
      const errors = spec.validate(params, store);
      const out: Record<string, Json> = { id: crypto.randomUUID(), rowNumber: 1, note: null };
      const topLevel: Array<[string, Json]> = spec.params.map((param) => {
        const value = params.get(param.name) ?? null;
        const error = errors[param.name];
        return [param.name, error ? { value, error } : wrap(param.type, value)];
      });
      if (Object.keys(errors).length > 0) {
        for (const [name, value] of topLevel) out[name] = value;
        out.custom = {};
        throw new AcumaticaError(422, out);
      }
      for (const def of spec.summary?.(params, store) ?? [])
        topLevel.push([def.name, wrap(def.type, def.get(null))]);
      topLevel.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      for (const [name, value] of topLevel) out[name] = value;
      if (expand.has(spec.detail)) {
        const rows = spec.rows(params, store);
        const fields = rowFields.filter((def) => inVersion(def, major));
        // Inquiry row ids are valid within one response only (no NoteID behind them).
        const prefix = crypto.randomUUID().slice(0, 24);
        out[spec.detail] = new LazyArray(rows.length, (index) => {
          const row = rows[index]!;
          let json = `{"id":"${prefix}${index.toString(16).padStart(12, "0")}","rowNumber":${index + 1},"note":null`;
          for (const def of fields) json += `,"${def.name}":${wrapText(def.type, def.get(row))}`;
          return `${json},"custom":{}}`;
        });
      }
      out.custom = {};
      return out;
    },
  };
}

/** A parameter's value; a wrong JSON type fails deserialisation (400) like the real server. */
function readParam(body: Record<string, unknown>, param: ParamDef): FieldValue {
  const sent = readField(body, param.name, param.type);
  if (!sent.sent || !sent.hasValue || sent.value === null) return null;
  const { value } = sent;
  if (param.type === "string" && typeof value === "string") return value;
  if (param.type === "boolean" && typeof value === "boolean") return value;
  if (param.type === "datetime" && typeof value === "string") {
    // Without an offset the value is taken as UTC (the instance's time zone here).
    const zoned = value.includes("T") && !/([zZ]|[+-]\d{2}:?\d{2})$/.test(value) ? `${value}Z` : value;
    const ms = /^\d{4}-/.test(value) && !onCalendar(value) ? Number.NaN : Date.parse(zoned);
    if (!Number.isNaN(ms)) return ms;
  }
  throw invalidRequest(
    `entity.${param.name}`,
    `Error converting value ${JSON.stringify(value)} to the type of ${param.name}.`,
  );
}
