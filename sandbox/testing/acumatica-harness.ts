import type { QuantityUpdate } from "../src/control.ts";
import { type DemoCatalog, generateCatalog } from "../src/seed/catalog.ts";
import { startSandbox } from "../src/serve-node.ts";
import { cleanupAfterEach } from "./per-test.ts";

export const DEMO = { name: "admin", password: "Sandbox-Passw0rd", tenant: "StockbridgeDemo" };

export interface RunningAcumatica {
  /** `{origin}/acumatica`: what a connection's instanceUri points at. */
  instanceUrl: string;
  /** The catalog the sandbox was seeded with (the generator is deterministic). */
  catalog: DemoCatalog;
  /** `PUT /__control/faults {"acumatica": settings}`; rejects with the control API's message. */
  configure(settings: Record<string, unknown>): Promise<void>;
  /** `POST /__control/acumatica/quantities`; rejects with the control API's message. */
  setQuantities(update: QuantityUpdate): Promise<void>;
  /** `POST /__control/clock {"advanceSeconds"}`. */
  advanceSeconds(seconds: number): Promise<void>;
  /** The `acumatica` part of `GET /__control/state`. */
  state(): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** Starts the whole sandbox over real HTTP and drives the Acumatica side through the control API. */
export async function startAcumatica(
  options: { size?: number; seed?: number } = {},
): Promise<RunningAcumatica> {
  const seed = options.seed ?? 7;
  const size = options.size ?? 60;
  const running = await startSandbox({ seed, size });
  async function control(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${running.origin}/__control${path}`, {
      method,
      headers: { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as { error?: string };
    if (!response.ok) throw new Error(`control ${path} answered ${response.status}: ${json.error}`);
    return json;
  }
  return {
    instanceUrl: `${running.origin}/acumatica`,
    catalog: generateCatalog({ seed, size }),
    configure: async (settings) => {
      await control("PUT", "/faults", { acumatica: settings });
    },
    setQuantities: async (update) => {
      await control("POST", "/acumatica/quantities", update);
    },
    advanceSeconds: async (seconds) => {
      await control("POST", "/clock", { advanceSeconds: seconds });
    },
    state: async () => ((await control("GET", "/state")) as { acumatica: Record<string, unknown> }).acumatica,
    close: () => running.close(),
  };
}

/**
 * For a test file: answers `start()`, a sandbox (see startAcumatica) closed after the test that
 * started it, and `signedIn()`, the same with a client already logged in as the demo user.
 */
export function acumaticaPerTest() {
  const onCleanup = cleanupAfterEach();
  async function start(options: Parameters<typeof startAcumatica>[0] = {}): Promise<RunningAcumatica> {
    const erp = await startAcumatica(options);
    onCleanup(erp.close);
    return erp;
  }
  async function signedIn(options: Parameters<typeof startAcumatica>[0] = {}) {
    const erp = await start(options);
    const client = new AcumaticaClient(erp.instanceUrl);
    await client.login();
    return { erp, client };
  }
  return { start, signedIn };
}

/** A plain-fetch client that keeps cookies the way a connector would (a tiny cookie jar). */
export class AcumaticaClient {
  readonly cookies = new Map<string, string>();

  constructor(readonly instanceUrl: string) {}

  async request(
    method: string,
    path: string,
    options: { json?: unknown; body?: string; headers?: Record<string, string>; signal?: AbortSignal } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { Accept: "application/json", ...options.headers };
    if (this.cookies.size > 0) {
      headers.Cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    }
    let body = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers["Content-Type"] = "application/json";
    }
    const response = await fetch(`${this.instanceUrl}${path}`, {
      method,
      headers,
      body,
      signal: options.signal,
    });
    for (const cookie of response.headers.getSetCookie()) this.store(cookie);
    return response;
  }

  async login(credentials: Record<string, string> = DEMO): Promise<Response> {
    return this.request("POST", "/entity/auth/login", { json: credentials });
  }

  async logout(): Promise<Response> {
    return this.request("POST", "/entity/auth/logout", { headers: { "Content-Length": "0" } });
  }

  /** GET and parse JSON, failing loudly on a non-200 so tests read as behaviour. */
  async getJson<T = unknown>(path: string): Promise<T> {
    const response = await this.request("GET", path);
    if (response.status !== 200)
      throw new Error(`GET ${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as T;
  }

  async putJson<T = unknown>(path: string, json: unknown): Promise<T> {
    const response = await this.request("PUT", path, { json });
    if (response.status !== 200)
      throw new Error(`PUT ${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as T;
  }

  private store(setCookie: string) {
    const [pair = "", ...attributes] = setCookie.split(";");
    const index = pair.indexOf("=");
    const name = pair.slice(0, index).trim();
    const value = pair.slice(index + 1).trim();
    const expires = attributes.find((attribute) => attribute.trim().toLowerCase().startsWith("expires="));
    const expired =
      expires !== undefined && Date.parse(expires.trim().slice(8).replace(/-/g, " ")) < Date.now();
    if (value === "" || expired) this.cookies.delete(name);
    else this.cookies.set(name, value);
  }
}

/** A record as the API prints it: fields are `{ value }` wrappers. */
export type Row = Record<string, { value?: unknown; error?: string } | unknown>;

export function fieldValue(row: Row, field: string): unknown {
  const wrapper = row[field];
  return typeof wrapper === "object" && wrapper !== null && "value" in wrapper ? wrapper.value : undefined;
}

/** Polls until `check` passes (for state that changes while a request is parked in the queue). */
export async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 400; attempt += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`Timed out waiting for ${what}`);
}
