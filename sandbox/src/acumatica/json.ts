/**
 * Acumatica's JSON quirks: decimals always carry six places (`280.000000`), dates carry an offset and
 * .NET's trimmed fraction (`2017-01-07T15:22:15.11+00:00`). JSON.stringify cannot print trailing
 * zeros, so entities are built from plain values plus `Decimal` and serialised here.
 */
export class Decimal {
  constructor(readonly amount: number) {}
}

/**
 * A big array whose items are produced (as raw JSON text) only while the body is written: inquiry
 * results can hold every item of a 100,000-item catalog, so they are streamed, never built whole.
 */
export class LazyArray {
  constructor(
    readonly length: number,
    readonly item: (index: number) => string,
  ) {}
}

export type Json =
  | string
  | number
  | boolean
  | null
  | Decimal
  | LazyArray
  | Json[]
  | { [key: string]: Json | undefined };

type Segment = string | LazyArray;

export function serialize(value: Json | undefined): string {
  const segments: Segment[] = [];
  write(value ?? null, segments);
  return segments
    .map((segment) => (typeof segment === "string" ? segment : expand(segment, 0, segment.length)))
    .join("");
}

/** The same text as `serialize`, as a byte stream written in ~64 KB chunks. */
export function serializeStream(value: Json): ReadableStream<Uint8Array> {
  const segments: Segment[] = [];
  write(value, segments);
  const encoder = new TextEncoder();
  let segmentIndex = 0;
  let itemIndex = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      let chunk = "";
      while (segmentIndex < segments.length && chunk.length < 65_536) {
        const segment = segments[segmentIndex]!;
        if (typeof segment === "string") {
          chunk += segment;
          segmentIndex += 1;
          continue;
        }
        const end = Math.min(segment.length, itemIndex + 256);
        chunk += expand(segment, itemIndex, end);
        itemIndex = end;
        if (itemIndex >= segment.length) {
          segmentIndex += 1;
          itemIndex = 0;
        }
      }
      if (chunk) controller.enqueue(encoder.encode(chunk));
      if (segmentIndex >= segments.length) controller.close();
    },
  });
}

/** Items [start, end) of a lazy array, with its brackets when the range touches an end. */
function expand(array: LazyArray, start: number, end: number): string {
  if (array.length === 0) return "[]";
  const items: string[] = [];
  for (let index = start; index < end; index += 1) items.push(array.item(index));
  return `${start === 0 ? "[" : ","}${items.join(",")}${end >= array.length ? "]" : ""}`;
}

export function isStreamed(value: Json): boolean {
  if (value instanceof LazyArray) return true;
  if (Array.isArray(value)) return value.some(isStreamed);
  if (typeof value === "object" && value !== null && !(value instanceof Decimal)) {
    return Object.values(value).some((item) => item !== undefined && isStreamed(item));
  }
  return false;
}

function write(value: Json, parts: Segment[]): void {
  if (value === null) {
    parts.push("null");
  } else if (typeof value === "string") {
    parts.push(JSON.stringify(value));
  } else if (typeof value === "number") {
    parts.push(Number.isFinite(value) ? String(value) : "null");
  } else if (typeof value === "boolean") {
    parts.push(value ? "true" : "false");
  } else if (value instanceof Decimal) {
    parts.push(decimalText(value.amount));
  } else if (value instanceof LazyArray) {
    parts.push(value);
  } else if (Array.isArray(value)) {
    parts.push("[");
    value.forEach((item, index) => {
      if (index > 0) parts.push(",");
      write(item, parts);
    });
    parts.push("]");
  } else {
    parts.push("{");
    let first = true;
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue;
      if (!first) parts.push(",");
      first = false;
      parts.push(JSON.stringify(key), ":");
      write(item, parts);
    }
    parts.push("}");
  }
}

/** Six decimal places, as Acumatica prints every DecimalValue. */
export function decimalText(amount: number): string {
  return Number.isFinite(amount) ? amount.toFixed(6) : "null";
}

/** `2026-10-01T09:00:00.5+00:00`: UTC with .NET's "FFF" fraction (trailing zeros dropped). */
export function formatDateTime(epochMs: number): string {
  const iso = new Date(epochMs).toISOString(); // 2026-10-01T09:00:00.500Z
  const [whole, fraction = "000Z"] = iso.split(".");
  const digits = fraction.slice(0, 3).replace(/0+$/, "");
  return `${whole}${digits ? `.${digits}` : ""}+00:00`;
}

/** ASP.NET's cookie date: `Tue, 24-Apr-2018 00:08:57 GMT`. */
export function formatCookieDate(epochMs: number): string {
  const [weekday, day, month, year, time] = new Date(epochMs).toUTCString().replace(",", "").split(" ");
  return `${weekday}, ${day}-${month}-${year} ${time} GMT`;
}

/** Deterministic GUID-shaped id, so an item keeps its `id` across resets with the same seed. */
export function stableGuid(text: string): string {
  // Two independent 32-bit FNV-1a hashes in one pass (64 bits: no collisions at 100,000 items),
  // stretched to 128 bits with a murmur-style finaliser.
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x01000197);
  }
  const words = [a, b, mix(a ^ 0x2545f491), mix(b ^ 0x68e31da4)];
  const hex = words.map((word) => (word >>> 0).toString(16).padStart(8, "0")).join("");
  const variant = ((Number.parseInt(hex[16] ?? "0", 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function mix(value: number): number {
  let h = value;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export function randomHex(bytes: number): string {
  const buffer = new Uint8Array(bytes);
  crypto.getRandomValues(buffer);
  return Array.from(buffer, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** ASP.NET session ids are 24 characters of [a-z0-5]. */
export function randomSessionId(): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz012345";
  const buffer = new Uint8Array(24);
  crypto.getRandomValues(buffer);
  return Array.from(buffer, (byte) => alphabet[byte % alphabet.length]).join("");
}
