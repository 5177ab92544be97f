import { lookup } from "node:dns/promises";
import { connect as connectTcp, type Socket } from "node:net";
import { Duplex } from "node:stream";
import { connect as connectTls } from "node:tls";
import { ApiError, createApiClient } from "@stockbridge/shared";
import { type AppDeps, createApp } from "../src/app.ts";
import { parseConfig } from "../src/config.ts";
import { openDatabase } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { createJsonLogger } from "../src/observability/log.ts";
import { createPinnedFetch, type OpenConnection } from "../src/security/pinned-fetch.ts";

export const TEST_JWT_SECRET = "test-secret-that-is-long-enough-0123456789";
/** One 32-byte AES key (`id:base64`), so connection secrets can be sealed in tests. */
export const TEST_ENCRYPTION_KEYS = "test1:dGVzdC1rZXktb2YtMzItYnl0ZXMtZm9yLWFlcy0yNTY=";

/** DNS for the outbound guard in tests: every address the system resolver knows. */
export async function lookupAll(hostname: string): Promise<string[]> {
  const found = await lookup(hostname, { all: true });
  return found.map((entry) => entry.address);
}

/**
 * What main.ts does with Deno sockets, done with Node's for tests under vitest: TCP to the checked
 * address, TLS verified against the URL's host name (`ca` adds a test authority to Node's roots).
 */
export function openNodeConnection(options: { ca?: string } = {}): OpenConnection {
  return ({ address, port, tlsHostname }) =>
    new Promise((resolve, reject) => {
      const socket: Socket = tlsHostname
        ? connectTls({
            host: address,
            port,
            servername: tlsHostname,
            ca: options.ca,
            ALPNProtocols: ["http/1.1"],
          })
        : connectTcp({ host: address, port });
      socket.once("error", reject);
      socket.once(tlsHostname ? "secureConnect" : "connect", () => {
        socket.off("error", reject);
        const { readable, writable } = Duplex.toWeb(socket);
        resolve({
          readable: readable as ReadableStream<Uint8Array>,
          writable: writable as WritableStream<Uint8Array>,
          close: () => socket.destroy(),
        });
      });
    });
}

/** The app's outbound HTTP in tests: the runtime's fetch for IP literals, pinned sockets for names. */
export const testPinnedFetch = createPinnedFetch({
  fetch: (input, init) => fetch(input, init),
  open: openNodeConnection(),
});

/** A controllable clock: tests move time instead of waiting for it. */
export function createTestClock(start = new Date("2026-11-21T10:00:00Z")) {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance(milliseconds: number) {
      current += milliseconds;
    },
  };
}

/**
 * Billing counts as configured (the subscription gate denies everyone when no Stripe key is set),
 * but points at a closed loopback port, so no test reaches Stripe by accident. Billing tests pass
 * the sandbox's URL; `STRIPE_SECRET_KEY: ""` gives an app without billing.
 */
const UNREACHABLE_STRIPE = {
  STRIPE_SECRET_KEY: "sk_test_edge_tests",
  STRIPE_API_URL: "http://127.0.0.1:9",
  STRIPE_WEBHOOK_SECRET: "whsec_edge_tests",
};

/**
 * The real app on a real (in-memory) libSQL database with the real migrations. Password hashing
 * uses fewer PBKDF2 rounds than production so a suite of registrations stays fast; the format and
 * code path are the same.
 */
export async function createTestApp(options: { env?: Record<string, string>; deps?: Partial<AppDeps> } = {}) {
  const db = openDatabase(":memory:");
  await migrate(db);
  const clock = createTestClock();
  const config = parseConfig({
    JWT_SECRET: TEST_JWT_SECRET,
    PASSWORD_ITERATIONS: "1000",
    ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
    ...UNREACHABLE_STRIPE,
    ...options.env,
  });
  // Every JSON line the app logs (access lines included), for tests to read instead of stdout.
  const logLines: string[] = [];
  const app = createApp({
    config,
    db,
    now: clock.now,
    remoteAddress: () => "203.0.113.7",
    log: () => {},
    logger: createJsonLogger((line) => logLines.push(line), clock.now),
    resolveHost: lookupAll,
    fetch: testPinnedFetch,
    ...options.deps,
  });

  function request(
    path: string,
    init: { method?: string; token?: string; body?: unknown; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { ...init.headers };
    if (init.token) headers.Authorization = `Bearer ${init.token}`;
    if (init.body !== undefined) headers["Content-Type"] = "application/json";
    return app.request(path, {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      headers,
      body:
        init.body === undefined
          ? undefined
          : typeof init.body === "string"
            ? init.body
            : JSON.stringify(init.body),
    });
  }

  /** The shared typed client, speaking to the in-process app. */
  function client(token?: string) {
    return createApiClient({
      baseUrl: "http://app.test/api",
      getToken: () => token ?? null,
      fetch: async (input, init) => app.request(String(input), init),
    });
  }

  let counter = 0;
  async function registerUser(overrides: Partial<{ name: string; email: string; password: string }> = {}) {
    counter += 1;
    const body = {
      name: "Test User",
      email: `user${counter}-${crypto.randomUUID().slice(0, 8)}@example.com`,
      password: "Passw0rd",
      ...overrides,
    };
    const result = await client().call("register", { body });
    return { ...result, password: body.password, email: body.email };
  }

  return { app, db, clock, config, request, client, registerUser, logLines };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/**
 * Gives a user an active subscription by writing the row billing keeps, so tests of "subscriber"
 * routes don't have to drive a Stripe checkout first.
 */
export async function grantSubscription(db: TestApp["db"], userId: string, status = "active") {
  await db.execute({
    sql: `INSERT INTO subscriptions (user_id, subscription_id, customer_id, plan_id, status, current_period_end, cancel_at_period_end, updated_at)
          VALUES (?, ?, ?, 'price_test', ?, '2099-01-01T00:00:00.000Z', 0, '2026-01-01T00:00:00.000Z')
          ON CONFLICT(user_id) DO UPDATE SET status = excluded.status`,
    args: [userId, `sub_${userId}`, `cus_${userId}`, status],
  });
}

/** The ApiError a call rejects with; throws (failing the test) when it resolves or rejects otherwise. */
export async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}
