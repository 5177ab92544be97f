import { isRecord } from "@stockbridge/shared";
/**
 * Narrowing for parsed JSON and other input of unknown shape: a plain object (not an array) as a
 * string-keyed record, or null. The cast is safe because every value read from the record is
 * itself `unknown` and must be narrowed again by its reader.
 */
export function record(value: unknown): Record<string, unknown> | null {
  return isRecord(value) ? value : null;
}
