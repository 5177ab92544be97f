import { API_TIMEOUT_MS } from "./constants.ts";
import {
  type Contract,
  contract,
  type EndpointInput,
  type EndpointName,
  type EndpointOutput,
} from "./contract.ts";
import { isRecord, readJsonBody } from "./json.ts";

export interface ValidationIssue {
  path: string;
  message: string;
}

/** A failed call: `message` is the server's, or the catalogue default for the endpoint. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors: ValidationIssue[];
  /** A 409 from work that runs as a job (a pull, a sync) names the job already running: follow it. */
  readonly jobId: string | null;

  constructor(
    message: string,
    options: { status: number; code: string; errors?: ValidationIssue[]; jobId?: string | null },
  ) {
    super(message);
    this.name = "ApiError";
    this.status = options.status;
    this.code = options.code;
    this.errors = options.errors ?? [];
    this.jobId = options.jobId ?? null;
  }

  /** True when the server was not reached at all (offline, DNS, refused) or did not answer in time. */
  get isNetworkError(): boolean {
    return this.code === "NETWORK" || this.code === "TIMEOUT";
  }
}

export interface ApiClientOptions {
  /** Origin plus `/api`, e.g. `http://127.0.0.1:8000/api` (or `/api` in the browser). */
  baseUrl: string;
  getToken(): string | null;
  /** Called on any 401 answer to a call that carried a token (the session is gone). */
  onUnauthorized?(): void;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** What any call may add to its input: an `Idempotency-Key`, for a write that may be sent again. */
interface CallOptions {
  /** Sent as the `Idempotency-Key` header: a repeat with the same key gets the first answer. */
  idempotencyKey?: string;
}

type CallArgs<K extends EndpointName> = keyof EndpointInput<K> extends never
  ? [input?: CallOptions]
  : object extends EndpointInput<K>
    ? [input?: EndpointInput<K> & CallOptions]
    : [input: EndpointInput<K> & CallOptions];

/** Builds `/mapping/abc/sync?x=1` from an endpoint and its input. Empty query values are left out. */
export function buildPath(
  path: string,
  params?: Record<string, unknown>,
  query?: Record<string, unknown>,
): string {
  const filled = path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null || value === "")
      throw new Error(`Missing path parameter "${name}" for ${path}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === "") continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `${filled}?${text}` : filled;
}

/** The typed client derived from the contract: `client.call("login", { body })`. */
export function createApiClient(options: ApiClientOptions) {
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const timeoutMs = options.timeoutMs ?? API_TIMEOUT_MS;

  async function call<K extends EndpointName>(name: K, ...args: CallArgs<K>): Promise<EndpointOutput<K>> {
    const endpoint: Contract[K] = contract[name];
    const input = (args[0] ?? {}) as {
      params?: Record<string, unknown>;
      query?: Record<string, unknown>;
      body?: unknown;
    } & CallOptions;
    const token = options.getToken();
    const csvAnswer = "envelope" in endpoint && endpoint.envelope === "csv";
    const headers: Record<string, string> = { Accept: csvAnswer ? "text/csv" : "application/json" };
    if (token) headers.Authorization = `Bearer ${token}`;
    const hasBody = endpoint.method !== "GET" && endpoint.method !== "DELETE";
    if (hasBody) headers["Content-Type"] = "application/json";
    if (input.idempotencyKey !== undefined) headers["Idempotency-Key"] = input.idempotencyKey;

    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    let response: Response;
    try {
      response = await fetchImpl(`${options.baseUrl}${buildPath(endpoint.path, input.params, input.query)}`, {
        method: endpoint.method,
        headers,
        body: hasBody ? JSON.stringify(input.body ?? {}) : undefined,
        signal: controller.signal,
      });
    } catch {
      const timedOut = controller.signal.aborted;
      throw new ApiError(endpoint.defaultError, { status: 0, code: timedOut ? "TIMEOUT" : "NETWORK" });
    } finally {
      clearTimeout(timer);
    }

    if (csvAnswer && response.ok) return (await response.text()) as EndpointOutput<K>;
    const payload = await readJson(response);
    if (!response.ok) {
      if (response.status === 401 && token) options.onUnauthorized?.();
      const body = isRecord(payload) ? payload : {};
      throw new ApiError(
        typeof body.message === "string" && body.message ? body.message : endpoint.defaultError,
        {
          status: response.status,
          code: typeof body.code === "string" ? body.code : `HTTP_${response.status}`,
          errors: Array.isArray(body.errors) ? (body.errors as ValidationIssue[]) : [],
          jobId: typeof body.jobId === "string" ? body.jobId : null,
        },
      );
    }
    const envelope = "envelope" in endpoint ? endpoint.envelope : "data";
    if (envelope === "top-level") return payload as EndpointOutput<K>;
    return (isRecord(payload) ? payload.data : undefined) as EndpointOutput<K>;
  }

  return { call };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** The body as JSON, or null when it is empty or not JSON. */
async function readJson(response: Response): Promise<unknown> {
  return (await readJsonBody(response)) ?? null;
}
