import { type OpenApiDocument, openApiDocument, SANDBOX_DEMO } from "@stockbridge/shared";
import type { Hono } from "hono";
import type { Db } from "../db/client.ts";
import type { Handlers } from "../http/contract-routes.ts";
import { AppError } from "../http/errors.ts";
import type { AppEnv } from "../http/types.ts";

export function systemHandlers(deps: { db: Db; version: string; sandboxUrl: string | undefined }): Handlers {
  const handlers: Handlers = {
    health: async () => {
      try {
        await deps.db.execute("SELECT 1");
      } catch {
        throw new AppError(503, "DB_UNAVAILABLE", "The database is not answering");
      }
      return { status: "ok" as const, version: deps.version, db: "ok" as const };
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
