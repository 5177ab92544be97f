/**
 * Admin API versions. Shopify releases `YYYY-01/04/07/10` at 17:00 UTC on the 1st and supports each
 * for 12 months; a request for an expired version is served by the oldest supported one ("fall
 * forward"), and the served version is named in `X-Shopify-API-Version`.
 */

/** The real Shopify schema a version is executed against (the files in `schemas/`). */
export const SCHEMA_KEYS = [
  "2024-07",
  "2024-10",
  "2025-01",
  "2025-10",
  "2026-01",
  "2026-04",
  "2026-07",
  "2026-10",
] as const;
export type SchemaKey = (typeof SCHEMA_KEYS)[number];

export interface ApiVersion {
  /** The served version's name, e.g. "2026-01" or "unstable". */
  name: string;
  schemaKey: SchemaKey;
  /** 2026-01+: `InventoryQuantityInput.changeFromQuantity` and the `@idempotent(key:)` directive. */
  changeFromQuantity: boolean;
  /** 2026-04+: compareQuantity / ignoreCompareQuantity are gone, changeFromQuantity and @idempotent are required. */
  compareAndSwapOnly: boolean;
  /** Bulk operations of one type that may run at once (1 before 2026-01, 5 since). */
  bulkConcurrency: number;
}

const MONTHS = [1, 4, 7, 10];
const UNSTABLE_INDEX = Number.MAX_SAFE_INTEGER;

/** Quarter index (year * 4 + quarter) of a version name, "unstable" as the newest; null if malformed. */
function indexOf(name: string): number | null {
  if (name === "unstable") return UNSTABLE_INDEX;
  const match = /^(\d{4})-(\d{2})$/.exec(name);
  if (!match) return null;
  const month = Number(match[2]);
  if (!MONTHS.includes(month)) return null;
  return Number(match[1]) * 4 + (month - 1) / 3;
}

function nameOf(index: number): string {
  if (index === UNSTABLE_INDEX) return "unstable";
  const year = Math.floor(index / 4);
  const month = (index % 4) * 3 + 1;
  return `${year}-${String(month).padStart(2, "0")}`;
}

function releaseTime(index: number): number {
  return Date.UTC(Math.floor(index / 4), (index % 4) * 3, 1, 17, 0, 0);
}

/** The newest stable version released at `at`. */
function latestStableIndex(at: Date): number {
  let index = at.getUTCFullYear() * 4 + Math.floor(at.getUTCMonth() / 3);
  while (releaseTime(index) > at.getTime()) index -= 1;
  return index;
}

/** Stable versions supported at `at`, oldest first (each lives 12 months = 4 releases). */
export function supportedVersions(at: Date): string[] {
  const latest = latestStableIndex(at);
  return [latest - 3, latest - 2, latest - 1, latest].map(nameOf);
}

/**
 * What a request for `requested` is served as at `at`: itself while supported, the oldest supported
 * version once expired, the release candidate (next quarter) as itself, and null for a malformed
 * or further-future name (answered 404, like a path Shopify does not know).
 */
export function resolveServedVersion(requested: string, at: Date): ApiVersion | null {
  const index = indexOf(requested);
  if (index === null) return null;
  const latest = latestStableIndex(at);
  if (index === UNSTABLE_INDEX) return describe(index);
  if (index > latest + 1) return null;
  return describe(Math.max(index, latest - 3));
}

/** A version exactly as named, without falling forward (for validating a connector's queries). */
export function versionNamed(name: string): ApiVersion | null {
  const index = indexOf(name);
  return index === null ? null : describe(index);
}

const V2026_01 = 2026 * 4;
const V2026_04 = 2026 * 4 + 1;

function describe(index: number): ApiVersion {
  return {
    name: nameOf(index),
    schemaKey: schemaKeyOf(index),
    changeFromQuantity: index >= V2026_01,
    compareAndSwapOnly: index >= V2026_04,
    bulkConcurrency: index >= V2026_01 ? 5 : 1,
  };
}

/**
 * The newest schema file not newer than the version: each version is its own file where Shopify
 * published one. 2025-04 and 2025-07 have none (their inventory/variant shapes equal 2025-01's, see
 * shopify.md), versions before 2024-07 (only served when the release date is set far back) use the
 * oldest file, and the release candidate or "unstable" past 2026-10 use the newest.
 */
function schemaKeyOf(index: number): SchemaKey {
  let key: SchemaKey = SCHEMA_KEYS[0];
  for (const candidate of SCHEMA_KEYS) {
    const candidateIndex = indexOf(candidate);
    if (candidateIndex !== null && candidateIndex <= index) key = candidate;
  }
  return key;
}
