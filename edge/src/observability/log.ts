/** One JSON object per line: what Deno Deploy's log view and any log shipper read without parsing rules. */
export type LogLevel = "info" | "warn" | "error";

/** Context for a line; `requestId` and `userId` where known. Values of secret-looking keys are never written. */
export interface LogFields {
  requestId?: string;
  userId?: string;
  [name: string]: unknown;
}

export interface Logger {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

// Keys whose values are credentials wherever they appear (a field, or a nested object's key).
const SECRET_KEY = /pass(word)?|secret|token|authorization|cookie|api[-_]?key|credential|private[-_]?key/i;
// A bearer token inside free text (an error message quoting a header).
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g;

const RANK: Record<LogLevel, number> = { info: 0, warn: 1, error: 2 };
export const LOG_LEVELS = Object.keys(RANK) as LogLevel[];

/**
 * Writes `{ time, level, message, ...fields }` as one line through `write` (main.ts: stdout for info,
 * stderr for warn and error), from `minimum` up (LOG_LEVEL: `warn` leaves out the access log).
 * Field values that are not plain data become text; an Error becomes its message, never its stack.
 */
export function createJsonLogger(
  write: (line: string, level: LogLevel) => void,
  now: () => Date = () => new Date(),
  minimum: LogLevel = "info",
): Logger {
  const emit = (level: LogLevel, message: string, fields: LogFields = {}) => {
    if (RANK[level] < RANK[minimum]) return;
    const entry = { time: now().toISOString(), level, message: scrubText(message), ...scrub(fields) };
    write(JSON.stringify(entry), level);
  };
  return {
    info: (message, fields) => emit("info", message, fields),
    warn: (message, fields) => emit("warn", message, fields),
    error: (message, fields) => emit("error", message, fields),
  };
}

function scrub(fields: Record<string, unknown>, depth = 0): Record<string, unknown> {
  const clean: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    clean[key] = SECRET_KEY.test(key) ? "[redacted]" : scrubValue(value, depth);
  }
  return clean;
}

function scrubValue(value: unknown, depth: number): unknown {
  if (typeof value === "string") return scrubText(value);
  if (typeof value === "number" || typeof value === "boolean" || value === null) return value;
  if (value instanceof Error) return scrubText(value.message);
  if (depth < 3 && Array.isArray(value)) return value.map((item) => scrubValue(item, depth + 1));
  if (depth < 3 && typeof value === "object") return scrub(value as Record<string, unknown>, depth + 1);
  return scrubText(String(value));
}

function scrubText(text: string): string {
  return text.replace(BEARER, "$1 [redacted]");
}
