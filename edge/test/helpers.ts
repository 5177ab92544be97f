import { createApiClient } from "@stockbridge/shared";
import { createApp, type AppDeps } from "../src/app.ts";
import { parseConfig } from "../src/config.ts";
import { openDatabase } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";

export const TEST_JWT_SECRET = "test-secret-that-is-long-enough-0123456789";

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
 * The real app on a real (in-memory) libSQL database with the real migrations. Password hashing
 * uses fewer PBKDF2 rounds than production so a suite of registrations stays fast; the format and
 * code path are the same.
 */
export async function createTestApp(options: { env?: Record<string, string>; deps?: Partial<AppDeps> } = {}) {
  const db = openDatabase(":memory:");
  await migrate(db);
  const clock = createTestClock();
  const config = parseConfig({ JWT_SECRET: TEST_JWT_SECRET, PASSWORD_ITERATIONS: "1000", ...options.env });
  const app = createApp({ config, db, now: clock.now, remoteAddress: () => "203.0.113.7", log: () => {}, ...options.deps });

  function request(path: string, init: { method?: string; token?: string; body?: unknown; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { ...init.headers };
    if (init.token) headers.Authorization = `Bearer ${init.token}`;
    if (init.body !== undefined) headers["Content-Type"] = "application/json";
    return app.request(path, {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      headers,
      body: init.body === undefined ? undefined : typeof init.body === "string" ? init.body : JSON.stringify(init.body),
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

  return { app, db, clock, config, request, client, registerUser };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;
