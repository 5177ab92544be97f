import {
  type Access,
  contract,
  type EndpointName,
  type EndpointOutput,
  type EndpointParsedInput,
  MESSAGES,
  takesIdempotencyKey,
} from "@stockbridge/shared";
import type { Hono, MiddlewareHandler } from "hono";
import * as v from "valibot";
import { type FieldIssue, ForbiddenError, UnauthorizedError, ValidationError } from "../errors.ts";
import type { AppContext, AppEnv, Caller } from "./types.ts";

type CallerFor<A extends Access> = A extends "public" ? Caller | null : Caller;

/** What a handler answers: the output, or for a CSV endpoint the whole Response (so it can stream). */
type HandlerOutput<K extends EndpointName> = (typeof contract)[K] extends { envelope: "csv" }
  ? Response
  : EndpointOutput<K>;

export type Handler<K extends EndpointName> = (request: {
  input: EndpointParsedInput<K>;
  caller: CallerFor<(typeof contract)[K]["access"]>;
  c: AppContext;
}) => Promise<HandlerOutput<K>>;

export type Handlers = { [K in EndpointName]?: Handler<K> };

export interface Gatekeeper {
  /**
   * Verifies a Bearer token (a session JWT: signature, expiry, live session; a personal API token:
   * its hash, expiry) or throws UnauthorizedError.
   */
  authenticate(token: string): Promise<Caller>;
  /** Throws ForbiddenError when this caller's kind of token may not use the endpoint. */
  checkScope(caller: Caller, endpoint: EndpointName): void;
  /** True when the user's subscription grants access; `known` is the caller's, read with the session. */
  hasAccess(userId: string, known?: Caller["subscription"]): Promise<boolean>;
}

export interface RouteGates extends Gatekeeper {
  /**
   * Runs once the caller is known, around reading the input and the handler (idempotency keys):
   * it sees the handler's answer, errors included, as the client will.
   */
  aroundHandler?: MiddlewareHandler<AppEnv>;
}

/**
 * Registers handlers against the shared contract: the path, method, access rule and input schemas
 * all come from the contract table, so a route cannot drift from what the client calls.
 */
export function registerContractRoutes(app: Hono<AppEnv>, handlers: Handlers, gatekeeper: RouteGates): void {
  // Fixed paths first: Hono answers with the first route that matches, so `/execution-history/changes`
  // must come before `/execution-history/:id` whatever order the handlers were listed in.
  const names = (Object.keys(handlers) as EndpointName[]).sort(
    (a, b) => Number(contract[a].path.includes(":")) - Number(contract[b].path.includes(":")),
  );
  for (const name of names) {
    const endpoint = contract[name];
    const handler = handlers[name] as Handler<EndpointName> | undefined;
    if (!handler) continue;
    const paths = [`/api${endpoint.path}`];
    // The spec writes the Acumatica list with a trailing slash; accept both spellings.
    if (endpoint.method === "GET" && endpoint.path.endsWith("/products")) paths.push(`/api${endpoint.path}/`);
    // Signed-in writes whose answer may be stored (the same rule the API document states).
    const around =
      gatekeeper.aroundHandler && takesIdempotencyKey(endpoint) ? [gatekeeper.aroundHandler] : [];
    for (const path of paths) {
      // Sets the caller (none for a public endpoint) before the idempotency keys and the handler.
      const identified: MiddlewareHandler<AppEnv> = async (c, next) => {
        await identify(c, { name, access: endpoint.access }, gatekeeper);
        await next();
      };
      app.on(endpoint.method, path, identified, ...around, async (c) => {
        const caller = c.get("caller") ?? null;
        const input = {
          params: parse(endpoint, "params", c.req.param()),
          query: parse(endpoint, "query", c.req.query()),
          body: parse(endpoint, "body", await readBody(c, endpoint)),
        } as EndpointParsedInput<EndpointName>;
        const output = await handler({ input, caller: caller as Caller, c });
        if (output instanceof Response) return output;
        const envelope = "envelope" in endpoint ? endpoint.envelope : "data";
        return c.json(envelope === "top-level" ? output : { data: output });
      });
    }
  }
}

/** Sets the caller of a signed-in endpoint, or refuses the call (no token, scope, subscription). */
async function identify(
  c: AppContext,
  { name, access }: { name: EndpointName; access: Access },
  gatekeeper: Gatekeeper,
): Promise<void> {
  const header = c.req.header("Authorization");
  const token = header?.match(/^Bearer\s+(.+)$/i)?.[1];
  if (!token) {
    if (access === "public") return;
    throw new UnauthorizedError(MESSAGES.access.loginRequired);
  }
  // A public endpoint ignores a token it does not need (login with a stale token must still work).
  if (access === "public") return;
  const caller = await gatekeeper.authenticate(token);
  // Set now: the error handler's log line names the caller even when a gate below refuses the call.
  c.set("caller", caller);
  // Before the subscription gate: a token refused an endpoint says so whatever the subscription.
  gatekeeper.checkScope(caller, name);
  if (access === "subscriber" && !(await gatekeeper.hasAccess(caller.userId, caller.subscription))) {
    throw new ForbiddenError(MESSAGES.access.subscriptionRequired, "SUBSCRIPTION_REQUIRED");
  }
}

type Part = "params" | "query" | "body";

function parse(endpoint: (typeof contract)[EndpointName], part: Part, value: unknown): unknown {
  const schema = (endpoint as Partial<Record<Part, v.GenericSchema>>)[part];
  if (!schema) return {};
  const result = v.safeParse(schema, value);
  if (result.success) return result.output;
  const errors: FieldIssue[] = result.issues.map((issue) => {
    const path = v.getDotPath(issue) ?? part;
    // valibot's own text for a missing key is "Invalid key: ..."; say it the way people read it.
    const message = issue.message.startsWith("Invalid key") ? `${path} is required` : issue.message;
    return { path, message };
  });
  throw new ValidationError(errors[0]?.message ?? `Invalid ${part}`, errors);
}

async function readBody(c: AppContext, endpoint: (typeof contract)[EndpointName]): Promise<unknown> {
  if (!("body" in endpoint)) return {};
  const text = await c.req.text();
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new ValidationError("The request body must be valid JSON");
  }
}
