import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import {
  buildClientSchema,
  type GraphQLSchema,
  type IntrospectionQuery,
  isScalarType,
  Kind,
  parse,
  type ValueNode,
  validate,
} from "graphql";
import { shopifyError } from "./graphql-errors.ts";
import { patchFor2026_01, patchFor2026_04 } from "./schema-patches.ts";
import { type SchemaKey, versionNamed } from "./versions.ts";

/** Parsed schemas, built on first use: reading one takes ~300 ms, so once per version per process. */
const schemas = new Map<SchemaKey, GraphQLSchema>();

export function schemaFor(key: SchemaKey): GraphQLSchema {
  let schema = schemas.get(key);
  if (!schema) {
    schema = buildClientSchema(introspectionFor(key), { assumeValid: true });
    strictenDecimalScalars(schema);
    schemas.set(key, schema);
  }
  return schema;
}

function introspectionFor(key: SchemaKey): IntrospectionQuery {
  if (key === "2026-01") return patchFor2026_01(readVendored("2025-01"));
  if (key === "2026-04") return patchFor2026_04(readVendored("2025-01"));
  return readVendored(key);
}

function readVendored(file: "2024-07" | "2024-10" | "2025-01"): IntrospectionQuery {
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
 * GraphQL validation messages for `query` against the schema of `version` exactly as named (no
 * fall-forward), worded as Shopify words them. Empty when the operation is valid.
 */
export function validateShopifyOperation(version: string, query: string): readonly string[] {
  const named = versionNamed(version);
  if (!named) return [`Unknown Shopify Admin API version "${version}".`];
  const schema = schemaFor(named.schemaKey);
  try {
    return validate(schema, parse(query)).map((error) => shopifyError(error).message);
  } catch (error) {
    return [error instanceof Error ? error.message : String(error)];
  }
}
