import type { JsonSchema } from "@valibot/to-json-schema";
import * as v from "valibot";
import { contract, type Endpoint, type HttpMethod } from "./contract.ts";
import { COMPONENT_PREFIX, isSideIndependent, toOpenApiComponents, toOpenApiSchema } from "./json-schema.ts";
import { MESSAGES } from "./messages.ts";
import * as auth from "./schemas/auth.ts";
import * as billing from "./schemas/billing.ts";
import * as common from "./schemas/common.ts";
import * as connections from "./schemas/connections.ts";
import * as history from "./schemas/history.ts";
import * as jobs from "./schemas/jobs.ts";
import * as mapping from "./schemas/mapping.ts";
import * as products from "./schemas/products.ts";
import * as schedules from "./schemas/schedules.ts";
import * as settings from "./schemas/settings.ts";
import * as system from "./schemas/system.ts";

type Method = Lowercase<HttpMethod>;
type Reference = { $ref: string };
type JsonContent = { "application/json": { schema: JsonSchema } };

export interface OpenApiParameter {
  name: string;
  in: "path" | "query";
  required: boolean;
  schema: JsonSchema;
}

export interface OpenApiResponse {
  description: string;
  content?: JsonContent;
}

export interface OpenApiOperation {
  operationId: string;
  tags: string[];
  security?: Record<string, string[]>[];
  parameters?: OpenApiParameter[];
  requestBody?: { required: boolean; content: JsonContent };
  responses: Record<string, OpenApiResponse | Reference>;
}

export interface OpenApiDocument {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  paths: Record<string, Partial<Record<Method, OpenApiOperation>>>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, OpenApiResponse>;
    securitySchemes: Record<string, { type: "http"; scheme: "bearer"; bearerFormat: "JWT" }>;
  };
}

const BEARER = "bearerAuth";

/**
 * The OpenAPI 3.1 document of the API, generated from the contract: one operation per entry
 * (operationId = the contract key), inputs described as a client sends them, outputs as the
 * server answers. `serverUrl` is the API's base (origin plus `/api`); by default `/api`, relative
 * to wherever the document is served.
 */
export function openApiDocument(options: { version: string; serverUrl?: string }): OpenApiDocument {
  const named = { ...namedSchemas(), ...errorSchemas() };
  const paths: OpenApiDocument["paths"] = {};
  const endpoints: Record<string, Endpoint> = contract;
  for (const [name, endpoint] of Object.entries(endpoints)) {
    const path = openApiPath(endpoint.path);
    paths[path] = { ...paths[path], [methodKey(endpoint.method)]: operation(name, endpoint, named) };
  }
  const responses = errorResponses();
  return {
    openapi: "3.1.0",
    info: {
      title: "Stockbridge API",
      version: options.version,
      description:
        "Keeps a Shopify store's prices and stock in line with an Acumatica ERP. Success answers " +
        "`{ data }` (execution history answers at the top level); failure answers " +
        "`{ message, code, errors? }`.",
    },
    servers: [{ url: options.serverUrl ?? "/api" }],
    paths,
    components: {
      schemas: referencedSchemas({ paths, responses }, toOpenApiComponents(named)),
      responses,
      securitySchemes: { [BEARER]: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
    },
  };
}

/** `/mapping/:id/sync` → `/mapping/{id}/sync`. */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, "{$1}");
}

/** OpenAPI keys operations by the lower-case method; `HttpMethod` is upper-case ASCII only. */
function methodKey(method: HttpMethod): Method {
  return method.toLowerCase() as Method;
}

function operation(
  name: string,
  endpoint: Endpoint,
  named: Record<string, v.GenericSchema>,
): OpenApiOperation {
  const parameters = [...pathParameters(endpoint), ...queryParameters(endpoint)];
  const body = endpoint.body;
  return {
    operationId: name,
    tags: [endpoint.path.split("/")[1] ?? "api"],
    ...(endpoint.access === "public" ? {} : { security: [{ [BEARER]: [] }] }),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body
      ? {
          requestBody: {
            // The edge reads an empty body as `{}`, so a body that accepts `{}` may be left out.
            required: !v.safeParse(body, {}).success,
            content: json(toOpenApiSchema(body, { side: "input", named })),
          },
        }
      : {}),
    responses: responses(endpoint, named),
  };
}

function pathParameters(endpoint: Endpoint): OpenApiParameter[] {
  const shape = endpoint.params ? toOpenApiSchema(endpoint.params, { side: "input" }) : {};
  const parameters: OpenApiParameter[] = [];
  for (const [, name] of endpoint.path.matchAll(/:(\w+)/g)) {
    if (!name) continue;
    parameters.push({ name, in: "path", required: true, schema: propertyOf(shape, name) });
  }
  return parameters;
}

/** Each query key as its own parameter, with the schema of the string a client sends. */
function queryParameters(endpoint: Endpoint): OpenApiParameter[] {
  if (!endpoint.query) return [];
  const shape = toOpenApiSchema(endpoint.query, { side: "input" });
  const required = new Set(shape.required);
  return Object.keys(shape.properties ?? {}).map((name) => ({
    name,
    in: "query",
    required: required.has(name),
    schema: propertyOf(shape, name),
  }));
}

function propertyOf(shape: JsonSchema, name: string): JsonSchema {
  const property = shape.properties?.[name];
  return typeof property === "object" ? property : { type: "string" };
}

/** What each endpoint can answer, as far as the contract tells: its inputs, access and path. */
function responses(
  endpoint: Endpoint,
  named: Record<string, v.GenericSchema>,
): OpenApiOperation["responses"] {
  const output = toOpenApiSchema(endpoint.output, { side: "output", named });
  const topLevel = endpoint.envelope === "top-level";
  const hasInput = Boolean(endpoint.params || endpoint.query || endpoint.body);
  return {
    200: {
      description: topLevel ? "The result." : "The result, in `data`.",
      content: json(topLevel ? output : { type: "object", properties: { data: output }, required: ["data"] }),
    },
    ...(hasInput ? { 400: response("ValidationFailed") } : {}),
    ...(endpoint.access === "public" ? {} : { 401: response("Unauthorized") }),
    ...(endpoint.access === "subscriber" ? { 403: response("SubscriptionRequired") } : {}),
    ...(endpoint.params ? { 404: response("NotFound") } : {}),
    ...(endpoint.body ? { 413: response("PayloadTooLarge") } : {}),
    default: response("Error"),
  };
}

function response(name: string): Reference {
  return { $ref: `#/components/responses/${name}` };
}

function json(schema: JsonSchema): JsonContent {
  return { "application/json": { schema } };
}

function errorResponses(): Record<string, OpenApiResponse> {
  const error = json({ $ref: `${COMPONENT_PREFIX}ErrorBody` });
  return {
    ValidationFailed: {
      description: "Bad input: `message` is the first problem, `errors` lists each one with its path.",
      content: json({ $ref: `${COMPONENT_PREFIX}ValidationErrorBody` }),
    },
    Unauthorized: { description: "No Bearer token, or an invalid or expired one.", content: error },
    SubscriptionRequired: { description: MESSAGES.access.subscriptionRequired, content: error },
    NotFound: { description: "No such row, or it belongs to another user.", content: error },
    PayloadTooLarge: { description: "The request body is over the size limit.", content: error },
    Error: {
      description: "Any other failure (409 conflict, 429 rate limited, 502 an outside system failed).",
      content: error,
    },
  };
}

/** The failure envelope every error answers (built per call: no work at import time). */
function errorSchemas(): Record<string, v.GenericSchema> {
  const FieldIssue = v.object({ path: v.string(), message: v.string() });
  const message = v.pipe(v.string(), v.description("What failed and why, for people."));
  const code = v.pipe(v.string(), v.description("A stable code for programs, e.g. VALIDATION_FAILED."));
  return {
    FieldIssue,
    // Loose: some failures add fields (a 409 for a busy job names its `jobId`).
    ErrorBody: v.looseObject({ message, code, errors: v.optional(v.array(FieldIssue)) }),
    ValidationErrorBody: v.looseObject({ message, code, errors: v.array(FieldIssue) }),
  };
}

/**
 * Every exported `XSchema` that reads the same on both sides becomes component `X`; the rest
 * (query schemas that turn strings into numbers) are inlined where they are used.
 */
function namedSchemas(): Record<string, v.GenericSchema> {
  const modules = [
    auth,
    billing,
    common,
    connections,
    history,
    jobs,
    mapping,
    products,
    schedules,
    settings,
    system,
  ];
  const named: Record<string, v.GenericSchema> = {};
  for (const module of modules) {
    for (const [exportName, value] of Object.entries(module)) {
      if (!exportName.endsWith("Schema") || !isSchema(value) || !isSideIndependent(value)) continue;
      named[exportName.slice(0, -"Schema".length)] = value;
    }
  }
  return named;
}

function isSchema(value: unknown): value is v.GenericSchema {
  return typeof value === "object" && value !== null && "kind" in value && value.kind === "schema";
}

/** Only the components something refers to, directly or through another component, by name. */
function referencedSchemas(root: unknown, schemas: Record<string, JsonSchema>): Record<string, JsonSchema> {
  const kept = new Map<string, JsonSchema>();
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const node = pending.pop();
    if (typeof node !== "object" || node === null) continue;
    for (const [key, value] of Object.entries(node)) {
      if (key !== "$ref" || typeof value !== "string") {
        pending.push(value);
        continue;
      }
      const name = value.startsWith(COMPONENT_PREFIX) ? value.slice(COMPONENT_PREFIX.length) : "";
      const schema = schemas[name];
      if (schema && !kept.has(name)) {
        kept.set(name, schema);
        pending.push(schema);
      }
    }
  }
  return Object.fromEntries([...kept].sort(([a], [b]) => a.localeCompare(b)));
}
