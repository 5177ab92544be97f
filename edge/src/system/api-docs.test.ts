import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { contract, JOB_KINDS, MESSAGES } from "@stockbridge/shared";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../../scripts/lib.mjs";
import { createTestApp, type TestApp } from "../../testing/helpers.ts";

const METHODS = ["get", "put", "post", "delete"] as const;

interface Response {
  description: string;
  headers?: Record<string, { required?: boolean }>;
  content?: Record<string, { schema: Record<string, unknown>; example?: { message: string; code: string } }>;
}
interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  security?: unknown[];
  responses: Record<string, Response>;
}
interface Document {
  paths: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>;
  components: { schemas: Record<string, Record<string, unknown>> };
}

async function documentOf(request: TestApp["request"]) {
  const document: Document = await (await request("/api/openapi.json")).json();
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const operation = item[method];
      return operation ? [{ path, method, operation }] : [];
    }),
  );
  const byId = new Map(operations.map((entry) => [entry.operation.operationId, entry]));
  return { document, operations, byId };
}

const statuses = (operation: Operation) => Object.keys(operation.responses).map(Number);

describe("GET /api/openapi.json", () => {
  it("answers the document without a token: each contract endpoint, the job event stream and the Stripe webhook", async () => {
    const { request, config } = await createTestApp();
    const response = await request("/api/openapi.json");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    const { document, operations, byId } = await documentOf(request);
    expect(document).toMatchObject({ openapi: "3.1.0", info: { version: config.version } });
    expect(operations).toHaveLength(Object.keys(contract).length + 2);
    for (const name of Object.keys(contract)) expect(byId.has(name), name).toBe(true);
    expect(byId.get("jobEvents")).toMatchObject({ path: "/jobs/{id}/events", method: "get" });
    expect(byId.get("stripeWebhook")).toMatchObject({ path: "/webhooks/stripe", method: "post" });
  });

  it("answers the same document on a second request", async () => {
    const { request } = await createTestApp();
    const first = await (await request("/api/openapi.json")).text();
    expect(await (await request("/api/openapi.json")).text()).toBe(first);
  });

  it("gives every operation a summary and a description", async () => {
    const { request } = await createTestApp();
    const { operations } = await documentOf(request);
    for (const { operation } of operations) {
      expect(operation.summary?.trim(), operation.operationId).toBeTruthy();
      expect(operation.description?.trim(), operation.operationId).toBeTruthy();
    }
  });

  it("lists exactly the answers each kind of endpoint can give", async () => {
    const { request } = await createTestApp();
    const { byId } = await documentOf(request);
    const expected: Record<string, number[]> = {
      health: [200, 503],
      sandbox: [200, 404],
      login: [200, 400, 401, 413, 429, 503],
      settings: [200, 401, 503],
      // A signed-in write also answers 409 and 422 for its Idempotency-Key.
      syncShopifyProducts: [200, 401, 403, 404, 409, 422, 503],
      updateMapping: [200, 400, 401, 403, 404, 409, 413, 422, 503],
      syncMapping: [200, 400, 401, 403, 404, 409, 413, 422, 502, 503],
      createSubscription: [200, 400, 401, 402, 403, 409, 413, 422, 502, 503],
      jobEvents: [200, 401, 404, 503],
      stripeWebhook: [200, 400, 413, 502, 503],
    };
    for (const [name, codes] of Object.entries(expected)) {
      const operation = byId.get(name)?.operation;
      expect(operation && statuses(operation), name).toEqual(codes);
    }
  });

  it("documents each failure from the endpoint's properties", async () => {
    const { request } = await createTestApp();
    const { byId } = await documentOf(request);
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    for (const [name, endpoint] of Object.entries(contract)) {
      const responses: Operation["responses"] = byId.get(name)?.operation.responses ?? {};
      const json = (status: number) => responses[status]?.content?.["application/json"];
      const failures: readonly string[] = "failures" in endpoint ? endpoint.failures : [];
      const hasInput = "params" in endpoint || "query" in endpoint || "body" in endpoint;

      expect(json(400)?.schema, name).toEqual(hasInput ? ref("ValidationErrorBody") : undefined);
      expect(401 in responses, name).toBe(endpoint.access !== "public" || failures.includes("credentials"));
      expect(json(403)?.example, name).toEqual(
        endpoint.access === "subscriber"
          ? { message: MESSAGES.access.subscriptionRequired, code: "SUBSCRIPTION_REQUIRED" }
          : undefined,
      );
      if ("params" in endpoint) expect(responses, name).toHaveProperty("404");
      expect(413 in responses, name).toBe("body" in endpoint);
      if (failures.includes("job-running")) {
        expect(JSON.stringify(json(409)?.schema), name).toContain("JobRunningErrorBody");
      }
      if (failures.includes("rate-limited"))
        expect(responses[429]?.headers?.["Retry-After"]?.required).toBe(true);
      expect(502 in responses, name).toBe(
        failures.some((f) => ["shopify", "acumatica", "stripe"].includes(f)),
      );
      if (name !== "sandbox" && name !== "health") {
        expect(responses[503]?.description, name).toContain(MESSAGES.generic.databaseBusy);
        expect(responses[503]?.headers, name).toHaveProperty("Retry-After");
      }
      expect(responses[503]?.description.includes("Billing is not configured") ?? false, name).toBe(
        failures.includes("billing"),
      );
    }
    const jobRunning = (await (await request("/api/openapi.json")).json()).components.schemas
      .JobRunningErrorBody;
    expect(jobRunning.required).toEqual(["message", "code", "jobId"]);
  });

  it("types a job's result by its kind: one component per kind, told apart by `kind`", async () => {
    const { request } = await createTestApp();
    const { document, byId } = await documentOf(request);
    const schemas = document.components.schemas;
    const job = schemas.Job ?? {};
    const branches = (job.oneOf as { $ref: string }[]).map((branch) => branch.$ref);
    expect(job.discriminator).toEqual({
      propertyName: "kind",
      mapping: Object.fromEntries(JOB_KINDS.map((kind, index) => [kind, branches[index]])),
    });
    const results = ["ShopifyPullResult", "AcumaticaPullResult", "AutoMapResult", "SyncJobResult"];
    for (const [index, kind] of JOB_KINDS.entries()) {
      const branch = schemas[String(branches[index]).split("/").pop() ?? ""];
      expect(branch?.properties).toMatchObject({
        kind: { const: kind },
        result: { anyOf: [{ $ref: `#/components/schemas/${results[index]}` }, { type: "null" }] },
      });
    }
    expect(schemas.ShopifyPullResult?.required).toEqual(
      expect.arrayContaining(["total", "added", "updated", "removed", "mode", "servedApiVersion"]),
    );
    const answer = byId.get("job")?.operation.responses[200]?.content?.["application/json"]?.schema;
    expect(answer).toMatchObject({ properties: { data: { $ref: "#/components/schemas/Job" } } });
  });

  it("documents the job event stream as text/event-stream with its two events", async () => {
    const { request } = await createTestApp();
    const { byId } = await documentOf(request);
    const events = byId.get("jobEvents")?.operation;
    const stream = events?.responses[200]?.content?.["text/event-stream"];
    expect(stream?.schema.description).toMatch(/`progress` and `done`/);
    expect(events?.security).toEqual([{ bearerAuth: [] }, { queryToken: [] }]);
  });

  it("documents the Stripe webhook with its Stripe-Signature header and no Bearer token", async () => {
    const { request } = await createTestApp();
    const { byId } = await documentOf(request);
    const webhook = byId.get("stripeWebhook")?.operation as Operation & { parameters: unknown[] };
    expect(webhook.security).toEqual([]);
    expect(webhook.parameters).toEqual([
      expect.objectContaining({ name: "Stripe-Signature", in: "header", required: true }),
    ]);
    expect(webhook.description).toContain("customer.subscription.updated");
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

  it("answers every operation called without a token or input with a status it documents", async () => {
    const { request } = await createTestApp();
    const { operations } = await documentOf(request);
    for (const { path, method, operation } of operations) {
      const url = `/api${path.replaceAll("{id}", "0b7c1d2e")}`;
      const answer = await request(url, { method: method.toUpperCase() });
      expect(statuses(operation), `${method} ${path} answered ${answer.status}`).toContain(answer.status);
    }
  });

  it("answers every gated operation for a user without a subscription with the documented 403", async () => {
    const { request, registerUser } = await createTestApp();
    const { operations } = await documentOf(request);
    const { token } = await registerUser();
    let gated = 0;
    for (const { path, method, operation } of operations) {
      const documented = operation.responses[403]?.content?.["application/json"]?.example;
      if (!documented) continue;
      gated += 1;
      const url = `/api${path.replaceAll("{id}", "0b7c1d2e")}`;
      const answer = await request(url, { method: method.toUpperCase(), token });
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(await answer.json()).toEqual(documented);
    }
    expect(gated).toBe(Object.values(contract).filter((endpoint) => endpoint.access === "subscriber").length);
  });
});

describe("GET /api/docs", () => {
  /** The real web build (`npm run build --workspace web`), as main.ts reads it. */
  const webDist = {
    read: (path: string) =>
      readFile(join(ROOT, "web/dist", path)).then(
        (bytes) => new Uint8Array(bytes),
        () => null,
      ),
  };

  it("answers the reference page under its own policy: no inline script or style, nothing from elsewhere", async () => {
    const { request } = await createTestApp({ deps: { webAssets: webDist } });
    const page = await request("/api/docs");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const policy = page.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("style-src 'self'");
    expect(policy).not.toContain("unsafe");
    const html = await page.text();
    expect(html).not.toMatch(/<script>|<style|https?:\/\//);

    // The app's own pages and API keep the app's policy.
    const health = await request("/api/health");
    expect(health.headers.get("content-security-policy")).toContain("default-src 'self'");
  });

  it("serves the renderer's script and style sheet under hashed names, with their types, cached for a year", async () => {
    const { request } = await createTestApp({ deps: { webAssets: webDist } });
    const html = await (await request("/api/docs")).text();
    const files = [...html.matchAll(/(?:src|href)="(\/api\/docs\/[^"]+)"/g)].map((match) => match[1] ?? "");
    expect(files).toHaveLength(3);
    const bundle = await readFile(join(ROOT, "web/dist/api-docs/swagger-ui-bundle.js"));
    for (const file of files) {
      const asset = await request(file);
      expect(asset.status, file).toBe(200);
      expect(asset.headers.get("content-type"), file).toBe(
        file.endsWith(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8",
      );
      expect(asset.headers.get("cache-control"), file).toBe("public, max-age=31536000, immutable");
      if (file.includes("swagger-ui-bundle."))
        expect((await asset.arrayBuffer()).byteLength).toBe(bundle.length);
    }
    const stale = await request(files[0]?.replace(/\.([0-9a-f]{24})\./, ".000000000000000000000000.") ?? "");
    expect(stale.status).toBe(404);
  });

  it("sends the renderer's bundle as the build compressed it, in the coding the client prefers", async () => {
    const { request } = await createTestApp({ deps: { webAssets: webDist } });
    const html = await (await request("/api/docs")).text();
    const bundlePath = /src="(\/api\/docs\/swagger-ui-bundle\.[^"]+)"/.exec(html)?.[1] ?? "";
    for (const [accept, coding, copy] of [
      ["gzip, deflate, br", "br", "swagger-ui-bundle.js.br"],
      ["gzip", "gzip", "swagger-ui-bundle.js.gz"],
    ] as const) {
      const answer = await request(bundlePath, { headers: { "Accept-Encoding": accept } });
      expect(answer.headers.get("content-encoding")).toBe(coding);
      expect(answer.headers.get("vary")).toBe("Accept-Encoding");
      const sent = await answer.arrayBuffer();
      expect(sent.byteLength).toBe((await readFile(join(ROOT, "web/dist/api-docs", copy))).length);
    }
  });

  it("says the web build is missing instead of serving a page that cannot load", async () => {
    const { request } = await createTestApp();
    const page = await request("/api/docs");
    expect(page.status).toBe(503);
    expect(await page.text()).toContain("npm run build --workspace web");
  });
});
