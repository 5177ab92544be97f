import type { Context, MiddlewareHandler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { sleep } from "../faults.ts";
import { invalidRequest, noSuch, StripeApiError, type StripeErrorBody } from "./errors.ts";
import { applyExpand } from "./expand.ts";
import { parseFormPairs, parseFormText } from "./form.ts";
import { ID_LENGTHS, newId } from "./ids.ts";
import { type ParamReader, readParams } from "./params.ts";
import type { StripeStore } from "./records.ts";
import { API_VERSION, renderList, type StripeObject } from "./render.ts";

export interface ApiFaults {
  errorRate: number;
  timeoutRate: number;
  timeoutMs: number;
  latencyMs: number;
}

export interface StoredAnswer {
  fingerprint: string;
  status: ContentfulStatusCode;
  body: string;
}

const IDEMPOTENCY_CACHE_SIZE = 500;

/**
 * In front of every `/v1` call, in Stripe's order: request id and version headers, the call
 * counter, secret-key auth, injected latency / transient errors, then idempotent replay (the SDK
 * sends an Idempotency-Key on every POST and retries 5xx answers with the same key).
 */
export function apiMiddleware(deps: {
  faults: () => ApiFaults;
  countCall(): void;
  answers: Map<string, StoredAnswer>;
}): MiddlewareHandler {
  return async (c, next) => {
    c.header("Request-Id", newId("req_", ID_LENGTHS.request));
    c.header("Stripe-Version", c.req.header("stripe-version") ?? API_VERSION);
    deps.countCall();
    const denied = authenticate(c.req.header("authorization"));
    if (denied) return c.json({ error: denied }, 401);
    const faults = deps.faults();
    if (faults.latencyMs > 0) await sleep(faults.latencyMs);
    const hangs = faults.timeoutRate > 0 && Math.random() < faults.timeoutRate;
    if (hangs) await sleep(faults.timeoutMs);
    if (hangs || (faults.errorRate > 0 && Math.random() < faults.errorRate)) {
      const error: StripeErrorBody = {
        type: "api_error",
        message:
          "An unknown error occurred (a transient failure injected by the sandbox). Retry the request.",
      };
      return c.json({ error }, 500);
    }
    const key = c.req.method === "POST" ? c.req.header("idempotency-key") : undefined;
    if (!key) return next();
    const fingerprint = `${c.req.method} ${c.req.path} ${await c.req.text()}`;
    const stored = deps.answers.get(key);
    if (stored) {
      if (stored.fingerprint !== fingerprint) {
        const error: StripeErrorBody = {
          type: "idempotency_error",
          message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
        };
        return c.json({ error }, 400);
      }
      c.header("Idempotent-Replayed", "true");
      return c.body(stored.body, stored.status, { "content-type": "application/json" });
    }
    await next();
    if (c.res.status < 500) {
      const status = contentfulStatus(c.res.status);
      deps.answers.set(key, { fingerprint, status, body: await c.res.clone().text() });
      if (deps.answers.size > IDEMPOTENCY_CACHE_SIZE) deps.answers.delete(deps.answers.keys().next().value!);
    }
  };
}

/** Every answer the API routes produce carries a JSON body, so its status is a contentful one. */
function contentfulStatus(status: number): ContentfulStatusCode {
  return status as ContentfulStatusCode;
}

/** Any `sk_test_` / `rk_test_` key is accepted (Bearer, or Basic with the key as user name). */
function authenticate(header: string | undefined): StripeErrorBody | undefined {
  let key: string | undefined;
  if (header?.startsWith("Bearer ")) key = header.slice("Bearer ".length).trim();
  else if (header?.startsWith("Basic ")) key = decodeBasic(header.slice("Basic ".length));
  if (!key) {
    return {
      type: "invalid_request_error",
      message:
        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
    };
  }
  if (key.startsWith("sk_test_") || key.startsWith("rk_test_")) return undefined;
  if (key.startsWith("pk_")) {
    return {
      type: "invalid_request_error",
      message: "This API call cannot be made with a publishable API key. Please use a secret API key.",
    };
  }
  const masked = key.length > 12 ? `${key.slice(0, 8)}${"*".repeat(key.length - 12)}${key.slice(-4)}` : key;
  return { type: "invalid_request_error", message: `Invalid API Key provided: ${masked}` };
}

function decodeBasic(encoded: string): string | undefined {
  try {
    return atob(encoded.trim()).split(":")[0];
  } catch {
    return undefined;
  }
}

/** Answers StripeApiError in Stripe's error shape; anything else is a simulator bug, answered as api_error. */
export function stripeErrorHandler(error: Error, c: Context): Response {
  if (error instanceof StripeApiError) return c.json({ error: error.body }, error.status);
  console.error("Stripe simulator failure:", error);
  const body: StripeErrorBody = {
    type: "api_error",
    message: `The Stripe simulator failed: ${error.message}`,
  };
  return c.json({ error: body }, 500);
}

/** The request's parameters: the query string for GET / DELETE, the form body for POST. */
export async function requestParams(
  c: Context,
  allowed: readonly string[],
): Promise<{ params: ParamReader; expand: string[] }> {
  const tree =
    c.req.method === "POST"
      ? parseFormText(await c.req.text())
      : parseFormPairs(new URL(c.req.url).searchParams);
  const params = readParams(tree, allowed);
  return { params, expand: params.strings("expand") ?? [] };
}

export const LIST_PARAMS = ["limit", "starting_after", "ending_before"] as const;

/** Stripe's cursor pagination over a newest-first list. */
export function paginate<T extends { id: string }>(
  records: T[],
  params: ParamReader,
  kind: string,
): { page: T[]; hasMore: boolean } {
  const limit = params.integer("limit", { min: 1, max: 100 }) ?? 10;
  const after = params.string("starting_after");
  const before = params.string("ending_before");
  if (after !== undefined && before !== undefined) {
    throw invalidRequest("You may only specify one of these parameters: ending_before, starting_after.", {
      param: "ending_before",
    });
  }
  if (after !== undefined) {
    const index = records.findIndex((record) => record.id === after);
    if (index < 0) throw noSuch(kind, after, "starting_after");
    const page = records.slice(index + 1, index + 1 + limit);
    return { page, hasMore: index + 1 + limit < records.length };
  }
  if (before !== undefined) {
    const index = records.findIndex((record) => record.id === before);
    if (index < 0) throw noSuch(kind, before, "ending_before");
    const start = Math.max(0, index - limit);
    return { page: records.slice(start, index), hasMore: start > 0 };
  }
  return { page: records.slice(0, limit), hasMore: records.length > limit };
}

/** Answers one object (or a list) after applying the request's `expand[]`. */
export function answer(c: Context, store: StripeStore, object: StripeObject, expand: string[]): Response {
  return c.json(applyExpand(store, object, expand));
}

export function answerList<T extends { id: string }>(
  c: Context,
  store: StripeStore,
  input: {
    url: string;
    records: T[];
    kind: string;
    render: (record: T) => StripeObject;
    params: ParamReader;
    expand: string[];
  },
): Response {
  const { page, hasMore } = paginate(input.records, input.params, input.kind);
  return answer(c, store, renderList(input.url, page.map(input.render), hasMore), input.expand);
}
