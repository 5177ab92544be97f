import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import {
  buildClientSchema,
  type GraphQLSchema,
  getOperationAST,
  getVariableValues,
  type IntrospectionQuery,
  isScalarType,
  Kind,
  parse,
  type ValueNode,
  validate,
} from "graphql";
import { shopifyError } from "./graphql-errors.ts";
import { type SchemaKey, versionNamed } from "./versions.ts";

/**
 * Parsed schemas, built the first time a version is served: reading one takes ~300 ms, so once per
 * version per process, and a sandbox that only serves 2026-01 never pays for the seven others.
 */
const schemas = new Map<SchemaKey, GraphQLSchema>();

export function schemaFor(key: SchemaKey): GraphQLSchema {
  let schema = schemas.get(key);
  if (!schema) {
    schema = buildClientSchema(readVendored(key), { assumeValid: true });
    strictenDecimalScalars(schema);
    schemas.set(key, schema);
  }
  return schema;
}

function readVendored(file: SchemaKey): IntrospectionQuery {
  const url = new URL(`./schemas/admin_schema_${file}.json.gz`, import.meta.url);
  const json: unknown = JSON.parse(gunzipSync(readFileSync(url)).toString("utf8"));
  return dataOf(json);
}

/** The files are `{"data": {"__schema": ...}}` as Shopify committed them. */
function dataOf(json: unknown): IntrospectionQuery {
  const data = (json as { data?: unknown }).data;
  if (typeof data !== "object" || data === null || !("__schema" in data)) {
    throw new Error("A vendored Shopify schema file is not an introspection result.");
  }
  return data as IntrospectionQuery;
}

/**
 * Introspected custom scalars accept anything; Shopify rejects a Money/Decimal that is not a
 * number, so a bad price fails at coercion (top-level errors) the way it does there.
 */
function strictenDecimalScalars(schema: GraphQLSchema) {
  for (const name of ["Money", "Decimal"]) {
    const scalar = schema.getType(name);
    if (!isScalarType(scalar)) continue;
    scalar.parseValue = (value: unknown) => decimalOrThrow(value, name);
    scalar.parseLiteral = (node: ValueNode) => {
      if (node.kind === Kind.STRING || node.kind === Kind.INT || node.kind === Kind.FLOAT) {
        return decimalOrThrow(node.value, name);
      }
      throw new TypeError(`${name} must be a decimal string.`);
    };
  }
}

function decimalOrThrow(value: unknown, name: string): string {
  const text = typeof value === "number" ? String(value) : value;
  if (typeof text === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(text)) return text.trim();
  throw new TypeError(`Invalid ${name} value: ${JSON.stringify(value)}.`);
}

/**
 * GraphQL validation messages for `query` (and, when given, its `variables`, coerced as Shopify
 * coerces them) against the schema of `version` exactly as named (no fall-forward), worded as
 * Shopify words them. Empty when the operation is valid.
 */
export function validateShopifyOperation(
  version: string,
  query: string,
  variables?: Record<string, unknown>,
): readonly string[] {
  const named = versionNamed(version);
  if (!named) return [`Unknown Shopify Admin API version "${version}".`];
  const schema = schemaFor(named.schemaKey);
  try {
    const document = parse(query);
    const errors = validate(schema, document).map((error) => shopifyError(error).message);
    const operation = getOperationAST(document);
    if (errors.length > 0 || variables === undefined || !operation) return errors;
    const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables);
    return (coerced.errors ?? []).map((error) => shopifyError(error).message);
  } catch (error) {
    return [error instanceof Error ? error.message : String(error)];
  }
}
