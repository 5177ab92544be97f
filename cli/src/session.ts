import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ApiClient, createApiClient, isRecord } from "@stockbridge/shared";
import { usageError } from "./errors.ts";
import type { CliIo } from "./io.ts";
import { type Answer, createSessionFetch, isPersonalToken, type SessionToken } from "./session-fetch.ts";

export const DEFAULT_API_URL = "http://127.0.0.1:8000";
const CREDENTIALS_FILE = "credentials.json";

/** What `login` saves: the token and the API it belongs to (a token is useless elsewhere). */
export interface Credentials {
  apiUrl: string;
  token: string;
  email: string;
  savedAt: string;
}

/** `$STOCKBRIDGE_CONFIG_DIR`, else `$XDG_CONFIG_HOME/stockbridge`, else `~/.config/stockbridge`. */
export function configDir(io: Pick<CliIo, "env" | "homeDir">): string {
  const explicit = io.env.STOCKBRIDGE_CONFIG_DIR?.trim();
  if (explicit) return explicit;
  const xdg = io.env.XDG_CONFIG_HOME?.trim();
  return join(xdg || join(io.homeDir, ".config"), "stockbridge");
}

export function credentialsPath(io: Pick<CliIo, "env" | "homeDir">): string {
  return join(configDir(io), CREDENTIALS_FILE);
}

/** The saved credentials, or null when there are none (or the file is not ours to understand). */
function readCredentials(io: Pick<CliIo, "env" | "homeDir">): Credentials | null {
  let text: string;
  try {
    text = readFileSync(credentialsPath(io), "utf8");
  } catch {
    return null;
  }
  try {
    const value: unknown = JSON.parse(text);
    if (!isRecord(value)) return null;
    const { apiUrl, token, email, savedAt } = value;
    if (typeof apiUrl !== "string" || typeof token !== "string" || !token) return null;
    return {
      apiUrl,
      token,
      email: typeof email === "string" ? email : "",
      savedAt: typeof savedAt === "string" ? savedAt : "",
    };
  } catch {
    return null;
  }
}

/** Written to a temp file then renamed, readable by the owner only (0600) — it holds a bearer token. */
export function saveCredentials(io: Pick<CliIo, "env" | "homeDir">, credentials: Credentials): string {
  const dir = configDir(io);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, CREDENTIALS_FILE);
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  // The mode above applies only to a new file; a leftover temp file keeps its own, so set it again.
  chmodSync(temp, 0o600);
  renameSync(temp, path);
  return path;
}

export function removeCredentials(io: Pick<CliIo, "env" | "homeDir">): void {
  rmSync(credentialsPath(io), { force: true });
}

/** An http(s) origin with an optional base path, without a trailing slash or `/api`; else a usage error. */
export function parseApiUrl(text: string, source = "--api"): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw usageError(`${source} must be an http:// or https:// URL (got "${text}")`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw usageError(`${source} must be an http:// or https:// URL (got "${text}")`);
  }
  if (url.search || url.hash)
    throw usageError(`${source} must not carry a query or fragment (got "${text}")`);
  const path = url.pathname.replace(/\/+$/, "").replace(/\/api$/, "");
  return `${url.origin}${path}`;
}

export interface Session {
  apiUrl: string;
  client: ApiClient;
  /** Where the token came from: `STOCKBRIDGE_TOKEN`, the saved credentials, or nowhere. */
  tokenSource: "env" | "file" | null;
  hasToken: boolean;
  /** The token is a personal API token (`sbk_`): never refreshed, and a 401 for it is final. */
  personalToken: boolean;
  /** The X-Request-Id of the latest answer, for error reports. */
  lastRequestId(): string | null;
}

/**
 * The API to talk to and the token to send. The URL comes from `--api`, `STOCKBRIDGE_API_URL`, the
 * saved credentials, then the default; a saved token is sent only to the URL it was issued by.
 * `STOCKBRIDGE_TOKEN` is sent as it is (a personal API token or a session token) and wins over the
 * saved one.
 */
export function openSession(
  io: CliIo,
  options: { api?: string | undefined; onAnswer?: (answer: Answer) => void },
): Session {
  const saved = readCredentials(io);
  const fromEnv = io.env.STOCKBRIDGE_API_URL?.trim();
  const apiUrl =
    options.api ??
    (fromEnv ? parseApiUrl(fromEnv, "STOCKBRIDGE_API_URL") : undefined) ??
    saved?.apiUrl ??
    DEFAULT_API_URL;
  const envToken = io.env.STOCKBRIDGE_TOKEN?.trim();
  const fileToken = saved && saved.apiUrl === apiUrl ? saved.token : null;
  const tokenSource = envToken ? "env" : fileToken ? "file" : null;
  const token: SessionToken = {
    value: envToken || fileToken || null,
    refused: false,
    save(fresh) {
      // A refreshed session token replaces the saved one; one from the environment lives in memory.
      if (tokenSource === "file" && saved)
        saveCredentials(io, { ...saved, token: fresh, savedAt: nowIso(io) });
    },
  };
  const transport = createSessionFetch({
    apiUrl,
    token,
    now: io.now ?? Date.now,
    onAnswer: options.onAnswer,
  });
  const client = createApiClient({
    baseUrl: `${apiUrl}/api`,
    getToken: () => token.value,
    fetch: transport.fetch,
    // Spec: a 401 removes the stored token; here only once the server also refused to refresh it.
    // One from the environment is not ours to remove.
    onUnauthorized: () => {
      if (tokenSource === "file" && token.refused) removeCredentials(io);
    },
  });
  return {
    apiUrl,
    client,
    tokenSource,
    hasToken: token.value !== null,
    personalToken: token.value !== null && isPersonalToken(token.value),
    lastRequestId: transport.lastRequestId,
  };
}

/** The shared typed client for `{apiUrl}/api` without a session (sign-in). */
export function apiClient(apiUrl: string, token: string | null): ApiClient {
  return createApiClient({ baseUrl: `${apiUrl}/api`, getToken: () => token });
}

function nowIso(io: Pick<CliIo, "now">): string {
  return new Date((io.now ?? Date.now)()).toISOString();
}
