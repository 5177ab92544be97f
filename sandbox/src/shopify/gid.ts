import { GraphQLError } from "graphql";

/** Shopify global ids: `gid://shopify/ProductVariant/123` (some carry a query, e.g. InventoryLevel). */
export function gid(type: string, id: number | string, query?: Record<string, string | number>): string {
  const base = `gid://shopify/${type}/${id}`;
  if (!query) return base;
  const search = Object.entries(query)
    .map(([key, value]) => `${key}=${encodeURIComponent(String(value))}`)
    .join("&");
  return `${base}?${search}`;
}

export interface ParsedGid {
  type: string;
  id: number;
  query: URLSearchParams;
}

export function parseGid(value: string): ParsedGid | null {
  const match = /^gid:\/\/shopify\/([A-Za-z]+)\/(\d+)(?:\?(.*))?$/.exec(value);
  if (!match) return null;
  return { type: match[1]!, id: Number(match[2]), query: new URLSearchParams(match[3] ?? "") };
}

/**
 * The numeric id of a gid of `type`, or null when it names another type or no record. A malformed
 * id is an argument error at Shopify (top-level `errors[]`), not a "not found".
 */
export function idOf(value: string, type: string): number | null {
  const parsed = parseGid(value);
  if (!parsed) throw invalidGlobalId(value);
  return parsed.type === type ? parsed.id : null;
}

function invalidGlobalId(value: string): GraphQLError {
  return new GraphQLError(`Invalid global id '${value}'`, {
    extensions: { code: "argumentLiteralsIncompatible", typeName: "CoercionError" },
  });
}

/** Money is a decimal string with two places, e.g. "29.99" (cents keep it exact). */
export function money(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** Cents from a Money input ("12.5", 12.5); null when it is not a decimal number. */
export function centsOf(value: unknown): number | null {
  const text = typeof value === "number" ? String(value) : value;
  if (typeof text !== "string" || !/^-?\d+(\.\d+)?$/.test(text.trim())) return null;
  return Math.round(Number(text) * 100);
}

/** Shopify's DateTime: ISO 8601 in UTC without milliseconds. */
export function dateTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}
