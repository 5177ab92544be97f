import { SANDBOX_DEMO } from "@stockbridge/shared/sandbox-demo";
import { type Context, Hono } from "hono";
import type { SandboxClock } from "../clock.ts";
import { parseBody } from "./body.ts";
import { COMPANY, type ErpCompany, NON_STOCK_ITEM, STOCK_ITEM, WAREHOUSE } from "./entities.ts";
import {
  AcumaticaError,
  lengthRequired,
  methodNotAllowed,
  noEntity,
  noResource,
  notLoggedIn,
  serverError,
} from "./errors.ts";
import { injectFaults } from "./inject-faults.ts";
import { findInquiry } from "./inquiries.ts";
import { isStreamed, type Json, randomSessionId, serialize, serializeStream } from "./json.ts";
import type { Limiter } from "./limiter.ts";
import { pageRows, parseEntityQuery } from "./query.ts";
import { renderRecord } from "./render.ts";
import type { EntityDef } from "./schema.ts";
import { type Credentials, parseCookies, type Sessions } from "./sessions.ts";
import type { AcumaticaSettings } from "./settings.ts";
import { type ErpStore, findByKey, findWarehouse, type ItemTable } from "./store.ts";
import { buildInstanceSwagger, buildSwagger } from "./swagger.ts";
import { upsertItem } from "./upsert.ts";
import { describeEndpoints, type EndpointContext, resolveEndpoint } from "./versions.ts";

export interface AcumaticaRuntime {
  clock: SandboxClock;
  store(): ErpStore;
  settings(): AcumaticaSettings;
  sessions: Sessions;
  limiter: Limiter;
  counters: { calls: number; faults: { errors: number; timeouts: number } };
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The contract-based REST API under `{instance}/entity`. One middleware plays the IIS/licence
 * pipeline: 401 without a session, then the licence queue (logout skips it), then injected faults.
 */
export function createAcumaticaRoutes(runtime: AcumaticaRuntime) {
  const app = new Hono();
  app.onError((error, c) => {
    if (error instanceof AcumaticaError) return sendError(c, error);
    // A simulator bug still answers in the API's own error shape, with the cause in the message.
    return sendError(c, serverError(error.message, "System.Exception"));
  });

  app.use("*", async (c, next) => {
    runtime.counters.calls += 1;
    c.header("X-Handled-By", "Acumatica-PX.Export/AuthenticationManagerModule");
    const kind = classify(c.req.method, locate(c)?.rest);
    if (kind === "outside") return next();
    const method = c.req.method;
    if (
      (method === "POST" || method === "PUT") &&
      !c.req.header("content-length") &&
      !c.req.header("transfer-encoding")
    ) {
      throw lengthRequired();
    }
    if (kind === "logout") return next();
    if (kind === "private" && !runtime.sessions.authenticate(parseCookies(c.req.header("cookie")))) {
      c.header("Set-Cookie", `ASP.NET_SessionId=${randomSessionId()}; path=/; HttpOnly; SameSite=Lax`);
      throw notLoggedIn();
    }
    const release = await runtime.limiter.admit();
    try {
      const fault = await injectFaults(runtime.settings(), runtime.counters.faults, c.req.raw.signal);
      if (fault) throw fault;
      await next();
    } finally {
      release();
    }
  });

  app.post("/entity/auth/login", async (c) => {
    const credentials = parseCredentials(await c.req.text(), c.req.header("content-type") ?? "");
    const cookies = runtime.sessions.login(credentials, parseCookies(c.req.header("cookie")), isHttps(c));
    for (const cookie of cookies) c.header("Set-Cookie", cookie, { append: true });
    return c.body(null, 204);
  });

  app.post("/entity/auth/logout", (c) => {
    for (const cookie of runtime.sessions.logout(parseCookies(c.req.header("cookie")))) {
      c.header("Set-Cookie", cookie, { append: true });
    }
    return c.body(null, 204);
  });

  const listEndpoints = (c: Context) => sendJson(c, 200, describeEndpoints(locate(c)?.instancePath ?? ""));
  app.get("/entity", listEndpoints);
  app.get("/entity/", listEndpoints);
  app.get("/entity/swagger.json", (c) =>
    sendJson(c, 200, buildInstanceSwagger(locate(c)?.instancePath ?? "")),
  );

  app.all("/entity/*", async (c) => {
    const located = locate(c);
    const [name = "", version = "", entityName = "", ...keys] = located?.segments ?? [];
    const endpoint = resolveEndpoint(name, version);
    if (!located || !endpoint || entityName === "") throw noResource(c.req.url);
    const endpointPath = `${located.instancePath}/entity/${endpoint.name}/${endpoint.version}`;
    const method = c.req.method;
    if (entityName === "swagger.json" && keys.length === 0 && method === "GET") {
      return sendJson(
        c,
        200,
        // An endpoint without the Company entity does not describe it either.
        buildSwagger(endpoint, located.instancePath, [
          STOCK_ITEM,
          NON_STOCK_ITEM,
          WAREHOUSE,
          ...(runtime.settings().companyEntity ? [COMPANY] : []),
        ]),
      );
    }
    const params = new URL(c.req.url).searchParams;
    const request: EntityRequest = { params, endpoint, endpointPath };
    const store = runtime.store();
    const now = runtime.clock.now().getTime();
    const lower = entityName.toLowerCase();

    if (lower === "stockitem" || lower === "nonstockitem") {
      const def = lower === "stockitem" ? STOCK_ITEM : NON_STOCK_ITEM;
      const table = lower === "stockitem" ? store.stock : store.nonStock;
      if (method === "GET") {
        return keys.length === 0
          ? sendJson(c, 200, listRecords(def, table.rows, request))
          : sendJson(c, 200, oneRecord(def, findItem(table, keys), request));
      }
      if (method === "PUT" && keys.length === 0) {
        const query = parseEntityQuery(params, def, endpoint.major);
        const render = (item: (typeof table.rows)[number]) =>
          renderRecord(def, item, { ...query, major: endpoint.major, rowNumber: 1, endpointPath });
        const body = parseBody(await c.req.text());
        const item = upsertItem({
          store,
          def,
          major: endpoint.major,
          body,
          ifMatch: c.req.header("if-match"),
          ifNoneMatch: c.req.header("if-none-match"),
          now,
          render,
        });
        return sendJson(c, 200, render(item));
      }
      throw methodNotAllowed(method);
    }
    if (lower === "warehouse") {
      if (method !== "GET") throw methodNotAllowed(method);
      if (keys.length === 0) return sendJson(c, 200, listRecords(WAREHOUSE, store.warehouses, request));
      const key = keys.length === 1 ? keys[0]! : "";
      const warehouse = GUID.test(key)
        ? store.warehouses.find((candidate) => candidate.id === key.toLowerCase())
        : findWarehouse(store, key);
      return sendJson(c, 200, oneRecord(WAREHOUSE, warehouse, request));
    }
    if (lower === "company") {
      if (!runtime.settings().companyEntity) throw noResource(c.req.url);
      if (method !== "GET") throw methodNotAllowed(method);
      const companies: ErpCompany[] = [
        {
          id: "0d1f4d8e-6b1a-4c44-9a2e-5f0c6b7e1a01",
          companyId: "PRODWHOLE",
          name: SANDBOX_DEMO.acumatica.company,
          baseCurrency: runtime.settings().baseCurrency,
        },
      ];
      if (keys.length === 0) return sendJson(c, 200, listRecords(COMPANY, companies, request));
      const key = keys.length === 1 ? keys[0]!.toUpperCase() : "";
      const company = companies.find(
        (candidate) => candidate.companyId === key || candidate.id === key.toLowerCase(),
      );
      return sendJson(c, 200, oneRecord(COMPANY, company, request));
    }
    const inquiry = findInquiry(entityName, endpoint.major);
    if (inquiry) {
      if (method !== "PUT" || keys.length > 0) throw methodNotAllowed(method);
      const body = parseBody(await c.req.text());
      return sendJson(
        c,
        200,
        inquiry.run(store, { major: endpoint.major, body, expand: inquiryExpand(params, inquiry.detail) }),
      );
    }
    throw noResource(c.req.url);
  });

  return app;
}

/** What an entity GET needs besides the records: the query string and where the endpoint lives. */
interface EntityRequest {
  params: URLSearchParams;
  endpoint: EndpointContext;
  endpointPath: string;
}

function listRecords<T>(def: EntityDef<T>, rows: readonly T[], request: EntityRequest): Json {
  const { major } = request.endpoint;
  const query = parseEntityQuery(request.params, def, major);
  return pageRows(rows, query).map((record, index) =>
    renderRecord(def, record, { ...query, major, rowNumber: index + 1, endpointPath: request.endpointPath }),
  );
}

/** GET by key: a missing record is a 500 NoEntitySatisfiesTheCondition, not a 404. */
function oneRecord<T>(def: EntityDef<T>, record: T | undefined, request: EntityRequest): Json {
  const { major } = request.endpoint;
  const query = parseEntityQuery(request.params, def, major);
  if (record === undefined) throw noEntity();
  return renderRecord(def, record, { ...query, major, rowNumber: 1, endpointPath: request.endpointPath });
}

/** `/StockItem/{InventoryID}` or `/StockItem/{id}`; InventoryID is the only key. */
function findItem(table: ItemTable, keys: string[]) {
  if (keys.length !== 1) return undefined;
  const key = keys[0]!;
  return (GUID.test(key) ? table.byId.get(key.toLowerCase()) : undefined) ?? findByKey(table, key);
}

/** An inquiry expands its one detail (or files); any other name is the 500 an entity gives. */
function inquiryExpand(params: URLSearchParams, detail: string): Set<string> {
  const expand = new Set<string>();
  for (const entry of (params.get("$expand") ?? "").split(",")) {
    const name = entry.trim().split("/")[0]!;
    if (name === "") continue;
    if (name.toLowerCase() === detail.toLowerCase()) expand.add(detail);
    else if (name.toLowerCase() !== "files") {
      throw serverError(
        `The entity has no detail or linked entity named '${name}'. Use '${detail}'.`,
        "PX.Data.PXException",
      );
    }
  }
  return expand;
}

type RouteKind = "outside" | "logout" | "login" | "public" | "private";

function classify(method: string, rest: string | undefined): RouteKind {
  if (rest === undefined) return "outside";
  if (method === "POST" && rest === "/auth/logout") return "logout";
  if (method === "POST" && rest === "/auth/login") return "login";
  if (method === "GET" && (rest === "" || rest === "/" || /^(\/[^/]+\/[^/]+)?\/swagger\.json$/.test(rest))) {
    return "public";
  }
  return "private";
}

interface Located {
  /** Everything before `/entity` (e.g. `/acumatica`): the instance's virtual directory. */
  instancePath: string;
  /** The raw path after `/entity`. */
  rest: string;
  /** Decoded segments after `/entity/`. */
  segments: string[];
}

function locate(c: Context): Located | undefined {
  const pathname = new URL(c.req.url).pathname;
  const match = /\/entity(?=\/|$)/.exec(pathname);
  if (!match) return undefined;
  const rest = pathname.slice(match.index + match[0].length);
  const segments = rest
    .split("/")
    .slice(1)
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    });
  return { instancePath: pathname.slice(0, match.index), rest, segments };
}

/** Login accepts JSON or a form post; `company` is the pre-2019 R2 name of `tenant`. */
function parseCredentials(text: string, contentType: string): Credentials {
  if (contentType.toLowerCase().includes("application/x-www-form-urlencoded")) {
    return Object.fromEntries(new URLSearchParams(text));
  }
  return parseBody(text);
}

function isHttps(c: Context): boolean {
  return new URL(c.req.url).protocol === "https:" || c.req.header("x-forwarded-proto") === "https";
}

function sendJson(c: Context, status: 200 | AcumaticaError["status"], body: Json) {
  const headers = { "Content-Type": "application/json; charset=utf-8" };
  return c.body(isStreamed(body) ? serializeStream(body) : serialize(body), status, headers);
}

function sendError(c: Context, error: AcumaticaError) {
  if (error.html !== undefined) {
    return c.body(error.html, error.status, { "Content-Type": "text/html; charset=utf-8" });
  }
  return sendJson(c, error.status, error.body);
}
