/**
 * Narrowing for parsed JSON, shared by every package that reads answers of unknown shape: a plain
 * object (not an array) as a string-keyed record, whose values are still `unknown` to narrow again.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A response's body as JSON: null when it is empty, undefined when it is not JSON (an HTML error page). */
export async function readJsonBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
