import { type BodyField, readField } from "./body.ts";
import { AcumaticaError, noEntity, preconditionFailed } from "./errors.ts";
import type { Json } from "./json.ts";
import { findField } from "./query.ts";
import type { EntityDef, FieldType } from "./schema.ts";
import { type ErpItem, type ErpStore, findByKey, type ItemTable, insertItem } from "./store.ts";

export interface UpsertRequest {
  store: ErpStore;
  def: EntityDef<ErpItem>;
  major: number;
  body: Record<string, unknown>;
  /** `If-Match: *` = update only; `If-None-Match: *` = insert only. */
  ifMatch?: string;
  ifNoneMatch?: string;
  now: number;
  render(item: ErpItem): Record<string, Json>;
}

const ITEM_STATUSES = ["Active", "Inactive", "No Sales", "No Purchases", "No Request", "Marked for Deletion"];

const ITEM_CLASSES = ["STOCKITEM", "SERVICES"];

type Parsed = { ok: true; value: string | number } | { ok: false; error: string };

interface Editable {
  name: string;
  type: FieldType;
  parse(value: unknown): Parsed;
}

const EDITABLE: Editable[] = [
  { name: "Description", type: "string", parse: parseDescription },
  { name: "DefaultPrice", type: "decimal", parse: (value) => parseMoney(value, "Default Price") },
  { name: "MSRP", type: "decimal", parse: (value) => parseMoney(value, "MSRP") },
  { name: "ItemStatus", type: "string", parse: parseStatus },
  { name: "ItemClass", type: "string", parse: parseItemClass },
];

/**
 * `PUT /StockItem` or `/NonStockItem`: finds the record by `id` or InventoryID, inserts it when
 * missing, and changes Description, DefaultPrice, MSRP, ItemStatus, ItemClass (other fields are
 * read-only here and ignored). Any bad value fails the whole record with 422, echoing the entity
 * with an `error` on each bad field. Fields the endpoint version lacks are ignored.
 */
export function upsertItem(request: UpsertRequest): ErpItem {
  const { store, def, major, body } = request;
  const stock = def.name === "StockItem";
  const table = stock ? store.stock : store.nonStock;
  const existing = findTarget(table, body);
  if (existing && request.ifNoneMatch?.trim() === "*") throw preconditionFailed("The record already exists.");
  if (!existing && request.ifMatch?.trim() === "*") throw preconditionFailed("The record does not exist.");

  const sent = new Map<string, BodyField>();
  const errors = new Map<string, string>();
  const changes = new Map<string, string | number>();
  const keyField = readField(body, "InventoryID", "string");
  sent.set("InventoryID", keyField);
  const key =
    keyField.sent && keyField.hasValue && typeof keyField.value === "string" ? keyField.value.trim() : "";
  if (!existing) {
    const other = stock ? store.nonStock : store.stock;
    if (key === "") errors.set("InventoryID", "'Inventory ID' cannot be empty.");
    else if (findByKey(other, key)) {
      errors.set(
        "InventoryID",
        `The inventory ID '${key}' is already used by a ${stock ? "non-stock" : "stock"} item.`,
      );
    }
  }
  for (const editable of EDITABLE) {
    if (!findField(def, editable.name, major)) continue;
    const field = readField(body, editable.name, editable.type);
    if (!field.sent || !field.hasValue) continue;
    sent.set(editable.name, field);
    const parsed = editable.parse(field.value);
    if (parsed.ok) changes.set(editable.name, parsed.value);
    else errors.set(editable.name, parsed.error);
  }
  if (errors.size > 0) throw echoErrors(request, { existing, sent, errors });

  const item = existing ?? createItem(table, { inventoryId: key, stock, now: request.now });
  if (applyChanges(item, changes) || !existing) item.lastModified = request.now;
  return item;
}

function findTarget(table: ItemTable, body: Record<string, unknown>): ErpItem | undefined {
  if (typeof body.id === "string" && body.id !== "") {
    const byId = table.byId.get(body.id.toLowerCase());
    if (!byId) throw noEntity();
    return byId;
  }
  const key = readField(body, "InventoryID", "string");
  if (key.sent && key.hasValue && typeof key.value === "string" && key.value.trim() !== "") {
    return findByKey(table, key.value.trim());
  }
  return undefined;
}

function createItem(
  table: ItemTable,
  { inventoryId, stock, now }: { inventoryId: string; stock: boolean; now: number },
): ErpItem {
  const item: ErpItem = {
    id: crypto.randomUUID(),
    inventoryId,
    description: "",
    isStockItem: stock,
    defaultPrice: 0,
    msrp: 0,
    itemClass: stock ? "STOCKITEM" : "SERVICES",
    itemStatus: "Active",
    lastModified: now,
    createdAt: now,
    warehouses: [],
  };
  insertItem(table, item);
  return item;
}

/** Returns true when any value actually changed (LastModified moves only then). */
function applyChanges(item: ErpItem, changes: Map<string, string | number>): boolean {
  let changed = false;
  const set = <K extends "description" | "defaultPrice" | "msrp" | "itemStatus" | "itemClass">(
    key: K,
    value: ErpItem[K] | undefined,
  ) => {
    if (value === undefined || item[key] === value) return;
    item[key] = value;
    changed = true;
  };
  const text = (name: string) => {
    const value = changes.get(name);
    return typeof value === "string" ? value : undefined;
  };
  const number = (name: string) => {
    const value = changes.get(name);
    return typeof value === "number" ? value : undefined;
  };
  set("description", text("Description"));
  set("defaultPrice", number("DefaultPrice"));
  set("msrp", number("MSRP"));
  set("itemStatus", text("ItemStatus"));
  set("itemClass", text("ItemClass"));
  return changed;
}

function echoErrors(
  request: UpsertRequest,
  {
    existing,
    sent,
    errors,
  }: { existing: ErpItem | undefined; sent: Map<string, BodyField>; errors: Map<string, string> },
): AcumaticaError {
  const out: Record<string, Json> = existing
    ? request.render(existing)
    : { id: crypto.randomUUID(), rowNumber: 1, note: { value: "" } };
  delete out.custom;
  for (const [name, field] of sent) {
    if (!field.sent) continue;
    const value = field.hasValue ? toJson(field.value) : null;
    const error = errors.get(name);
    out[name] = error ? { value, error } : field.hasValue ? { value } : {};
  }
  for (const [name, error] of errors) if (!sent.get(name)?.sent) out[name] = { error };
  const label = request.def.name === "StockItem" ? "Stock Item" : "Non-Stock Item";
  out.error = `${existing ? "Updating" : "Inserting"} '${label}' record raised at least one error. Please review the errors.`;
  out.custom = {};
  return new AcumaticaError(422, out);
}

/** Echoes a submitted value back as JSON (only JSON-parsed values reach here). */
function toJson(value: unknown): Json {
  if (
    value === null ||
    typeof value === "string" ||
    typeof value === "number" ||
    typeof value === "boolean"
  ) {
    return value;
  }
  return JSON.stringify(value);
}

function parseMoney(value: unknown, label: string): Parsed {
  const amount =
    typeof value === "number"
      ? value
      : typeof value === "string" && value.trim() !== ""
        ? Number(value)
        : Number.NaN;
  if (value === null) return { ok: false, error: `'${label}' cannot be empty.` };
  if (!Number.isFinite(amount))
    return { ok: false, error: `'${String(value)}' is not a valid value for '${label}'.` };
  if (amount < 0) return { ok: false, error: `The value of '${label}' must be greater than or equal to 0.` };
  if (amount > 1e12)
    return { ok: false, error: `The value of '${label}' must be less than or equal to 1000000000000.` };
  return { ok: true, value: Math.round(amount * 1_000_000) / 1_000_000 };
}

function parseDescription(value: unknown): Parsed {
  if (typeof value !== "string") return { ok: false, error: "'Description' must be text." };
  if (value.length > 256) return { ok: false, error: "'Description' cannot be longer than 256 characters." };
  return { ok: true, value };
}

function parseStatus(value: unknown): Parsed {
  const status = ITEM_STATUSES.find(
    (candidate) => typeof value === "string" && candidate.toLowerCase() === value.toLowerCase(),
  );
  return status
    ? { ok: true, value: status }
    : { ok: false, error: `'${String(value)}' is not a valid value for 'Item Status'.` };
}

function parseItemClass(value: unknown): Parsed {
  const match = ITEM_CLASSES.find(
    (name) => typeof value === "string" && name.toLowerCase() === value.toLowerCase(),
  );
  return match
    ? { ok: true, value: match }
    : { ok: false, error: "'Item Class' cannot be found in the system." };
}
