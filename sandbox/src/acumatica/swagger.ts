import { INQUIRIES } from "./inquiries.ts";
import type { Json } from "./json.ts";
import { type EntityDef, type FieldType, inVersion } from "./schema.ts";
import type { EndpointContext } from "./versions.ts";

/**
 * A trimmed OpenAPI 3.0.1 description of the entities the sandbox serves, shaped like the real
 * `swagger.json` (title `Default/{version}`, info.version = contract version, operationIds such as
 * `StockItem_GetList`). The real file describes ~119 entities; this one only ours.
 */
const VALUE_TYPES: Record<FieldType, string> = {
  string: "StringValue",
  decimal: "DecimalValue",
  datetime: "DateTimeValue",
  boolean: "BooleanValue",
  guid: "GuidValue",
  int: "IntValue",
};

const QUERY_PARAMETERS = ["$select", "$filter", "$expand", "$custom", "$skip", "$top"].map((name) => ({
  name,
  in: "query",
  schema: { type: name === "$skip" || name === "$top" ? "integer" : "string" },
}));

// Entity definitions differ in record type; the swagger only reads names and types.
type AnyEntity = Pick<EntityDef<never>, "name" | "keyField" | "fields" | "details">;

export function buildSwagger(endpoint: EndpointContext, serverPath: string, entities: AnyEntity[]): Json {
  const { major } = endpoint;
  const paths: Record<string, Json> = {};
  const schemas: Record<string, Json> = {
    Entity: {
      type: "object",
      properties: {
        id: { type: "string", format: "uuid" },
        rowNumber: { type: "integer", format: "int64" },
        note: { $ref: "#/components/schemas/StringValue" },
        custom: { type: "object" },
        error: { type: "string" },
        _links: { type: "object", additionalProperties: { type: "string" } },
      },
    },
  };
  for (const type of Object.values(VALUE_TYPES)) {
    schemas[type] = { type: "object", properties: { value: valueSchema(type), error: { type: "string" } } };
  }
  for (const entity of entities) {
    const ok = response(entity.name, true);
    paths[`/${entity.name}`] = {
      get: { operationId: `${entity.name}_GetList`, parameters: QUERY_PARAMETERS, responses: ok },
      put: {
        operationId: `${entity.name}_PutEntity`,
        parameters: QUERY_PARAMETERS,
        responses: response(entity.name),
      },
    };
    paths[`/${entity.name}/{ids}`] = {
      get: {
        operationId: `${entity.name}_GetByKeys`,
        parameters: [
          { name: "ids", in: "path", required: true, schema: { type: "string" } },
          ...QUERY_PARAMETERS,
        ],
        responses: response(entity.name),
      },
    };
    const properties: Record<string, Json> = {};
    for (const field of entity.fields)
      if (inVersion(field, major)) properties[field.name] = ref(VALUE_TYPES[field.type]);
    for (const detail of entity.details) {
      if (inVersion(detail, major)) properties[detail.name] = { type: "array", items: { type: "object" } };
    }
    schemas[entity.name] = entitySchema(properties);
  }
  for (const inquiry of INQUIRIES) {
    if (!inVersion(inquiry, major)) continue;
    paths[`/${inquiry.name}`] = {
      put: {
        operationId: `${inquiry.name}_PutEntity`,
        parameters: QUERY_PARAMETERS,
        responses: response(inquiry.name),
      },
    };
    const rowName = `${inquiry.name}${inquiry.detail}Row`;
    const rowProperties: Record<string, Json> = {};
    for (const field of inquiry.rowFieldTypes(major))
      rowProperties[field.name] = ref(VALUE_TYPES[field.type]);
    schemas[rowName] = entitySchema(rowProperties);
    const properties: Record<string, Json> = {};
    for (const param of inquiry.params) properties[param.name] = ref(VALUE_TYPES[param.type]);
    properties[inquiry.detail] = { type: "array", items: ref(rowName) };
    schemas[inquiry.name] = entitySchema(properties);
  }
  return {
    openapi: "3.0.1",
    info: { title: `${endpoint.name}/${endpoint.version}`, version: String(endpoint.contract) },
    servers: [{ url: `${serverPath}/entity/${endpoint.name}/${endpoint.version}` }],
    paths,
    components: { schemas },
  };
}

/** `GET /entity/swagger.json`: the instance itself (sign-in, sign-out, version). */
export function buildInstanceSwagger(serverPath: string): Json {
  const noContent = { "204": { description: "No Content" } };
  return {
    openapi: "3.0.1",
    info: { title: "Acumatica ERP instance", version: "1" },
    servers: [{ url: `${serverPath}/entity` }],
    paths: {
      "/auth/login": { post: { operationId: "Auth_Login", responses: noContent } },
      "/auth/logout": { post: { operationId: "Auth_Logout", responses: noContent } },
      "/": { get: { operationId: "Version_Get", responses: { "200": { description: "OK" } } } },
    },
  };
}

function ref(name: string): Json {
  return { $ref: `#/components/schemas/${name}` };
}

function entitySchema(properties: Record<string, Json>): Json {
  return { allOf: [ref("Entity"), { type: "object", properties }] };
}

function response(name: string, list = false): Json {
  const schema = list ? { type: "array", items: ref(name) } : ref(name);
  return { "200": { description: "OK", content: { "application/json": { schema } } } };
}

function valueSchema(type: string): Json {
  if (type === "DecimalValue") return { type: "number", format: "double" };
  if (type === "DateTimeValue") return { type: "string", format: "date-time" };
  if (type === "BooleanValue") return { type: "boolean" };
  if (type === "GuidValue") return { type: "string", format: "uuid" };
  if (type === "IntValue") return { type: "integer", format: "int32" };
  return { type: "string" };
}
