import { SANDBOX_DEMO } from "@stockbridge/shared/sandbox-demo";
import { type Context, Hono } from "hono";
import { sleep } from "../faults.ts";
import { settleBulkOperations } from "./bulk-runner.ts";
import { answerGraphql, contextFor, type GraphqlRequest } from "./graphql-endpoint.ts";
import type { ShopifySettings } from "./settings.ts";
import type { RequestContext, ShopState } from "./shop-state.ts";
import { acceptsUploadKey, MAX_UPLOAD_BYTES, postResponseXml } from "./staged-uploads.ts";
import { resolveServedVersion } from "./versions.ts";

export interface RouteDeps {
  shop(): ShopState;
  settings(): ShopifySettings;
  now(): number;
  /** The date version fall-forward is computed against. */
  releaseDate(): Date;
  /** The sandbox's public origin ("" when only the request can tell). */
  origin(): string;
  plan(): RequestContext["plan"];
}

const INVALID_TOKEN = "[API] Invalid API key or access token (unrecognized login or wrong password)";

/**
 * Mounted at `/shopify`: `POST /{store}/admin/api/{version}/graphql.json`, the staged upload
 * target (`/{store}/staged-uploads/…`) and bulk result files (`/{store}/bulk-results/{id}.jsonl`).
 */
export function createShopifyRoutes(deps: RouteDeps) {
  const app = new Hono();
  const unknownStore = (c: Context) => {
    deps.shop().counters.unknownStore += 1;
    return c.json({ errors: "Not Found" }, 404);
  };
  const contextOf = (c: Context) => {
    const origin = deps.origin() || new URL(c.req.url).origin;
    const base = {
      now: deps.now(),
      origin,
      plan: deps.plan(),
      bulkDelayMs: deps.settings().bulkOperationDelayMs,
      currencyCode: deps.settings().currencyCode,
    };
    return (version: RequestContext["version"]) => contextFor(deps.shop(), version, base);
  };

  app.post("/:store/admin/api/:version/graphql.json", async (c) => {
    const shop = deps.shop();
    if (c.req.param("store") !== shop.storeName) return unknownStore(c);
    const fault = await injectFault(c, deps.settings(), shop);
    if (fault) return fault;
    if (c.req.header("X-Shopify-Access-Token") !== SANDBOX_DEMO.shopify.accessToken) {
      shop.counters.unauthorized += 1;
      return c.json({ errors: INVALID_TOKEN }, 401);
    }
    const version = resolveServedVersion(c.req.param("version"), deps.releaseDate());
    if (!version) return c.json({ errors: "Not Found" }, 404);
    const request = await readRequest(c);
    const contextForVersion = contextOf(c);
    settleBulkOperations(shop, { now: deps.now });
    const answer = answerGraphql(contextForVersion(version), request, {
      throttleStatusCode: deps.settings().throttleStatusCode,
      costMultiplier: deps.settings().costMultiplier,
    });
    return c.json(answer.body, answer.status, {
      ...answer.headers,
      ...(deps.settings().versionHeader ? { "X-Shopify-API-Version": version.name } : {}),
      "X-Request-Id": crypto.randomUUID(),
      // Shopify's own time, as every HTTP answer carries it: the sandbox clock's, like updatedAt.
      Date: new Date(deps.now()).toUTCString(),
    });
  });

  const upload = (c: Context, key: string, text: string) => {
    const shop = deps.shop();
    if (!acceptsUploadKey(shop, key)) return c.text("Access denied.", 403);
    if (new TextEncoder().encode(text).length > MAX_UPLOAD_BYTES) return c.text("EntityTooLarge", 400);
    shop.uploads.set(key, text);
    return null;
  };

  const formUpload = async (c: Context) => {
    if (c.req.param("store") !== deps.shop().storeName) return unknownStore(c);
    const form = await c.req.parseBody();
    const key = typeof form.key === "string" ? form.key : "";
    const file = form.file;
    const text = file instanceof File ? await file.text() : typeof file === "string" ? file : null;
    if (text === null) return c.text("The form has no file field.", 400);
    const refused = upload(c, key, text);
    if (refused) return refused;
    if (form.success_action_status === "201") {
      const origin = deps.origin() || new URL(c.req.url).origin;
      return c.body(postResponseXml(origin, deps.shop().storeName, key), 201, {
        "Content-Type": "application/xml",
      });
    }
    return c.body(null, 204);
  };
  app.post("/:store/staged-uploads", formUpload);
  app.post("/:store/staged-uploads/", formUpload);

  app.put("/:store/staged-uploads/*", async (c) => {
    if (c.req.param("store") !== deps.shop().storeName) return unknownStore(c);
    const prefix = `/staged-uploads/`;
    const key = decodeURIComponent(c.req.path.slice(c.req.path.indexOf(prefix) + prefix.length));
    const refused = upload(c, key, await c.req.text());
    return refused ?? c.body(null, 200);
  });

  app.get("/:store/bulk-results/:file", (c) => {
    const shop = deps.shop();
    if (c.req.param("store") !== shop.storeName) return unknownStore(c);
    settleBulkOperations(shop, { now: deps.now });
    const id = Number(/^(\d+)\.jsonl$/.exec(c.req.param("file"))?.[1]);
    const text = shop.bulkResults.get(id);
    if (text === undefined) return c.text("No such object.", 404);
    return c.body(text, 200, { "Content-Type": "application/jsonl" });
  });

  return app;
}

/** JSON bodies `{query, variables, operationName}`; `application/graphql` bodies are the query itself. */
async function readRequest(c: Context): Promise<GraphqlRequest> {
  const text = await c.req.text();
  if ((c.req.header("Content-Type") ?? "").includes("application/graphql")) {
    return { query: text, variables: undefined, operationName: undefined };
  }
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body === "object" && body !== null) {
      const fields: Record<string, unknown> = Object.fromEntries(Object.entries(body));
      return { query: fields.query, variables: fields.variables, operationName: fields.operationName };
    }
  } catch {
    // answered below as a missing query
  }
  return { query: undefined, variables: undefined, operationName: undefined };
}

/** Latency on every call; then maybe a hang answered 504, or a transient 503/502 as Shopify's edge sends. */
async function injectFault(c: Context, settings: ShopifySettings, shop: ShopState) {
  if (settings.latencyMs > 0) await sleep(settings.latencyMs);
  if (settings.timeoutRate > 0 && Math.random() < settings.timeoutRate) {
    shop.counters.timeoutsInjected += 1;
    await sleep(settings.timeoutMs);
    return c.json({ errors: "Gateway Timeout" }, 504);
  }
  if (settings.errorRate > 0 && Math.random() < settings.errorRate) {
    shop.counters.errorsInjected += 1;
    if (Math.random() < 0.5) {
      return c.json({ errors: "Service Unavailable" }, 503, { "Retry-After": "1" });
    }
    return c.html(
      "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>",
      502,
    );
  }
  return null;
}
