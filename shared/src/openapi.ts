import type { JsonSchema } from "@valibot/to-json-schema";
import * as v from "valibot";
import { contract, type Endpoint, type HttpMethod, takesIdempotencyKey } from "./contract.ts";
import { COMPONENT_PREFIX, isSideIndependent, toOpenApiComponents, toOpenApiSchema } from "./json-schema.ts";
import { answerKeys, errorResponses, type OpenApiResponse } from "./openapi-answers.ts";
import {
  JOB_EVENTS_PATH,
  jobEventsOperation,
  outsideSchemas,
  STRIPE_WEBHOOK_PATH,
  stripeWebhookOperation,
} from "./openapi-outside.ts";
import * as auth from "./schemas/auth.ts";
import * as billing from "./schemas/billing.ts";
import { STRIPE_WEBHOOK_EVENTS } from "./schemas/billing.ts";
import * as common from "./schemas/common.ts";
import * as connections from "./schemas/connections.ts";
import * as dashboard from "./schemas/dashboard.ts";
import * as drift from "./schemas/drift.ts";
import * as history from "./schemas/history.ts";
import * as jobs from "./schemas/jobs.ts";
import * as mapping from "./schemas/mapping.ts";
import * as products from "./schemas/products.ts";
import * as schedules from "./schemas/schedules.ts";
import * as settings from "./schemas/settings.ts";
import * as system from "./schemas/system.ts";

type Method = Lowercase<HttpMethod>;
type JsonContent = { "application/json": { schema: JsonSchema } };

export interface OpenApiParameter {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface OpenApiOperation {
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  security?: Record<string, string[]>[];
  parameters?: OpenApiParameter[];
  requestBody?: { required: boolean; content: JsonContent };
  responses: Record<string, OpenApiResponse>;
}

type SecurityScheme =
  | { type: "http"; scheme: "bearer"; bearerFormat: "JWT"; description: string }
  | { type: "apiKey"; in: "query"; name: string; description: string };

export interface OpenApiDocument {
  openapi: "3.1.0";
  info: { title: string; version: string; summary: string; description: string };
  servers: { url: string; description: string }[];
  security: Record<string, string[]>[];
  tags: { name: string; description: string }[];
  paths: Record<string, Partial<Record<Method, OpenApiOperation>>>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: Record<string, SecurityScheme>;
  };
}

const BEARER = "bearerAuth";
const QUERY_TOKEN = "queryToken";

/** Tags by a path's first segment, in the order the reference shows them. */
const TAGS: Record<string, { name: string; description: string }> = {
  health: { name: "System", description: "Health and, in sandbox mode, the demo connection." },
  sandbox: { name: "System", description: "Health and, in sandbox mode, the demo connection." },
  auth: { name: "Authentication", description: "Accounts, sign-in and Bearer tokens." },
  users: { name: "Connections", description: "The Shopify and Acumatica connections and their tests." },
  subscriptions: { name: "Subscriptions", description: "Plans and the Stripe subscription." },
  shopify: { name: "Products", description: "The cached Shopify and Acumatica catalogs and their pulls." },
  acumatica: { name: "Products", description: "The cached Shopify and Acumatica catalogs and their pulls." },
  mapping: { name: "Mapping", description: "Which Shopify variant each Acumatica item feeds, and syncs." },
  "mapping-schedule": { name: "Schedules", description: "Syncs that run on their own, at set times." },
  settings: { name: "Settings", description: "Which ERP prices and quantities go to Shopify." },
  "execution-history": {
    name: "Execution history",
    description: "Every sync run and each mapping's outcome.",
  },
  jobs: {
    name: "Jobs",
    description: "Long work (pulls, auto mapping, many-mapping syncs) and its progress.",
  },
  webhooks: { name: "Webhooks", description: "Calls from Stripe." },
  drift: { name: "Drift", description: "What differs between Shopify and the ERP, and fixing it." },
  "drift.csv": { name: "Drift", description: "What differs between Shopify and the ERP, and fixing it." },
  dashboard: { name: "Dashboard", description: "Whether the store is in sync, in one answer." },
};

const DESCRIPTION = [
  "Keeps a Shopify store's prices and stock in line with an Acumatica ERP.",
  "",
  "Every call but sign-in, registration, token renewal and health sends `Authorization: Bearer <token>`. " +
    "Products, mapping, schedules and execution history also need an active or trialing subscription " +
    "(otherwise 403).",
  "",
  "A success answers `{ data, message? }` (execution history and the Stripe webhook answer at the top " +
    "level); a failure answers `{ message, code, errors? }`, `errors` listing `{ path, message }` per " +
    "field for bad input. Long work answers a job at once; follow it with `GET /jobs/{id}` or its event " +
    "stream `GET /jobs/{id}/events`.",
].join("\n");

/**
 * The OpenAPI 3.1 document of the API, generated from the contract: one operation per entry
 * (operationId = the contract key, summary and description from it, every failure it can answer),
 * plus the job event stream and Stripe's webhook. Inputs are described as a client sends them,
 * outputs as the server answers. `serverUrl` is the API's base (origin plus `/api`); by default
 * `/api`, relative to wherever the document is served.
 */
export function openApiDocument(options: { version: string; serverUrl?: string }): OpenApiDocument {
  const named = { ...namedSchemas(), ...errorSchemas(), ...outsideSchemas() };
  const paths: OpenApiDocument["paths"] = {};
  const endpoints: Record<string, Endpoint> = contract;
  for (const [name, endpoint] of Object.entries(endpoints)) {
    const path = openApiPath(endpoint.path);
    paths[path] = { ...paths[path], [methodKey(endpoint.method)]: operation(name, endpoint, named) };
  }
  paths[JOB_EVENTS_PATH] = { get: jobEventsOperation({ bearer: BEARER, queryToken: QUERY_TOKEN }) };
  paths[STRIPE_WEBHOOK_PATH] = { post: stripeWebhookOperation(STRIPE_WEBHOOK_EVENTS) };
  const usedTags = new Set(
    Object.values(paths).flatMap((item) => Object.values(item).flatMap((op) => op.tags)),
  );
  const tags = [...new Map(Object.values(TAGS).map((tag) => [tag.name, tag])).values()];
  return {
    openapi: "3.1.0",
    info: {
      title: "Stockbridge API",
      version: options.version,
      summary: "Shopify prices and stock kept in line with an Acumatica ERP.",
      description: DESCRIPTION,
    },
    servers: [{ url: options.serverUrl ?? "/api", description: "This server" }],
    security: [{ [BEARER]: [] }],
    tags: tags.filter((tag) => usedTags.has(tag.name)),
    paths,
    components: {
      schemas: referencedSchemas(paths, components(named)),
      securitySchemes: {
        [BEARER]: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description: "The token that sign-in, registration and token renewal answer.",
        },
        [QUERY_TOKEN]: {
          type: "apiKey",
          in: "query",
          name: "token",
          description: "The same token as a query parameter, for `EventSource`, which cannot send headers.",
        },
      },
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
  const parameters = [
    ...pathParameters(endpoint),
    ...queryParameters(endpoint),
    ...(takesIdempotencyKey(endpoint) ? [IDEMPOTENCY_KEY] : []),
  ];
  const body = endpoint.body;
  return {
    operationId: name,
    tags: [TAGS[endpoint.path.split("/")[1] ?? ""]?.name ?? "System"],
    summary: endpoint.summary,
    description: endpoint.description,
    // The document's default is the Bearer token; public endpoints take none.
    ...(endpoint.access === "public" ? { security: [] } : {}),
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

/** The header every signed-in write may carry (edge/src/idempotency/). */
const IDEMPOTENCY_KEY: OpenApiParameter = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "A key of your choosing (a UUID) for this request, sent again unchanged when you retry it. The first request with a key runs and its answer (2xx or 4xx) is kept 24 hours for your account; a retry with the same key, method, path and body gets that answer without running again, with `Idempotent-Replayed: true`.",
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x20-\\x7E]+$" },
};

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

/** The success answer, then every failure the endpoint can give (see `answerKeys`). */
function responses(
  endpoint: Endpoint,
  named: Record<string, v.GenericSchema>,
): OpenApiOperation["responses"] {
  if (endpoint.envelope === "csv") {
    return {
      200: {
        description: "The file: `text/csv`, sent as an attachment.",
        headers: {
          "Content-Disposition": {
            description: "`attachment` with the file's name.",
            schema: { type: "string" },
          },
        },
        content: { "text/csv": { schema: { type: "string" } } },
      },
      ...errorResponses(answerKeys(endpoint)),
    };
  }
  const output = toOpenApiSchema(endpoint.output, { side: "output", named });
  const topLevel = endpoint.envelope === "top-level";
  return {
    200: {
      description: topLevel ? "The result, at the top level." : "The result, in `data`.",
      content: json(topLevel ? output : { type: "object", properties: { data: output }, required: ["data"] }),
    },
    ...errorResponses(answerKeys(endpoint)),
  };
}

function json(schema: JsonSchema): JsonContent {
  return { "application/json": { schema } };
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
    JobRunningErrorBody: v.looseObject({
      message,
      code,
      jobId: v.pipe(v.string(), v.description("The running job: follow it with GET /jobs/{id}.")),
    }),
  };
}

/**
 * Each named schema as a component. `Job` is documented by `TypedJob`: the same fields, with
 * `result` typed by `kind` (one of the per-kind job components, told apart by `kind`).
 */
function components(named: Record<string, v.GenericSchema>): Record<string, JsonSchema> {
  const converted = toOpenApiComponents(named);
  return { ...converted, Job: toOpenApiSchema(jobs.TypedJobSchema, { side: "output", named }) };
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
    drift,
    dashboard,
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
      // Shown as `Job` (see `components`): a component of its own would repeat it.
      if (value === jobs.TypedJobSchema) continue;
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
