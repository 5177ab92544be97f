import { type OpenApiDocument, openApiDocument, SANDBOX_DEMO } from "@stockbridge/shared";
import type { Hono } from "hono";
import { DomainError } from "../errors.ts";
import type { Handlers } from "../http/contract-routes.ts";
import type { AppEnv } from "../http/types.ts";
import type { Metrics } from "../observability/metrics.ts";
import { constantTimeEqual } from "../security/bytes.ts";
import type { HealthReport, SystemService } from "./health.ts";

export function systemHandlers(deps: {
  system: SystemService;
  version: string;
  sandboxUrl: string | undefined;
}): Handlers {
  const handlers: Handlers = {
    health: async () => {
      const report = await deps.system.health();
      if (!report.healthy) throw unhealthy(report);
      return {
        status: "ok" as const,
        version: deps.version,
        db: "ok" as const,
        schemaVersion: report.schemaVersion ?? 0,
        lastTickAt: report.lastTickAt,
        oldestQueuedJobAgeSeconds: report.oldestQueuedJobAgeSeconds,
      };
    },
  };
  const sandboxUrl = deps.sandboxUrl;
  // Only in sandbox mode: the demo connection, so the Settings screen and scripts can connect at once.
  if (sandboxUrl) {
    handlers.sandbox = async () => ({
      shopify: { ...SANDBOX_DEMO.shopify },
      acumatica: {
        name: SANDBOX_DEMO.acumatica.name,
        instanceUri: `${sandboxUrl}${SANDBOX_DEMO.acumatica.instancePath}`,
        endpointName: SANDBOX_DEMO.acumatica.endpointName,
        apiVersion: SANDBOX_DEMO.acumatica.apiVersion,
        username: SANDBOX_DEMO.acumatica.username,
        password: SANDBOX_DEMO.acumatica.password,
        company: SANDBOX_DEMO.acumatica.company,
      },
    });
  }
  return handlers;
}

/** 503 naming what failed, with every check's state for a monitor to read. */
function unhealthy(report: HealthReport): DomainError {
  const failing = Object.entries(report.checks).filter(([, state]) => state !== "ok");
  const error =
    report.checks.db === "ok"
      ? new DomainError(
          "UNHEALTHY",
          `Unhealthy: ${failing.map(([name, state]) => `${name} ${state}`).join(", ")}`,
        )
      : new DomainError("DB_UNAVAILABLE", "The database is not answering");
  error.details = {
    checks: report.checks,
    schemaVersion: report.schemaVersion,
    expectedSchemaVersion: report.expectedSchemaVersion,
    lastTickAt: report.lastTickAt,
    oldestQueuedJobAgeSeconds: report.oldestQueuedJobAgeSeconds,
  };
  return error;
}

/**
 * `GET /api/metrics` in the Prometheus text format: outside the contract (scrapers read text, not
 * a `{ data }` envelope). With METRICS_TOKEN set it asks for `Authorization: Bearer <token>`; in
 * production without one it is closed, as counts of users' jobs are not for everyone.
 */
export function registerMetrics(
  app: Hono<AppEnv>,
  deps: { metrics: Metrics; system: SystemService; token: string | undefined; production: boolean },
) {
  const expected = deps.token ? new TextEncoder().encode(`Bearer ${deps.token}`) : null;
  app.get("/api/metrics", async (c) => {
    if (expected || deps.production) {
      const given = new TextEncoder().encode(c.req.header("Authorization") ?? "");
      if (!expected || !constantTimeEqual(given, expected)) {
        const message = expected
          ? "The metrics need Authorization: Bearer <METRICS_TOKEN>"
          : "The metrics are closed: set METRICS_TOKEN to read them";
        return c.json({ message, code: "UNAUTHORIZED" }, 401, { "WWW-Authenticate": "Bearer" });
      }
    }
    const text = deps.metrics.render(await deps.system.gauges());
    return c.body(text, 200, { "Content-Type": "text/plain; version=0.0.4; charset=utf-8" });
  });
}

/**
 * `GET /api/openapi.json`: the OpenAPI document generated from the contract. Outside the contract:
 * API tools read the document itself, not a `{ data }` envelope. Built on the first request, then
 * kept (the contract cannot change while the process runs).
 */
export function registerOpenApiDocument(app: Hono<AppEnv>, deps: { version: string }) {
  let document: OpenApiDocument | null = null;
  app.get("/api/openapi.json", (c) => {
    document ??= openApiDocument({ version: deps.version });
    return c.json(document);
  });
}
