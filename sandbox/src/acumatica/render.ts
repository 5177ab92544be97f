import type { Json } from "./json.ts";
import type { Selection } from "./query.ts";
import { type EntityDef, inVersion, wrap } from "./schema.ts";

export interface RenderOptions {
  major: number;
  rowNumber: number;
  select: Selection | null;
  expand: Set<string>;
  /** `{instancePath}/entity/{name}/{version}`, for `_links`. */
  endpointPath: string;
}

/**
 * A top-level record as the contract-based API prints it: `_links`, `id`, `rowNumber`, `note`, the
 * fields in alphabetical order wrapped as `{"value":..}` (empty ones as `{}`), the expanded details,
 * then `custom: {}`. Details appear only when expanded, even if selected.
 */
export function renderRecord<T>(def: EntityDef<T>, record: T, options: RenderOptions): Record<string, Json> {
  const id = def.id(record);
  const out: Record<string, Json> = {
    _links: {
      self: `${options.endpointPath}/${def.name}/${id}`,
      "files:put": `${options.endpointPath}/files/${def.graph}/${def.primaryView}/${id}/{filename}`,
    },
    id,
    rowNumber: options.rowNumber,
    note: { value: "" },
  };
  const { major, select, expand } = options;
  for (const fieldDef of def.fields) {
    if (!inVersion(fieldDef, major) || (select && !select.has(fieldDef.name))) continue;
    out[fieldDef.name] = wrap(fieldDef.type, fieldDef.get(record));
  }
  for (const detailDef of def.details) {
    if (!expand.has(detailDef.name) || !inVersion(detailDef, major)) continue;
    out[detailDef.name] = detailDef.render(record, major, select?.get(detailDef.name) ?? null);
  }
  out.custom = {};
  if (expand.has("files")) out.files = [];
  return out;
}
