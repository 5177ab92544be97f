import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EdgeProcess, startEdgeProcess } from "../../testing/deno-harness.ts";

// Personal API tokens against the real server under Deno, with requests sent truly in parallel.
describe("personal API tokens on the edge under Deno", () => {
  let edge: EdgeProcess;
  let origin: string;

  beforeAll(async () => {
    edge = await startEdgeProcess();
    origin = edge.origin;
  });

  afterAll(() => edge?.stop());

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
