/**
 * How the server matches and pages its smaller lists (mappings, schedules), for rows held in
 * memory. Pure, so tests compare it with the server's answers. The catalogs' search and sort are in
 * mirror-index.ts.
 */

/** SQLite's LIKE '%term%': case-insensitive for ASCII letters only. */
export function likeContains(text: string, term: string): boolean {
  return asciiLower(text).includes(asciiLower(term));
}

function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

export function totalPages(total: number, limit: number): number {
  return Math.ceil(total / limit);
}
