import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EdgeProcess, startEdgeProcess } from "../../testing/deno-harness.ts";

// The attempt limits against the real server under Deno, with requests sent truly in parallel:
// behind one trusted proxy (TRUST_PROXY=true, one hop), so each test is its own set of client
// addresses, given as the right-most X-Forwarded-For entry the way that proxy appends it.
describe("attempt limits on the edge under Deno", () => {
  let edge: EdgeProcess;
  let origin: string;

  beforeAll(async () => {
    edge = await startEdgeProcess({ env: { TRUST_PROXY: "true" } });
    origin = edge.origin;
  });

  afterAll(() => edge?.stop());

  function post(path: string, body: unknown, headers: Record<string, string> = {}) {
    return fetch(`${origin}/api${path}`, {
      method: path === "/auth/password" ? "PUT" : "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  }

  /** A client address no other request of this server came from. */
  let addresses = 0;
  function newAddress(): string {
    addresses += 1;
    return `10.${Math.floor(addresses / 250)}.${addresses % 250}.1`;
  }

  async function register(address: string) {
    const body = { name: "Limit Tester", email: `limits-${randomUUID()}@example.com`, password: "Passw0rd" };
    const response = await post("/auth/register", body, { "X-Forwarded-For": address });
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: { token: string } };
    return { ...body, token: data.token };
  }

  /** How many of the answers had each status, e.g. { 401: 5, 429: 25 }. */
  async function statuses(responses: Promise<Response>[]): Promise<Record<number, number>> {
    const counts: Record<number, number> = {};
    for (const response of await Promise.all(responses)) {
      counts[response.status] = (counts[response.status] ?? 0) + 1;
      await response.body?.cancel();
    }
    return counts;
  }

  it("checks 5 of 30 parallel wrong passwords for one account and refuses 25 with 429", async () => {
    const address = newAddress();
    const user = await register(address);
    const answers = await statuses(
      Array.from({ length: 30 }, () =>
        post("/auth/login", { email: user.email, password: "Wrong1pass" }, { "X-Forwarded-For": address }),
      ),
    );
    expect(answers).toEqual({ 401: 5, 429: 25 });

    const limited = await post(
      "/auth/login",
      { email: user.email, password: user.password },
      { "X-Forwarded-For": address },
    );
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await limited.json()).message).toMatch(
      /^Too many sign-in attempts\. Please wait \d+ minutes? and try again\.$/,
    );
  });

  it("signs a colleague in behind the same office address after 40 parallel failures against four accounts", async () => {
    const office = newAddress();
    const victims = await Promise.all([1, 2, 3, 4].map(() => register(office)));
    const colleague = await register(office);
    const answers = await statuses(
      Array.from({ length: 40 }, (_, i) =>
        post(
          "/auth/login",
          { email: victims[i % 4]?.email, password: "Wrong1pass" },
          { "X-Forwarded-For": office },
        ),
      ),
    );

    const signedIn = await post(
      "/auth/login",
      { email: colleague.email, password: colleague.password },
      { "X-Forwarded-For": office },
    );
    expect(signedIn.status).toBe(200);
    // Each victim was checked 5 times from the office; nothing wider applied.
    expect(answers).toEqual({ 401: 20, 429: 20 });
  });

  it("keys on the proxy's entry: forged left-most addresses neither spread a spray nor escape its limit", async () => {
    const attacker = newAddress();
    const answers = await statuses(
      Array.from({ length: 30 }, (_, i) =>
        post(
          "/auth/login",
          { email: `sprayed-${i}-${randomUUID()}@example.com`, password: "Wrong1pass" },
          { "X-Forwarded-For": `${newAddress()}, ${attacker}` },
        ),
      ),
    );
    // 20 distinct failing accounts make the address a sprayer: one check per 5 s from then on.
    expect(answers).toEqual({ 401: 20, 429: 10 });
  });

  it("keeps a victim's address signing in when an attacker names it as the left-most X-Forwarded-For", async () => {
    const victimAddress = newAddress();
    const victim = await register(victimAddress);
    const attacker = newAddress();
    await statuses(
      Array.from({ length: 40 }, (_, i) =>
        post(
          "/auth/login",
          { email: `aimed-${i}-${randomUUID()}@example.com`, password: "Wrong1pass" },
          { "X-Forwarded-For": `${victimAddress}, ${attacker}` },
        ),
      ),
    );

    const signedIn = await post(
      "/auth/login",
      { email: victim.email, password: victim.password },
      { "X-Forwarded-For": victimAddress },
    );
    expect(signedIn.status).toBe(200);
  });

  it("creates 10 of 40 accounts registered in parallel from one address and refuses 30 with 429", async () => {
    const address = newAddress();
    const tag = randomUUID();
    const answers = await statuses(
      Array.from({ length: 40 }, (_, i) =>
        post(
          "/auth/register",
          { name: "Bulk User", email: `bulk-${i}-${tag}@example.com`, password: "Passw0rd" },
          { "X-Forwarded-For": address },
        ),
      ),
    );
    expect(answers).toEqual({ 200: 10, 429: 30 });
  });

  it("checks 5 of 12 parallel wrong current passwords and refuses 7 with 429", async () => {
    const user = await register(newAddress());
    const answers = await statuses(
      Array.from({ length: 12 }, () =>
        post(
          "/auth/password",
          { currentPassword: "Wrong1pass", newPassword: "N3wPassword" },
          { Authorization: `Bearer ${user.token}`, "X-Forwarded-For": newAddress() },
        ),
      ),
    );
    expect(answers).toEqual({ 400: 5, 429: 7 });
  });
});
