import { invalidRequest, parameterEmpty, parameterMissing, parameterUnknown } from "./errors.ts";
import type { FormObject, FormValue } from "./form.ts";

/** Metadata as sent: `null` clears everything (`metadata=`), an empty value removes that key. */
export type MetadataUpdate = Record<string, string> | null;

/**
 * Reads one level of Stripe parameters with Stripe's validation messages. Built with the list of
 * parameter names the endpoint knows: anything else is answered "Received unknown parameter", as
 * Stripe does, so a typo in the product's billing code fails loudly here too.
 */
export interface ParamReader {
  has(key: string): boolean;
  string(key: string): string | undefined;
  requiredString(key: string): string;
  /** `key=` (empty) means "unset" in Stripe: answered as null. */
  nullableString(key: string): string | null | undefined;
  integer(key: string, range?: { min?: number; max?: number }): number | undefined;
  /** Like integer, but `key=` answers null (unset). */
  nullableInteger(key: string, range?: { min?: number; max?: number }): number | null | undefined;
  boolean(key: string): boolean | undefined;
  oneOf<T extends string>(key: string, values: readonly T[]): T | undefined;
  strings(key: string): string[] | undefined;
  metadata(key: string): MetadataUpdate | undefined;
  object(key: string, allowed: readonly string[]): ParamReader | undefined;
  list(key: string, allowed: readonly string[]): ParamReader[] | undefined;
  /** The full bracket name of a key, for error messages (`line_items[0][price]`). */
  name(key: string): string;
}

export function readParams(tree: FormObject, allowed: readonly string[], prefix = ""): ParamReader {
  const name = (key: string) => (prefix ? `${prefix}[${key}]` : key);
  const known = new Set([...allowed, ...(prefix ? [] : ["expand"])]);
  for (const key of Object.keys(tree)) {
    if (!known.has(key)) throw parameterUnknown(name(key));
  }

  function scalar(key: string): string | undefined {
    const value = tree[key];
    if (value === undefined) return undefined;
    if (typeof value !== "string")
      throw invalidRequest(`Invalid value for ${name(key)}: expected a string.`, { param: name(key) });
    return value;
  }

  function integer(key: string, range: { min?: number; max?: number } = {}): number | undefined {
    const raw = scalar(key);
    if (raw === undefined) return undefined;
    if (raw === "") throw parameterEmpty(name(key));
    if (!/^-?\d+$/.test(raw))
      throw invalidRequest(`Invalid integer: ${raw}`, {
        param: name(key),
        code: "parameter_invalid_integer",
      });
    const value = Number(raw);
    if ((range.min !== undefined && value < range.min) || (range.max !== undefined && value > range.max)) {
      throw invalidRequest(
        `Invalid ${name(key)}: must be between ${range.min ?? "-infinity"} and ${range.max ?? "infinity"}`,
        { param: name(key) },
      );
    }
    return value;
  }

  return {
    name,
    has: (key) => tree[key] !== undefined,
    string(key) {
      const value = scalar(key);
      if (value === "") throw parameterEmpty(name(key));
      return value;
    },
    requiredString(key) {
      const value = scalar(key);
      if (value === undefined) throw parameterMissing(name(key));
      if (value === "") throw parameterEmpty(name(key));
      return value;
    },
    nullableString(key) {
      const value = scalar(key);
      return value === "" ? null : value;
    },
    integer,
    nullableInteger(key, range) {
      return scalar(key) === "" ? null : integer(key, range);
    },
    boolean(key) {
      const value = scalar(key);
      if (value === undefined) return undefined;
      if (value === "true") return true;
      if (value === "false") return false;
      throw invalidRequest(`Invalid boolean: ${value}`, {
        param: name(key),
        code: "parameter_invalid_boolean",
      });
    },
    oneOf<T extends string>(key: string, values: readonly T[]): T | undefined {
      const value = scalar(key);
      if (value === undefined) return undefined;
      if (!values.includes(value as T)) {
        throw invalidRequest(`Invalid ${name(key)}: must be one of ${values.join(", ")}`, {
          param: name(key),
        });
      }
      return value as T;
    },
    strings(key) {
      const value = tree[key];
      if (value === undefined) return undefined;
      if (value === "") return [];
      if (typeof value === "string") {
        throw invalidRequest(`Invalid array for ${name(key)}: send ${name(key)}[]=value`, {
          param: name(key),
        });
      }
      return listEntries(value, name(key)).map(([index, entry]) => {
        if (typeof entry !== "string")
          throw invalidRequest(`Invalid value for ${name(key)}[${index}]`, { param: name(key) });
        return entry;
      });
    },
    metadata(key) {
      const value = tree[key];
      if (value === undefined) return undefined;
      if (value === "") return null;
      if (typeof value === "string")
        throw invalidRequest(`Invalid object for ${name(key)}`, { param: name(key) });
      return readMetadata(value, name(key));
    },
    object(key, nestedAllowed) {
      const value = tree[key];
      if (value === undefined) return undefined;
      if (typeof value === "string") {
        if (value === "") return readParams({}, nestedAllowed, name(key));
        throw invalidRequest(`Invalid object for ${name(key)}`, { param: name(key) });
      }
      return readParams(value, nestedAllowed, name(key));
    },
    list(key, nestedAllowed) {
      const value = tree[key];
      if (value === undefined) return undefined;
      if (value === "") return [];
      if (typeof value === "string")
        throw invalidRequest(`Invalid array for ${name(key)}`, { param: name(key) });
      return listEntries(value, name(key)).map(([index, entry]) => {
        const entryName = `${name(key)}[${index}]`;
        if (typeof entry === "string")
          throw invalidRequest(`Invalid object for ${entryName}`, { param: entryName });
        return readParams(entry, nestedAllowed, entryName);
      });
    },
  };
}

/** A form "list" is an object keyed by indices; Stripe rejects any other key in it. */
function listEntries(value: FormObject, param: string): [string, FormValue][] {
  const entries = Object.entries(value);
  for (const [index] of entries) {
    if (!/^\d+$/.test(index))
      throw invalidRequest(`Invalid array for ${param}: unexpected key ${index}`, { param });
  }
  return entries.sort((a, b) => Number(a[0]) - Number(b[0]));
}

function readMetadata(value: FormObject, param: string): Record<string, string> {
  const entries = Object.entries(value);
  if (entries.length > 50) throw invalidRequest("You can specify up to 50 keys in metadata.", { param });
  const result: Record<string, string> = {};
  for (const [key, entry] of entries) {
    if (typeof entry !== "string")
      throw invalidRequest(`Invalid value for ${param}[${key}]: metadata values are strings.`, { param });
    if (key.length > 40)
      throw invalidRequest(`Metadata keys can have up to 40 characters: ${key}`, { param });
    if (entry.length > 500) {
      throw invalidRequest(
        `Metadata values can have up to 500 characters, but you passed in a value that is ${entry.length} characters. Invalid value: ${entry.slice(0, 20)}...`,
        { param },
      );
    }
    result[key] = entry;
  }
  return result;
}

/** Stripe's metadata update rule: keys merge in, "" removes a key, a null update clears all. */
export function applyMetadata(
  current: Record<string, string>,
  update: MetadataUpdate | undefined,
): Record<string, string> {
  if (update === undefined) return current;
  if (update === null) return {};
  const next = { ...current };
  for (const [key, value] of Object.entries(update)) {
    if (value === "") delete next[key];
    else next[key] = value;
  }
  return next;
}
