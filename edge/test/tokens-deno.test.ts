import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startDeno } from "../../scripts/lib.mjs";

// Personal API tokens against the real server under Deno, with requests sent truly in parallel.
describe("personal API tokens on the edge under Deno", () => {
  let server: ChildProcess;
  let origin: string;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "stockbridge-tokens-"));
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    server = await startDeno(
      "edge",
      "edge/main.ts",
      { PORT: String(port), DATA_DIR: dataDir, PASSWORD_ITERATIONS: "1000" },
      `${origin}/api/health`,
    );
  });

  afterAll(() => {
    server?.kill("SIGTERM");
    rmSync(dataDir, { recursive: true, force: true });
  });

  function call(path: string, init: { method?: string; token: string; body?: unknown }) {
    return fetch(`${origin}/api${path}`, {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      headers: { Authorization: `Bearer ${init.token}`, "Content-Type": "application/json" },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  }

  async function register(): Promise<string> {
    const response = await fetch(`${origin}/api/auth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        name: "Token Tester",
        email: `tokens-${randomUUID()}@example.com`,
        password: "Passw0rd",
      }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { data: { token: string } }).data.token;
  }

  it("lets exactly 50 of 60 parallel creates through, and the other 10 answer 409", async () => {
    const session = await register();
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        call("/tokens", { token: session, body: { name: `race ${index}` } }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 200)).toHaveLength(50);
    expect(statuses.filter((status) => status === 409)).toHaveLength(10);
    const listed = (await (await call("/tokens", { token: session })).json()) as { data: unknown[] };
    expect(listed.data).toHaveLength(50);
  });

  it("answers 20 parallel calls with a new token and records its use", async () => {
    const session = await register();
    const created = (await (await call("/tokens", { token: session, body: { name: "busy" } })).json()) as {
      data: { token: string };
    };
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call("/auth/me", { token: created.data.token })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    const listed = (await (await call("/tokens", { token: session })).json()) as {
      data: { lastUsedAt: string | null }[];
    };
    expect(listed.data[0]?.lastUsedAt).toEqual(expect.any(String));
  });

  it("refuses the token on the first request after its revocation was answered", async () => {
    const session = await register();
    const created = (await (await call("/tokens", { token: session, body: { name: "doomed" } })).json()) as {
      data: { token: string; _id: string };
    };
    expect((await call("/auth/me", { token: created.data.token })).status).toBe(200);
    expect((await call(`/tokens/${created.data._id}`, { method: "DELETE", token: session })).status).toBe(
      200,
    );
    const after = await Promise.all(
      Array.from({ length: 5 }, () => call("/auth/me", { token: created.data.token })),
    );
    expect(after.map((answer) => answer.status)).toEqual(Array(5).fill(401));
  });
});
