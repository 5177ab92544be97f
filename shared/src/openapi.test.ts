import { describe, expect, it } from "vitest";
import { PASSWORD_MIN_LENGTH } from "./constants.ts";
import { contract } from "./contract.ts";
import { MESSAGES } from "./messages.ts";
import { type OpenApiDocument, type OpenApiOperation, openApiDocument, openApiPath } from "./openapi.ts";

const METHODS = ["get", "put", "post", "delete"] as const;

function operations(document: OpenApiDocument) {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const operation = item[method];
      return operation ? [{ path, method, operation }] : [];
    }),
  );
}

function operationOf(document: OpenApiDocument, name: keyof typeof contract): OpenApiOperation {
  const endpoint = contract[name];
  const operation = document.paths[openApiPath(endpoint.path)]?.[lower(endpoint.method)];
  if (!operation) throw new Error(`no operation for ${name}`);
  return operation;
}

function lower(method: string) {
  return method.toLowerCase() as (typeof METHODS)[number];
}

/** Follows a local `#/...` JSON pointer through the document; undefined when it leads nowhere. */
function resolve(document: unknown, ref: string): unknown {
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = document;
  for (const part of ref.slice(2).split("/")) {
    const key = part.replaceAll("~1", "/").replaceAll("~0", "~");
    if (typeof node !== "object" || node === null || !(key in node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** A schema or response with its `$ref` followed (one level is all the document uses at a time). */
function deref(document: unknown, node: unknown): Record<string, unknown> {
  let current = node;
  while (typeof current === "object" && current !== null && "$ref" in current) {
    current = resolve(document, String(current.$ref));
  }
  if (typeof current !== "object" || current === null) throw new Error("dangling reference");
  return current as Record<string, unknown>;
}

/** The JSON schema a response (or its reference) answers with, followed through `$ref`s. */
function answered(document: unknown, response: unknown): Record<string, unknown> {
  const content = deref(document, response).content;
  return deref(document, deref(document, deref(document, content)["application/json"]).schema);
}

function propertiesOf(schema: Record<string, unknown>): Record<string, unknown> {
  return deref(undefined, schema.properties);
}

function allRefs(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(allRefs);
  if (typeof node !== "object" || node === null) return [];
  return Object.entries(node).flatMap(([key, value]) =>
    key === "$ref" && typeof value === "string" ? [value] : allRefs(value),
  );
}

describe("openApiDocument", () => {
  it("has one operation per contract endpoint, with its method, path and key as operationId", () => {
    const document = openApiDocument({ version: "1.2.3" });
    const found = operations(document);
    // Beside the contract: the job event stream and Stripe's webhook, which the edge registers itself.
    expect(found.map((entry) => entry.operation.operationId).sort()).toEqual(
      [...Object.keys(contract), "jobEvents", "stripeWebhook"].sort(),
    );
    for (const [name, endpoint] of Object.entries(contract)) {
      const matches = found.filter((entry) => entry.operation.operationId === name);
      expect(matches).toHaveLength(1);
      expect(matches[0]?.method).toBe(lower(endpoint.method));
      expect(matches[0]?.path).toBe(`${endpoint.path.replace(/:(\w+)/g, "{$1}")}`);
    }
    expect(document.paths["/mapping/{id}/sync"]?.post?.operationId).toBe("syncMapping");
  });

  it("asks a subscriber endpoint for a Bearer token and documents 401 and the subscription 403", () => {
    const document = openApiDocument({ version: "1.2.3" });
    const products = operationOf(document, "shopifyProducts");
    // The document's default security applies: the operation names none of its own.
    expect(document.security).toEqual([{ bearerAuth: [] }]);
    expect(products.security).toBeUndefined();
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({
      type: "http",
      scheme: "bearer",
      bearerFormat: "JWT",
    });
    expect(deref(document, products.responses[401]).description).toBeTruthy();
    expect(deref(document, products.responses[403]).description).toBe(MESSAGES.access.subscriptionRequired);
    expect(MESSAGES.access.subscriptionRequired).toBe("A subscription is required to access this service.");
  });

  it("documents 401 but no 403 for a signed-in endpoint, and neither for a public one", () => {
    const document = openApiDocument({ version: "1.2.3" });
    const me = operationOf(document, "me");
    expect(me.security).toBeUndefined();
    expect(Object.keys(me.responses)).toContain("401");
    expect(Object.keys(me.responses)).not.toContain("403");
    const health = operationOf(document, "health");
    expect(health.security).toEqual([]);
    expect(Object.keys(health.responses)).not.toContain("401");
  });

  it("describes the 400 body the edge sends: message, code and the list of field errors", () => {
    const document = openApiDocument({ version: "1.2.3" });
    const body = answered(document, operationOf(document, "register").responses[400]);
    expect(body.required).toEqual(["message", "code", "errors"]);
    const issue = deref(document, deref(document, propertiesOf(body).errors).items);
    expect(issue.required).toEqual(["path", "message"]);
  });

  it("carries register's required fields and the password and email rules", () => {
    const document = openApiDocument({ version: "1.2.3" });
    const register = operationOf(document, "register");
    expect(register.requestBody?.required).toBe(true);
    const body = deref(document, register.requestBody?.content["application/json"].schema);
    // The form's empty-string defaults are an internal trick: the keys are required in fact.
    expect(body.required).toEqual(["name", "email", "password"]);
    const properties = propertiesOf(body);
    const password = deref(document, properties.password);
    expect(password).toMatchObject({ type: "string", minLength: PASSWORD_MIN_LENGTH, maxLength: 128 });
    const extra = Array.isArray(password.allOf) ? password.allOf : [];
    const patterns = [password.pattern, ...extra.map((schema) => deref(document, schema).pattern)];
    expect(patterns).toEqual(expect.arrayContaining(["[a-z]", "[A-Z]", "[0-9]"]));
    const email = deref(document, properties.email);
    expect(email).toMatchObject({ type: "string", maxLength: 254 });
    expect(new RegExp(String(email.pattern)).test("ann@example.com")).toBe(true);
    expect(new RegExp(String(email.pattern)).test("not-an-email")).toBe(false);
  });

  it("lists query keys as separate optional parameters described as the strings a client sends", () => {
    const document = openApiDocument({ version: "1.2.3" });
    const parameters = operationOf(document, "shopifyProducts").parameters ?? [];
    const page = parameters.find((parameter) => parameter.name === "page");
    // `page` is read from a string through a transform: the input side is what can be described.
    expect(page).toEqual({
      name: "page",
      in: "query",
      required: false,
      schema: { type: "string", default: "1" },
    });
    const sortDirection = parameters.find((parameter) => parameter.name === "sortDirection");
    expect(sortDirection?.schema.enum).toEqual(["asc", "desc"]);
  });

  it("gives a path parameter its schema and a 404", () => {
    const document = openApiDocument({ version: "1.2.3" });
    const update = operationOf(document, "updateMapping");
    expect(update.parameters?.filter((parameter) => parameter.in === "path")).toEqual([
      { name: "id", in: "path", required: true, schema: { type: "string", minLength: 1, maxLength: 64 } },
    ]);
    expect(Object.keys(update.responses)).toContain("404");
  });

  it("offers the Idempotency-Key header, with its 409 and 422, on signed-in writes only", () => {
    const document = openApiDocument({ version: "1.2.3" });
    const headerOf = (name: keyof typeof contract) =>
      operationOf(document, name).parameters?.find((parameter) => parameter.name === "Idempotency-Key");
    expect(headerOf("createSchedule")).toMatchObject({ in: "header", required: false });
    expect(headerOf("deleteMapping")).toMatchObject({ in: "header", required: false });
    expect(headerOf("listSchedules")).toBeUndefined();
    expect(headerOf("login")).toBeUndefined();
    // A new API token is shown once and never stored, so its answer is not kept for a repeat.
    expect(headerOf("createToken")).toBeUndefined();
    const responses = operationOf(document, "createSchedule").responses;
    expect(responses[422]?.description).toContain("Idempotency-Key");
    expect(responses[409]?.description).toContain(MESSAGES.idempotency.inProgress);
  });

  it("wraps answers in data except for execution history, which answers at the top level", () => {
    const document = openApiDocument({ version: "1.2.3" });
    const me = answered(document, operationOf(document, "me").responses[200]);
    expect(me).toMatchObject({ type: "object", required: ["data"] });
    expect(deref(document, propertiesOf(me).data)).toMatchObject({ required: ["user"] });
    const history = answered(document, operationOf(document, "executionHistory").responses[200]);
    expect(Object.keys(propertiesOf(history))).toEqual(
      expect.arrayContaining(["histories", "total", "page", "totalPages"]),
    );
  });

  it("is a structurally sound OpenAPI 3.1 document whose every $ref resolves", () => {
    const document = openApiDocument({ version: "1.2.3", serverUrl: "https://stock.example/api" });
    expect(document.openapi).toBe("3.1.0");
    expect(document.info).toMatchObject({ title: "Stockbridge API", version: "1.2.3" });
    expect(document.servers).toEqual([{ url: "https://stock.example/api", description: "This server" }]);
    expect(JSON.parse(JSON.stringify(document))).toEqual(document);
    for (const [path, item] of Object.entries(document.paths)) {
      expect(path).toMatch(/^\/[\w\-/{}.]*$/);
      for (const operation of Object.values(item)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          expect(status).toMatch(/^([1-5]\d\d|default)$/);
          expect(deref(document, response).description).toEqual(expect.any(String));
        }
        const templated = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
        const inPath = (operation.parameters ?? []).filter((parameter) => parameter.in === "path");
        expect(inPath.map((parameter) => parameter.name)).toEqual(templated);
      }
    }
    const refs = allRefs(document);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(resolve(document, ref), ref).toBeDefined();
    for (const name of Object.keys(document.components.schemas)) expect(name).toMatch(/^[\w.-]+$/);
  });
});
