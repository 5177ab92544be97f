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

/**
 * Idempotency keys as Stripe keeps them: the first answer per key (with the request it answered),
 * and the keys whose first request is still running.
 */
export interface IdempotencyStore {
  answers: Map<string, StoredAnswer>;
  inFlight: Map<string, string>;
}

export interface StoredAnswer {
  fingerprint: string;
  status: ContentfulStatusCode;
  body: string;
  /** Unix seconds on the sandbox clock. */
  storedAt: number;
}

export function createIdempotencyStore(): IdempotencyStore {
  return { answers: new Map(), inFlight: new Map() };
}

const IDEMPOTENCY_CACHE_SIZE = 500;
/** Stripe prunes keys once they are at least 24 hours old; a reused key is then a new request. */
const IDEMPOTENCY_KEY_TTL_SECONDS = 24 * 3600;

/**
 * In front of every `/v1` call, in Stripe's order: request id and version headers, the call
 * counter, secret-key auth, the idempotency key (replay, refusal of a key reused for other
 * parameters or still in flight), then injected latency / transient errors. The SDK sends an
 * Idempotency-Key on every POST and retries 409 and 5xx answers with the same key.
 */
export function apiMiddleware(deps: {
  faults: () => ApiFaults;
  countCall(): void;
  idempotency: IdempotencyStore;
  /** Unix seconds on the sandbox clock. */
  now(): number;
}): MiddlewareHandler {
  return async (c, next) => {
    c.header("Request-Id", newId("req_", ID_LENGTHS.request));
    c.header("Stripe-Version", c.req.header("stripe-version") ?? API_VERSION);
    deps.countCall();
    const denied = authenticate(c.req.header("authorization"));
    if (denied) return c.json({ error: denied }, 401);
    const key = c.req.method === "POST" ? c.req.header("idempotency-key") : undefined;
    if (!key) return faultsThen(c, deps.faults(), next);
    const { answers, inFlight } = deps.idempotency;
    const fingerprint = `${c.req.method} ${c.req.path} ${await c.req.text()}`;
    const stored = answers.get(key);
    if (stored && deps.now() - stored.storedAt >= IDEMPOTENCY_KEY_TTL_SECONDS) answers.delete(key);
    const refusal = idempotencyRefusal(key, fingerprint, answers.get(key) ?? inFlight.get(key));
    if (refusal) return c.json({ error: refusal.error }, refusal.status);
    const replay = answers.get(key);
    if (replay) {
      c.header("Idempotent-Replayed", "true");
      return c.body(replay.body, replay.status, { "content-type": "application/json" });
    }
    inFlight.set(key, fingerprint);
    try {
      const injected = await faultsThen(c, deps.faults(), next);
      if (injected) return injected;
      if (savesAnswer(c.res.status, await c.res.clone().text())) {
        const status = contentfulStatus(c.res.status);
        answers.set(key, { fingerprint, status, body: await c.res.clone().text(), storedAt: deps.now() });
        if (answers.size > IDEMPOTENCY_CACHE_SIZE) answers.delete(answers.keys().next().value!);
      }
    } finally {
      inFlight.delete(key);
    }
  };
}

/** Injected latency and transient failures (answered before the endpoint runs, so never stored). */
async function faultsThen(
  c: Context,
  faults: ApiFaults,
  next: () => Promise<void>,
): Promise<Response | undefined> {
  if (faults.latencyMs > 0) await sleep(faults.latencyMs);
  const hangs = faults.timeoutRate > 0 && Math.random() < faults.timeoutRate;
  if (hangs) await sleep(faults.timeoutMs);
  if (hangs || (faults.errorRate > 0 && Math.random() < faults.errorRate)) {
    const error: StripeErrorBody = {
      type: "api_error",
      message: "An unknown error occurred (a transient failure injected by the sandbox). Retry the request.",
    };
    return c.json({ error }, 500);
  }
  await next();
  return undefined;
}

/** Stripe's answer to a key already used for other parameters (400) or whose first use still runs (409). */
function idempotencyRefusal(
  key: string,
  fingerprint: string,
  first: StoredAnswer | string | undefined,
): { status: 400 | 409; error: StripeErrorBody } | undefined {
  if (first === undefined) return undefined;
  const firstFingerprint = typeof first === "string" ? first : first.fingerprint;
  if (firstFingerprint !== fingerprint) {
    return {
      status: 400,
      error: {
        type: "idempotency_error",
        message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
      },
    };
  }
  if (typeof first !== "string") return undefined;
  return {
    status: 409,
    error: {
      type: "idempotency_error",
      code: "idempotency_key_in_use",
      message: `There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through): ${key}. Please try again later.`,
    },
  };
}

/**
 * Stripe saves an answer once the endpoint began executing: a request refused while its
 * parameters were checked can be retried with the same key. (A simulator failure, 5xx, is a bug
 * here rather than Stripe's stored outage, so it is not kept either.)
 */
function savesAnswer(status: number, body: string): boolean {
  if (status >= 500) return false;
  if (status !== 400) return true;
  const code: unknown = (JSON.parse(body) as { error?: { code?: unknown } }).error?.code;
  return !(typeof code === "string" && code.startsWith("parameter_"));
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
    if (index < 0) throw noSuch(kind, after, { param: "starting_after" });
    const page = records.slice(index + 1, index + 1 + limit);
    return { page, hasMore: index + 1 + limit < records.length };
  }
  if (before !== undefined) {
    const index = records.findIndex((record) => record.id === before);
    if (index < 0) throw noSuch(kind, before, { param: "ending_before" });
    const start = Math.max(0, index - limit);
    return { page: records.slice(start, index), hasMore: start > 0 };
  }
  return { page: records.slice(0, limit), hasMore: records.length > limit };
}

/** Answers one object (or a list) after applying the request's `expand[]`. */
export function answer(
  c: Context,
  store: StripeStore,
  { object, expand }: { object: StripeObject; expand: string[] },
): Response {
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
  return answer(c, store, {
    object: renderList(input.url, page.map(input.render), hasMore),
    expand: input.expand,
  });
}
