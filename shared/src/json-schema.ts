import {
  type ConversionConfig,
  type JsonSchema,
  type OverrideActionContext,
  type OverrideSchemaContext,
  toJsonSchema,
  toJsonSchemaDefs,
} from "@valibot/to-json-schema";
import * as v from "valibot";

/** Which side of a schema to describe: what a client sends, or what the server answers. */
export type SchemaSide = "input" | "output";

type AnySchema = v.BaseSchema<unknown, unknown, v.BaseIssue<unknown>>;

export const COMPONENT_PREFIX = "#/components/schemas/";

/**
 * Converts a valibot schema to an OpenAPI 3.1 schema (JSON Schema 2020-12). Named schemas become
 * `$ref`s to `#/components/schemas/<name>`. What JSON Schema cannot say (transforms, `check`)
 * never fails the conversion: a transform ends the input side, a check's message becomes the
 * description, and the server still validates everything.
 */
export function toOpenApiSchema(
  schema: AnySchema,
  options: { side: SchemaSide; named?: Record<string, AnySchema> },
): JsonSchema {
  const {
    $schema: _dialect,
    $defs: _definitions,
    ...rest
  } = toJsonSchema(schema, {
    ...conversion(options.side),
    definitions: options.named,
  });
  return rest;
}

/** The components for `named`, each converted once with references to the others. */
export function toOpenApiComponents(named: Record<string, AnySchema>): Record<string, JsonSchema> {
  // Only side-independent schemas are named (see `isSideIndependent`), so either side will do.
  return toJsonSchemaDefs(named, conversion("output"));
}

/**
 * True when a schema reads the same on both sides. Only those may become shared components: a
 * schema with a transform (query numbers read from strings) is inlined and described per side.
 */
export function isSideIndependent(schema: AnySchema): boolean {
  const input = JSON.stringify(toOpenApiSchema(schema, { side: "input" }));
  return input === JSON.stringify(toOpenApiSchema(schema, { side: "output" }));
}

function conversion(side: SchemaSide): ConversionConfig {
  return {
    target: "draft-2020-12",
    typeMode: side,
    // Unsupported parts are left out instead of thrown; the overrides below keep what they can.
    errorMode: "ignore",
    overrideSchema: (context) => discriminate(context) ?? requireWhatCannotBeLeftOut(context),
    overrideAction: keepWhatActionsSay,
    overrideRef: ({ referenceId }) => `${COMPONENT_PREFIX}${referenceId}`,
  };
}

/**
 * The forms' `optional(schema, "")` makes a missing field fail with the field's own message, so
 * the key is optional to valibot but required in fact. A key counts as required when the entry
 * rejects a missing value; its internal default is then not shown.
 */
function requireWhatCannotBeLeftOut({ valibotSchema, jsonSchema }: OverrideSchemaContext): JsonSchema | null {
  const entries = objectEntries(valibotSchema);
  if (!entries || !jsonSchema.properties) return null;
  const required = new Set(jsonSchema.required);
  const properties = { ...jsonSchema.properties };
  for (const [key, entry] of Object.entries(entries)) {
    if (required.has(key) || entry.async || v.safeParse(entry, undefined).success) continue;
    required.add(key);
    const property = properties[key];
    if (typeof property === "object") {
      const { default: _internal, ...rest } = property;
      properties[key] = rest;
    }
  }
  return { ...jsonSchema, properties, required: Object.keys(entries).filter((key) => required.has(key)) };
}

/**
 * A variant whose options are all components becomes OpenAPI's `oneOf` with a `discriminator`:
 * readers and generated clients tell the options apart by the key instead of trying each.
 */
function discriminate({ valibotSchema, jsonSchema }: OverrideSchemaContext): JsonSchema | null {
  if (valibotSchema.type !== "variant" || !("key" in valibotSchema) || !("options" in valibotSchema))
    return null;
  const key = valibotSchema.key;
  const options = valibotSchema.options;
  if (typeof key !== "string" || !Array.isArray(options) || !jsonSchema.oneOf) return null;
  const mapping: Record<string, string> = {};
  for (const [index, option] of options.entries()) {
    const ref = jsonSchema.oneOf[index];
    const tag = objectEntries(option)?.[key];
    if (typeof ref !== "object" || typeof ref.$ref !== "string") return null;
    if (tag?.type !== "literal" || !("literal" in tag)) return null;
    mapping[String(tag.literal)] = ref.$ref;
  }
  // OpenAPI's keyword, not JSON Schema's: the converter's type does not know it.
  const discriminated: JsonSchema & { discriminator: object } = {
    ...jsonSchema,
    discriminator: { propertyName: key, mapping },
  };
  return discriminated;
}

/** A valibot object schema's entries; the `*object*` schemas keep every entry as a schema. */
function objectEntries(schema: AnySchema): Record<string, AnySchema> | null {
  if (!schema.type.endsWith("object") && schema.type !== "object_with_rest") return null;
  if (!("entries" in schema) || typeof schema.entries !== "object" || schema.entries === null) return null;
  return schema.entries as Record<string, AnySchema>;
}

/**
 * Keeps every `regex` of a pipe (the converter keeps only the first, the password rules have
 * three) and the `u` flag's patterns (JSON Schema patterns are Unicode-aware already). A
 * validation JSON Schema cannot express keeps its message as the description.
 */
function keepWhatActionsSay({ valibotAction, jsonSchema, errors }: OverrideActionContext): JsonSchema | null {
  if (valibotAction.type === "regex" && "requirement" in valibotAction) {
    const pattern = valibotAction.requirement;
    if (!(pattern instanceof RegExp)) return null;
    if (pattern.flags.replace("u", "") !== "") {
      // Other flags change the meaning (`i`, `m`, `s`): say it in words instead of a wrong pattern.
      const { pattern: converted, ...rest } = jsonSchema;
      return withDescription(converted === pattern.source ? rest : jsonSchema, messageOf(valibotAction));
    }
    if (jsonSchema.pattern === undefined || jsonSchema.pattern === pattern.source) {
      return { ...jsonSchema, pattern: pattern.source };
    }
    return { ...jsonSchema, allOf: [...(jsonSchema.allOf ?? []), { pattern: pattern.source }] };
  }
  if (errors && valibotAction.kind === "validation") {
    return withDescription(jsonSchema, messageOf(valibotAction));
  }
  return null;
}

function messageOf(action: OverrideActionContext["valibotAction"]): string | undefined {
  return "message" in action && typeof action.message === "string" ? action.message : undefined;
}

function withDescription(jsonSchema: JsonSchema, text: string | undefined): JsonSchema {
  if (!text) return { ...jsonSchema };
  const description = jsonSchema.description ? `${jsonSchema.description} ${text}` : text;
  return { ...jsonSchema, description };
}
