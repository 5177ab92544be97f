import { readJsonBody } from "@stockbridge/shared";
import { OutboundRefusedError } from "../../security/outbound-guard.ts";
import {
  backoffMs,
  type ConnectorClock,
  createSemaphore,
  deadline,
  type FetchLike,
  isTimeout,
  networkReason,
  realClock,
} from "../transport.ts";
import { cookieHeader, remember } from "./cookies.ts";
import {
  AcumaticaError,
  callFailure,
  type ErrorBody,
  isLoginLimit,
  isTransient,
  loginFailure,
  readErrorBody,
} from "./failures.ts";

/** What a session needs from a saved connection (the password already decrypted). */
export interface AcumaticaConnectionInfo {
  instanceUri: string;
  endpointName: string;
  apiVersion: string;
  username: string;
  password: string;
  /** The tenant's login name, sent as `tenant` at login. */
  company: string;
  /**
   * The connection's share of the licence: at most `max` sessions at once under `key`, on every
   * instance (Connectors queue the rest). Saved connections always carry it.
   */
  sessions?: { key: string; max: number };
}

export interface AcumaticaSessionOptions {
  /** The app's outbound fetch (already behind the address guard). */
  fetch: FetchLike;
  clock?: ConnectorClock;
  /** Requests in flight at once; keep it at or under the licence's concurrency limit. */
  maxConcurrent?: number;
  /** Attempts for transient failures (429 queue declines, 5xx, deadlocks, network errors, timeouts). */
  maxAttempts?: number;
  timeoutMs?: number;
  /** Check after login that `GET /entity` offers the endpoint name and version (default true). */
  verifyEndpoint?: boolean;
  /** Counters to add to (share one object across sessions to total a job). */
  stats?: AcumaticaStats;
}

export interface AcumaticaStats {
  calls: number;
  retries: number;
  /** Time spent backing off, in ms. */
  waitedMs: number;
  logins: number;
  logouts: number;
  logoutFailures: number;
}

export type Query = Record<string, string | number | undefined>;

/** The calls `fn` makes inside a session; paths are relative to `{instance}/entity/{endpoint}/{version}/`. */
export interface AcumaticaApi {
  readonly endpointUrl: string;
  get<T>(path: string, query?: Query): Promise<T>;
  put<T>(path: string, query: Query, body: unknown): Promise<T>;
  /** For big answers: `consume` reads the body stream (and may be called again if a retry is needed). */
  stream<T>(
    request: { method: "GET" | "PUT"; path: string; query: Query; body: unknown },
    consume: (body: ReadableStream<Uint8Array>) => Promise<T>,
  ): Promise<T>;
  readonly stats: AcumaticaStats;
}

export interface EndpointInfo {
  name: string;
  version: string;
}

export function newAcumaticaStats(): AcumaticaStats {
  return { calls: 0, retries: 0, waitedMs: 0, logins: 0, logouts: 0, logoutFailures: 0 };
}

/**
 * Logs in (cookie session, `company` sent as `tenant`), runs `fn(api)`, and ALWAYS logs out in a
 * `finally`: every session holds one of the licence's few API-user seats until it is closed.
 */
export async function withAcumaticaSession<T>(
  connection: AcumaticaConnectionInfo,
  fn: (api: AcumaticaApi) => Promise<T>,
  options: AcumaticaSessionOptions,
): Promise<T> {
  const session = createSession(connection, options);
  await session.login();
  try {
    if (options.verifyEndpoint !== false) await session.verifyEndpoint();
    return await fn(session.api);
  } finally {
    await session.logout();
  }
}

type Outcome<T> =
  | { kind: "ok"; value: T }
  | { kind: "network"; error: unknown }
  | { kind: "unauthenticated" }
  | { kind: "error"; status: number; body: ErrorBody };

function createSession(connection: AcumaticaConnectionInfo, options: AcumaticaSessionOptions) {
  const clock = options.clock ?? realClock;
  const maxAttempts = options.maxAttempts ?? 5;
  // Generous: one inquiry answers every warehouse row of a 100,000-item catalog.
  const timeoutMs = options.timeoutMs ?? 120_000;
  const slots = createSemaphore(Math.max(1, options.maxConcurrent ?? 4));
  const stats = options.stats ?? newAcumaticaStats();
  const instance = connection.instanceUri.trim().replace(/\/+$/, "");
  const endpointUrl = `${instance}/entity/${encodeURIComponent(connection.endpointName)}/${encodeURIComponent(connection.apiVersion)}`;
  const cookies = new Map<string, string>();
  let loggedIn = false;
  // After logout, a straggling call must not log in again (that seat would never be freed).
  let closed = false;

  async function wait(milliseconds: number) {
    stats.waitedMs += milliseconds;
    await clock.sleep(milliseconds);
  }

  /** One request inside a concurrency slot; the body is consumed before the slot is freed. */
  async function attempt<T>(
    request: { method: string; url: string; body: string | undefined },
    consume: (response: Response) => Promise<T>,
  ): Promise<Outcome<T>> {
    const { method, url, body } = request;
    return slots.run(async () => {
      let response: Response;
      try {
        stats.calls += 1;
        response = await options.fetch(url, {
          method,
          headers: {
            Accept: "application/json",
            ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
            ...(cookies.size > 0 ? { Cookie: cookieHeader(cookies) } : {}),
          },
          body,
          signal: deadline(timeoutMs),
        });
      } catch (error) {
        if (error instanceof OutboundRefusedError) throw refused(error);
        return { kind: "network", error };
      }
      remember(response, cookies);
      if (response.ok) {
        try {
          return { kind: "ok", value: await consume(response) };
        } catch (error) {
          // A connection dropped mid-body is worth a retry; a body we cannot parse is not.
          if (error instanceof TypeError || isTimeout(error)) return { kind: "network", error };
          throw error;
        }
      }
      if (response.status === 401) {
        await response.body?.cancel();
        return { kind: "unauthenticated" };
      }
      if (response.status >= 300 && response.status < 400) {
        await response.body?.cancel();
        const location = response.headers.get("Location") ?? "another address";
        throw new AcumaticaError(
          `the instance redirected to ${location}; check the instance URL`,
          "not-found",
        );
      }
      return { kind: "error", status: response.status, body: await readErrorBody(response) };
    });
  }

  function unreachable(error: unknown, tries: number): AcumaticaError {
    return isTimeout(error)
      ? new AcumaticaError(
          `unreachable host: ${instance} did not answer within ${Math.round(timeoutMs / 1000)} s (${tries} attempts)`,
          "unreachable",
        )
      : new AcumaticaError(`unreachable host: ${instance} (${networkReason(error)})`, "unreachable");
  }

  async function login(): Promise<void> {
    cookies.clear();
    const body = JSON.stringify({
      name: connection.username,
      password: connection.password,
      tenant: connection.company,
    });
    for (let tries = 1; ; tries += 1) {
      const outcome = await attempt(
        { method: "POST", url: `${instance}/entity/auth/login`, body },
        async (response) => {
          await response.body?.cancel();
        },
      );
      if (outcome.kind === "ok") {
        loggedIn = true;
        stats.logins += 1;
        return;
      }
      const retryable =
        outcome.kind === "network" ||
        (outcome.kind === "error" &&
          (isTransient(outcome.status, outcome.body) ||
            (outcome.status === 429 && !isLoginLimit(429, outcome.body))));
      if (retryable && tries < maxAttempts) {
        stats.retries += 1;
        await wait(backoffMs(tries));
        continue;
      }
      if (outcome.kind === "network") throw unreachable(outcome.error, tries);
      if (outcome.kind === "unauthenticated")
        throw new AcumaticaError("invalid credentials", "invalid-credentials");
      throw loginFailure(outcome.status, outcome.body, connection.company);
    }
  }

  async function logout(): Promise<void> {
    closed = true;
    if (!loggedIn) return;
    for (let tries = 1; tries <= 3; tries += 1) {
      try {
        stats.calls += 1;
        const response = await options.fetch(`${instance}/entity/auth/logout`, {
          method: "POST",
          headers: { Cookie: cookieHeader(cookies) },
          body: "",
          signal: deadline(15_000),
        });
        await response.body?.cancel();
        if (response.ok || response.status === 401) {
          loggedIn = false;
          stats.logouts += 1;
          return;
        }
      } catch {
        // tried again below
      }
      await wait(backoffMs(tries - 1, 200));
    }
    stats.logoutFailures += 1;
  }

  /** Any call: retries transient failures, logs in again once if the session expired. */
  async function call<T>(
    request: { method: string; url: string; payload: unknown; what: string },
    consume: (response: Response) => Promise<T>,
  ): Promise<T> {
    const { method, url, payload, what } = request;
    const body = payload === undefined ? undefined : JSON.stringify(payload);
    let relogged = false;
    for (let tries = 1; ; tries += 1) {
      const outcome = await attempt({ method, url, body }, consume);
      if (outcome.kind === "ok") return outcome.value;
      if (outcome.kind === "unauthenticated") {
        if (closed) throw new AcumaticaError("the session was already closed", "protocol");
        if (relogged) throw new AcumaticaError("the session was refused right after logging in", "protocol");
        relogged = true;
        await login();
        continue;
      }
      const retryable =
        outcome.kind === "network" || outcome.status === 429 || isTransient(outcome.status, outcome.body);
      if (retryable && tries < maxAttempts) {
        stats.retries += 1;
        await wait(backoffMs(tries));
        continue;
      }
      if (outcome.kind === "network") throw unreachable(outcome.error, tries);
      throw callFailure(outcome.status, outcome.body, what);
    }
  }

  async function verifyEndpoint(): Promise<void> {
    const listed = await call(
      { method: "GET", url: `${instance}/entity`, payload: undefined, what: "the endpoint list" },
      readJson,
    );
    const endpoints = endpointsOf(listed);
    const wanted = connection.endpointName.toLowerCase();
    const sameName = endpoints.filter((endpoint) => endpoint.name.toLowerCase() === wanted);
    if (sameName.some((endpoint) => endpoint.version === connection.apiVersion)) return;
    if (sameName.length === 0) {
      const names = [...new Set(endpoints.map((endpoint) => endpoint.name))].join(", ");
      throw new AcumaticaError(
        `unknown endpoint "${connection.endpointName}" (this instance offers ${names || "none"})`,
        "unknown-endpoint",
      );
    }
    const versions = sameName.map((endpoint) => endpoint.version).join(", ");
    throw new AcumaticaError(
      `unknown endpoint version: ${connection.endpointName}/${connection.apiVersion} is not offered by this instance (it offers ${versions})`,
      "unknown-endpoint",
    );
  }

  const url = (path: string, query: Query = {}) => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query))
      if (value !== undefined) params.set(name, String(value));
    const text = params.toString();
    return `${endpointUrl}/${path.replace(/^\/+/, "")}${text ? `?${text}` : ""}`;
  };
  const what = (path: string) => `${connection.endpointName}/${connection.apiVersion}/${path.split("?")[0]}`;

  const api: AcumaticaApi = {
    endpointUrl,
    stats,
    get: (path, query) =>
      unchecked(
        call({ method: "GET", url: url(path, query), payload: undefined, what: what(path) }, readJson),
      ),
    put: (path, query, body) =>
      unchecked(call({ method: "PUT", url: url(path, query), payload: body, what: what(path) }, readJson)),
    stream: ({ method, path, query, body }, consume) =>
      call({ method, url: url(path, query), payload: body, what: what(path) }, async (response) => {
        if (!response.body) throw new AcumaticaError(`${what(path)} answered without a body`, "protocol");
        return consume(response.body);
      }),
  };

  return { api, login, logout, verifyEndpoint };
}

/** JSON from Acumatica is not validated here: the caller names the shape it expects and checks it. */
function unchecked<T>(value: Promise<unknown>): Promise<T> {
  return value as Promise<T>;
}

async function readJson(response: Response): Promise<unknown> {
  const body = await readJsonBody(response);
  if (body === undefined)
    throw new AcumaticaError(
      `Acumatica answered HTTP ${response.status} with a body that is not JSON`,
      "protocol",
    );
  return body;
}

/** `{version, endpoints: [...]}` on current builds, a bare array on older ones. */
function endpointsOf(listed: unknown): EndpointInfo[] {
  const rows = Array.isArray(listed) ? listed : (listed as { endpoints?: unknown } | null)?.endpoints;
  if (!Array.isArray(rows)) return [];
  return rows.flatMap((row) => {
    const { name, version } = (row ?? {}) as { name?: unknown; version?: unknown };
    return typeof name === "string" && typeof version === "string" ? [{ name, version }] : [];
  });
}

function refused(error: OutboundRefusedError): AcumaticaError {
  return error.kind === "unresolvable"
    ? new AcumaticaError(`unreachable host: ${error.message}`, "unreachable")
    : new AcumaticaError(`the instance address is not allowed: ${error.message}`, "refused");
}
