import { ApiError, createApiClient, isRecord, PERSONAL_TOKEN_PREFIX } from "@stockbridge/shared";

/** One answer from the API, as `--verbose` reports it. */
export interface Answer {
  method: string;
  path: string;
  status: number;
  requestId: string | null;
}

/** The bearer token a session sends, kept current by `createSessionFetch`. */
export interface SessionToken {
  value: string | null;
  /** Keeps a refreshed token (the credentials file); STOCKBRIDGE_TOKEN's is kept in memory only. */
  save(token: string): void;
  /** The server refused to refresh it: the session is over, and only then may the token be forgotten. */
  refused: boolean;
}

export interface SessionFetch {
  fetch: typeof fetch;
  /** The X-Request-Id of the latest answer (the one an error report names). */
  lastRequestId(): string | null;
}

/**
 * The fetch under the CLI's API client. A call that carries the session token first refreshes it
 * when less than a quarter of its lifetime is left (or it has expired: the server refreshes within a
 * grace period), and once more after a 401 (the local clock may run behind the server's); then the
 * call is sent again with the new token. A long `jobs wait` thus outlives the token it started with.
 */
export function createSessionFetch(options: {
  apiUrl: string;
  token: SessionToken;
  now: () => number;
  onAnswer?: (answer: Answer) => void;
}): SessionFetch {
  const { token } = options;
  let lastRequestId: string | null = null;
  let refreshing: Promise<boolean> | null = null;

  async function send(url: string, init: RequestInit | undefined): Promise<Response> {
    // An unanswered request has no id: an error report must not name the previous answer's.
    lastRequestId = null;
    const response = await fetch(url, init);
    lastRequestId = response.headers.get("x-request-id");
    const { pathname, search } = new URL(url);
    options.onAnswer?.({
      method: init?.method ?? "GET",
      path: `${pathname}${search}`,
      status: response.status,
      requestId: lastRequestId,
    });
    return response;
  }

  const refresher = createApiClient({
    baseUrl: `${options.apiUrl}/api`,
    getToken: () => null,
    fetch: (input, init) => send(String(input), init),
  });

  /** True when a new token is in place. Concurrent callers share one refresh. */
  function refresh(): Promise<boolean> {
    refreshing ??= (async () => {
      const stale = token.value;
      // A personal API token has no session to refresh: the server's 401 for it is final.
      if (!stale || token.refused || isPersonalToken(stale)) return false;
      try {
        const { token: fresh } = await refresher.call("refresh", { body: { token: stale } });
        token.value = fresh;
        token.save(fresh);
        return true;
      } catch (error) {
        // Only the server saying no ends the session; an unreachable server leaves it for the next try.
        if (error instanceof ApiError && error.status === 401) token.refused = true;
        return false;
      }
    })().finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  const sessionFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = String(input);
    const headers = new Headers(init?.headers);
    if (!headers.has("authorization") || !token.value) return send(url, init);
    if (isDue(token.value, options.now())) await refresh();
    const withToken = () => {
      headers.set("authorization", `Bearer ${token.value}`);
      return { ...init, headers };
    };
    const response = await send(url, withToken());
    if (response.status !== 401 || !(await refresh())) return response;
    return send(url, withToken());
  };
  return { fetch: sessionFetch, lastRequestId: () => lastRequestId };
}

/** A personal API token (`sbk_...`, from Settings > API Tokens or `tokens create`), not a session JWT. */
export function isPersonalToken(token: string): boolean {
  return token.startsWith(PERSONAL_TOKEN_PREFIX);
}

/**
 * True when a session token (a JWT) has less than a quarter of its lifetime left. The claims are
 * read, not verified: the server does that; here they only say when to ask for a new token. A token
 * that is not a JWT (a personal API token) is never due.
 */
function isDue(token: string, nowMs: number): boolean {
  const claims = readClaims(token);
  if (!claims) return false;
  const lifetimeMs = (claims.exp - (claims.iat ?? claims.exp - 3_600)) * 1000;
  return claims.exp * 1000 - nowMs < lifetimeMs / 4;
}

function readClaims(token: string): { exp: number; iat: number | null } | null {
  const payload = token.split(".")[1];
  if (token.split(".").length !== 3 || !payload) return null;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    if (!isRecord(claims)) return null;
    const { exp, iat } = claims;
    if (typeof exp !== "number") return null;
    return { exp, iat: typeof iat === "number" ? iat : null };
  } catch {
    return null;
  }
}
