import { invalidRequest } from "./errors.ts";
import type { FieldType } from "./schema.ts";

const VALUE_TYPES: Record<FieldType, string> = {
  string: "StringValue",
  decimal: "DecimalValue",
  datetime: "DateTimeValue",
  boolean: "BooleanValue",
  guid: "GuidValue",
  int: "IntValue",
};

/** A field of a request body: absent, sent as `{}` (no value), or sent with a value. */
export type BodyField =
  | { sent: false }
  | { sent: true; hasValue: false }
  | { sent: true; hasValue: true; value: unknown };

/**
 * Request bodies are entities whose fields are `{"value": X}` wrappers; anything else fails the
 * server's deserialiser, which answers 400 with a model-state message.
 */
export function readField(body: Record<string, unknown>, name: string, type: FieldType): BodyField {
  const raw = body[name];
  if (raw === undefined) return { sent: false };
  if (typeof raw === "object" && raw !== null && !Array.isArray(raw)) {
    return "value" in raw
      ? { sent: true, hasValue: true, value: raw.value }
      : { sent: true, hasValue: false };
  }
  throw invalidRequest(
    `entity.${name}`,
    `Error converting value ${JSON.stringify(raw)} to type 'PX.Api.ContractBased.Models.${VALUE_TYPES[type]}'. Path '${name}'.`,
  );
}

/** Parses a JSON object body; an empty or malformed one is the 400 the real API gives. */
export function parseBody(text: string): Record<string, unknown> {
  if (text.trim() === "") throw invalidRequest("", "The request body should not be empty.");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalidRequest(
      "entity",
      `The request body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw invalidRequest("entity", "The request body must be a JSON object (an entity).");
  }
  return value as Record<string, unknown>;
}
