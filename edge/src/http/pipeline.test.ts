import { describe, expect, it } from "vitest";
import { createTestApp } from "../../testing/helpers.ts";

describe("the HTTP surface", () => {
  it("answers health with the database status and version", async () => {
    const { request } = await createTestApp();
    const response = await request("/api/health");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      data: {
        status: "ok",
        version: "0.0.0",
        db: "ok",
        schemaVersion: expect.any(Number),
        lastTickAt: null,
        oldestQueuedJobAgeSeconds: null,
      },
    });
  });

  it("answers unknown API paths with a JSON 404, never the web app", async () => {
    const { request } = await createTestApp({
      deps: { webAssets: { read: async () => new TextEncoder().encode("<html>") } },
    });
    const response = await request("/api/does-not-exist");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect((await response.json()).code).toBe("NOT_FOUND");
  });

  it("serves the web shell for app routes (SPA fallback)", async () => {
    const files: Record<string, string> = {
      "/index.html": "<html>shell</html>",
      "/assets/app-1.js": "console.log(1)",
    };
    const { request } = await createTestApp({
      deps: {
        webAssets: { read: async (path) => (files[path] ? new TextEncoder().encode(files[path]) : null) },
      },
    });
    const page = await request("/mapping-schedule");
    expect(page.status).toBe(200);
    expect(await page.text()).toBe("<html>shell</html>");
    expect(page.headers.get("cache-control")).toBe("no-cache");
    const asset = await request("/assets/app-1.js");
    expect(asset.headers.get("cache-control")).toContain("immutable");
    expect((await request("/assets/missing.js")).status).toBe(404);
  });

  it("gives every answer a request id and security headers", async () => {
    const { request } = await createTestApp();
    const response = await request("/api/health");
    const id = response.headers.get("x-request-id");
    expect(id).toMatch(/^\S{8,}$/);
    // One id per answer, not one per process.
    expect((await request("/api/health")).headers.get("x-request-id")).not.toBe(id);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(response.headers.get("x-frame-options")).toBe("SAMEORIGIN");
  });

  it("keeps a client's X-Request-Id only when it is 1-64 plain characters, in the header, the error and the log", async () => {
    const { request, registerUser, db, logLines } = await createTestApp();
    const user = await registerUser();
    const errors = () => logLines.map((line) => JSON.parse(line)).filter((entry) => entry.level === "error");
    // A closed database makes every signed-in read fail: the one way to see the id in a 500.
    db.close();
    const failWith = async (id: string) => {
      logLines.length = 0;
      const response = await request("/api/auth/me", { token: user.token, headers: { "X-Request-Id": id } });
      expect(response.status).toBe(500);
      const used = response.headers.get("x-request-id") ?? "";
      expect((await response.json()).message).toBe(
        `Something went wrong on our side (request ${used}). Please try again.`,
      );
      expect(errors()).toEqual([
        expect.objectContaining({
          message: "request failed",
          requestId: used,
          method: "GET",
          path: "/api/auth/me",
        }),
      ]);
      return used;
    };
    const plain = `req-1_${"A".repeat(58)}`;
    expect(await failWith(plain)).toBe(plain);
    for (const hostile of [
      "x".repeat(65),
      "x".repeat(255),
      'abc"def',
      "abc'def",
      "caf\u00e9",
      "a b",
      "a;b=c",
      "<script>",
      "../../x",
      "a\tb",
    ]) {
      const used = await failWith(hostile);
      expect(used, JSON.stringify(hostile)).not.toBe(hostile);
      expect(used).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it("refuses bodies over 1 MB with 413", async () => {
    const { request } = await createTestApp();
    const response = await request("/api/auth/login", {
      body: JSON.stringify({ email: "a".repeat(1_100_000) }),
    });
    expect(response.status).toBe(413);
  });

  it("sends no CORS headers unless origins are configured", async () => {
    const closed = await createTestApp();
    const preflight = await closed.request("/api/health", { headers: { Origin: "https://evil.example" } });
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();

    const open = await createTestApp({ env: { CORS_ORIGINS: "https://app.example" } });
    const allowed = await open.request("/api/health", { headers: { Origin: "https://app.example" } });
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://app.example");
  });

  it("answers 401 with the login message when a protected route gets no token", async () => {
    const { request } = await createTestApp();
    const response = await request("/api/auth/me");
    expect(response.status).toBe(401);
    expect((await response.json()).message).toBe("Please log in to access this service.");
  });

  it("offers the demo connection only in sandbox mode", async () => {
    const plain = await createTestApp();
    expect((await plain.request("/api/sandbox")).status).toBe(404);
    const sandbox = await createTestApp({ env: { SANDBOX_URL: "http://127.0.0.1:8100" } });
    const answer = await (await sandbox.request("/api/sandbox")).json();
    expect(answer.data.acumatica.instanceUri).toBe("http://127.0.0.1:8100/acumatica");
    expect(answer.data.shopify.storeName).toBe("stockbridge-demo");
  });
});
