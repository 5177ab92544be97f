import * as v from "valibot";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../constants.ts";

/** Row ids are opaque strings (UUIDs). */
export const IdSchema = v.pipe(
  v.string(),
  v.minLength(1, "id is required"),
  v.maxLength(64, "id is too long"),
);
export const IdParamsSchema = v.object({ id: IdSchema });
export type IdParams = v.InferOutput<typeof IdParamsSchema>;

/** A whole number read from a query string, with a default and inclusive bounds. */
export function queryInteger(
  field: string,
  { fallback, min, max }: { fallback: number; min: number; max: number },
) {
  return v.pipe(
    v.optional(v.string(), String(fallback)),
    v.transform((text) => (text.trim() === "" ? fallback : Number(text))),
    v.number(`${field} must be a whole number`),
    v.integer(`${field} must be a whole number`),
    v.minValue(min, `${field} must be at least ${min}`),
    v.maxValue(max, `${field} must be at most ${max}`),
  );
}

export const SortDirectionSchema = v.picklist(["asc", "desc"], "sortDirection must be asc or desc");

/** C0 and C1 control characters and DEL (a tab too: no name or search needs one). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is this pattern's purpose
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Refuses control characters in text a user saves or searches with: a NUL ends a string early in
 * SQLite's text functions (an FTS query fails on it), and none belongs in a name shown on screen.
 */
export function noControlCharacters(field: string) {
  return v.check(
    (text: string) => !CONTROL_CHARACTER.test(text),
    `${field} must not contain control characters`,
  );
}

/** `page`, `limit`, `search` of every paged list. */
export const PageQueryEntries = {
  page: queryInteger("page", { fallback: 1, min: 1, max: 1_000_000 }),
  limit: queryInteger("limit", { fallback: DEFAULT_PAGE_SIZE, min: 1, max: MAX_PAGE_SIZE }),
  search: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.maxLength(200, "search must be at most 200 characters"),
      noControlCharacters("search"),
    ),
    "",
  ),
};
export const PageQuerySchema = v.object(PageQueryEntries);
export type PageQuery = v.InferOutput<typeof PageQuerySchema>;

export const OkSchema = v.object({ ok: v.literal(true) });
