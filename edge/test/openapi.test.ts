import { contract } from "@stockbridge/shared";
import { describe, expect, it } from "vitest";
import { createTestApp } from "./helpers.ts";

const METHODS = ["get", "put", "post", "delete"];

describe("GET /api/openapi.json", () => {
  it("answers the OpenAPI document without a token, one operation per contract endpoint", async () => {
    const { request, config } = await createTestApp();
    const response = await request("/api/openapi.json");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    const document = await response.json();
    expect(document.openapi).toBe("3.1.0");
    expect(document.info.version).toBe(config.version);
    const operations = Object.values(document.paths as Record<string, Record<string, unknown>>).flatMap(
      (item) => METHODS.filter((method) => method in item),
    );
    expect(operations).toHaveLength(Object.keys(contract).length);
  });

  it("answers the same document on a second request", async () => {
    const { request } = await createTestApp();
    const first = await (await request("/api/openapi.json")).text();
    expect(await (await request("/api/openapi.json")).text()).toBe(first);
  });

  it("documents the 400 body the edge really sends for bad input", async () => {
    const { request } = await createTestApp();
    const document = await (await request("/api/openapi.json")).json();
    const documented = document.components.schemas.ValidationErrorBody;
    const issue = document.components.schemas.FieldIssue;

    const answer = await request("/api/auth/register", { body: { email: "nope" } });
    expect(answer.status).toBe(400);
    const body = await answer.json();
    for (const key of documented.required) expect(body).toHaveProperty(key);
    expect(body.errors.length).toBeGreaterThan(0);
    for (const error of body.errors) expect(Object.keys(error).sort()).toEqual([...issue.required].sort());
  });
});
