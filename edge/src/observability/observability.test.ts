import { SANDBOX_DEMO } from "@stockbridge/shared";
import { afterEach, describe, expect, it } from "vitest";
import { type ConnectedApp, createConnectedApp } from "../../testing/connectors-harness.ts";
import { createTestApp, testPinnedFetch } from "../../testing/helpers.ts";
import { createApp } from "../app.ts";
import { MIGRATIONS } from "../db/migrations/index.ts";
import { createJsonLogger } from "./log.ts";

const silent = createJsonLogger(() => {});

const METRICS_TOKEN = "metrics-token-for-tests-0123456789";

function entries(lines: string[]): Record<string, unknown>[] {
  return lines.map((line) => JSON.parse(line));
}

describe("GET /api/health", () => {
  it("reports the database, the schema version, the last cron tick and the queue", async () => {
    const { request, app, clock } = await createTestApp();
    await app.tick();
    const response = await request("/api/health");
    expect(response.status).toBe(200);
    expect((await response.json()).data).toEqual({
      status: "ok",
      version: expect.any(String),
      db: "ok",
      schemaVersion: Math.max(...MIGRATIONS.map((migration) => migration.version)),
      lastTickAt: clock.now().toISOString(),
      oldestQueuedJobAgeSeconds: null,
    });
  });

  it("answers 503 naming the cron when it has not ticked for more than three minutes", async () => {
    const { request, app, clock } = await createTestApp();
    await app.tick();
    clock.advance(3 * 60_000 + 1_000);
    const response = await request("/api/health");
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      code: "UNHEALTHY",
      message: "Unhealthy: cron late",
      checks: { db: "ok", schema: "ok", cron: "late", queue: "ok" },
    });
  });

  it("gives a process started on a database with an old last tick three minutes before calling the cron late", async () => {
    const { request, db, clock, config } = await createTestApp();
    await db.execute({
      sql: "INSERT INTO cron_ticks (name, ticked_at) VALUES ('stockbridge-schedules', ?)",
      args: [new Date(clock.now().getTime() - 60 * 60_000).toISOString()],
    });
    // A restart on this database: the tick an hour ago is not this process's fault yet.
    const restarted = createApp({
      config,
      db,
      now: clock.now,
      fetch: testPinnedFetch,
      log: () => {},
      logger: silent,
    });
    expect((await restarted.request("/api/health")).status).toBe(200);
    clock.advance(3 * 60_000 + 1_000);
    expect((await restarted.request("/api/health")).status).toBe(503);
    expect((await request("/api/health")).status).toBe(503);
  });

  it("answers 503 when the database schema is behind this version", async () => {
    const { request, db, app } = await createTestApp();
    await app.tick();
    await db.execute(
      "DELETE FROM schema_migrations WHERE version = (SELECT MAX(version) FROM schema_migrations)",
    );
    const response = await request("/api/health");
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      message: "Unhealthy: schema behind",
      checks: { schema: "behind" },
    });
  });

  it("answers 503 with the oldest queued job's age when a job waits in the queue for over ten minutes", async () => {
    const { request, db, app, clock, registerUser } = await createTestApp();
    const user = await registerUser();
    // Queued behind the user's sync that another instance runs (its lease is live for an hour).
    const hourFromNow = new Date(clock.now().getTime() + 3_600_000).toISOString();
    await db.execute({
      sql: `INSERT INTO jobs (id, user_id, kind, status, created_at, lease_until, owner, attempts)
            VALUES ('job-0', ?, 'sync', 'running', ?, ?, 'another-instance', 1)`,
      args: [user.user._id, clock.now().toISOString(), hourFromNow],
    });
    await db.execute({
      sql: "INSERT INTO jobs (id, user_id, kind, status, created_at) VALUES ('job-1', ?, 'sync', 'queued', ?)",
      args: [user.user._id, clock.now().toISOString()],
    });
    clock.advance(11 * 60_000);
    await app.tick();
    const response = await request("/api/health");
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      message: "Unhealthy: queue stuck",
      oldestQueuedJobAgeSeconds: 660,
      checks: { queue: "stuck", cron: "ok" },
    });
  });

  it("answers 503 DB_UNAVAILABLE when the database does not answer", async () => {
    const { request, db } = await createTestApp();
    db.close();
    const response = await request("/api/health");
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ code: "DB_UNAVAILABLE", checks: { db: "unavailable" } });
  });
});

describe("GET /api/metrics", () => {
  it("is open locally and counts requests by route template and status, with a latency histogram", async () => {
    const { request, registerUser } = await createTestApp();
    const user = await registerUser();
    await request("/api/jobs/job-that-does-not-exist", { token: user.token });
    await request("/api/health");
    const response = await request("/api/metrics");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const text = await response.text();
    expect(text).toContain(
      'stockbridge_http_requests_total{method="GET",route="/api/jobs/:id",status="404"} 1',
    );
    expect(text).toContain(
      'stockbridge_http_requests_total{method="POST",route="/api/auth/register",status="200"} 1',
    );
    expect(text).toContain(
      'stockbridge_http_request_duration_seconds_bucket{method="GET",route="/api/health",le="+Inf"} 1',
    );
    expect(text).toContain(
      'stockbridge_http_request_duration_seconds_count{method="GET",route="/api/health"} 1',
    );
    // Raw paths never become labels.
    expect(text).not.toContain("job-that-does-not-exist");
    expect(text).toContain("# TYPE stockbridge_jobs gauge");
    expect(text).toMatch(/stockbridge_sync_items\{outcome="failed"\} 0/);
  });

  it("asks for METRICS_TOKEN in production: 401 without it or with another, 200 with it", async () => {
    const { request } = await createTestApp({
      env: { APP_ENV: "production", LIBSQL_URL: ":memory:", PASSWORD_ITERATIONS: "600000", METRICS_TOKEN },
    });
    expect((await request("/api/metrics")).status).toBe(401);
    const wrong = await request("/api/metrics", { headers: { Authorization: `Bearer ${METRICS_TOKEN}x` } });
    expect(wrong.status).toBe(401);
    const right = await request("/api/metrics", { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(right.status).toBe(200);
    expect(await right.text()).toContain("# TYPE stockbridge_http_requests_total counter");
  });

  it("stays closed in production when no METRICS_TOKEN is configured", async () => {
    const { request } = await createTestApp({
      env: { APP_ENV: "production", LIBSQL_URL: ":memory:", PASSWORD_ITERATIONS: "600000" },
    });
    const response = await request("/api/metrics", {
      headers: { Authorization: "Bearer anything-at-all-here" },
    });
    expect(response.status).toBe(401);
    expect((await response.json()).message).toBe("The metrics are closed: set METRICS_TOKEN to read them");
  });
});

describe("metrics of outside systems", () => {
  let connected: ConnectedApp | undefined;
  afterEach(async () => {
    await connected?.close();
    connected = undefined;
  });

  it("counts Shopify and Acumatica calls by outcome and Shopify's cost points", async () => {
    connected = await createConnectedApp({ size: 20 });
    await connected.connectShopify();
    await connected.connectAcumatica();
    await connected.api.call("testShopify");
    await connected.api.call("testAcumatica");
    const text = await (await connected.request("/api/metrics")).text();
    expect(text).toMatch(/stockbridge_outside_calls_total\{system="shopify",outcome="2xx"\} [1-9]/);
    expect(text).toMatch(/stockbridge_outside_calls_total\{system="acumatica",outcome="2xx"\} [1-9]/);
    expect(text).toMatch(/stockbridge_shopify_cost_points_total [1-9]/);
  });
});

describe("the JSON logger", () => {
  it("writes a secret-looking field as [redacted] at any depth, and a bearer token in text as well", () => {
    const lines: string[] = [];
    const logger = createJsonLogger(
      (line) => lines.push(line),
      () => new Date("2026-01-02T03:04:05.000Z"),
    );
    logger.warn("upstream said: Authorization: Bearer eyJ.secret.part refused", {
      requestId: "r1",
      password: "p4ss",
      accessToken: "shpat_x",
      nested: { Cookie: "sid=1", apiKey: "k", kept: 3 },
      error: new Error("Basic dXNlcjpwYXNz rejected"),
    });
    expect(JSON.parse(lines[0] ?? "")).toEqual({
      time: "2026-01-02T03:04:05.000Z",
      level: "warn",
      message: "upstream said: Authorization: Bearer [redacted] refused",
      requestId: "r1",
      password: "[redacted]",
      accessToken: "[redacted]",
      nested: { Cookie: "[redacted]", apiKey: "[redacted]", kept: 3 },
      error: "Basic [redacted] rejected",
    });
  });
});

describe("logs", () => {
  let connected: ConnectedApp | undefined;
  afterEach(async () => {
    await connected?.close();
    connected = undefined;
  });

  it("writes one JSON access line per request with its route template, status, duration and user", async () => {
    const { request, registerUser, logLines } = await createTestApp();
    const user = await registerUser();
    logLines.length = 0;
    const response = await request("/api/auth/me", {
      token: user.token,
      headers: { "X-Request-Id": "req-42" },
    });
    expect(response.status).toBe(200);
    expect(entries(logLines)).toEqual([
      {
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        level: "info",
        message: "request",
        requestId: "req-42",
        userId: user.user._id,
        method: "GET",
        route: "/api/auth/me",
        status: 200,
        durationMs: expect.any(Number),
      },
    ]);
  });

  it("never writes a password, a session token or a connection secret", async () => {
    connected = await createConnectedApp({ size: 20 });
    const password = "Unusual-Passw0rd-9431";
    const shopifyToken = SANDBOX_DEMO.shopify.accessToken;
    const acumaticaPassword = SANDBOX_DEMO.acumatica.password;
    const registered = await connected.registerUser({ password });
    const signedIn = await connected.client().call("login", { body: { email: registered.email, password } });
    const api = connected.client(signedIn.token);
    await api.call("saveShopify", { body: { ...connected.demoShopify } });
    await api.call("saveAcumatica", { body: { ...connected.demoAcumatica } });
    // A failed sign-in and a request with a token in the query (as EventSource sends it) too.
    await connected
      .client()
      .call("login", { body: { email: registered.email, password: `${password}x` } })
      .catch(() => {});
    await connected.request(`/api/jobs/none/events?token=${signedIn.token}`);
    const written = [...connected.logLines, ...connected.logs].join("\n");
    expect(entries(connected.logLines).filter((entry) => entry.message === "request").length).toBeGreaterThan(
      4,
    );
    for (const secret of [password, signedIn.token, registered.token, shopifyToken, acumaticaPassword]) {
      expect(written).not.toContain(secret);
    }
  });
});
