import { contract, type EndpointName } from "@stockbridge/shared";
import { describe, expect, it } from "vitest";
import { createTestApp, grantSubscription } from "./helpers.ts";

// "No input a user can send produces a 500": every endpoint of the contract, signed in with an active
// subscription, gets hostile bodies, queries and path parameters. Outside systems are not configured,
// so nothing here may reach one; answers must be a clear 4xx (or 503 where billing is not configured).
const HOSTILE_BODIES: unknown[] = [
  "not json",
  "[]",
  "null",
  "42",
  '"text"',
  JSON.stringify({ __proto__: { admin: true }, constructor: { prototype: {} } }),
  JSON.stringify({
    email: ["a"],
    password: { $gt: "" },
    name: null,
    priceId: 5,
    token: 1,
    syncOptions: "yes",
  }),
  JSON.stringify({ mappingIds: "x", shopifyVariantId: {}, acumaticaProductId: [], schedule: [], status: 7 }),
  JSON.stringify({ name: "x".repeat(100_000), storeName: "../../etc", instanceUri: "file:///etc/passwd" }),
  JSON.stringify({ syncOptions: { price: "true", quantity: 1 }, dryRun: "no", cancelAtPeriodEnd: "false" }),
];
const HOSTILE_QUERIES = [
  "?page=-1&limit=0",
  "?page=abc&limit=1e9",
  "?page=1.5&limit=NaN&sortBy=sku;DROP TABLE users&sortDirection=sideways",
  "?search=%25%27%22%3B--&page=999999999",
  `?search=${"x".repeat(300)}`,
  "?page[]=1&limit[a]=2",
];
const HOSTILE_IDS = [
  "..%2F..%2Fetc",
  "%00",
  "x".repeat(200),
  "' OR 1=1 --",
  "00000000-0000-0000-0000-000000000000",
];

function pathFor(path: string, id: string): string {
  return `/api${path.replace(/:id/g, id)}`;
}

describe("hostile input", () => {
  const names = Object.keys(contract) as EndpointName[];

  it.each(names)("never answers 500 on %s", async (name) => {
    const endpoint = contract[name];
    const { request, registerUser, db } = await createTestApp();
    const user = await registerUser();
    await grantSubscription(db, user.user._id);
    const ids = endpoint.path.includes(":id") ? HOSTILE_IDS : ["-"];
    for (const id of ids) {
      const base = pathFor(endpoint.path, id);
      const attempts: { path: string; body?: unknown }[] = [];
      if (endpoint.method === "GET" || endpoint.method === "DELETE") {
        for (const query of ["", ...HOSTILE_QUERIES]) attempts.push({ path: base + query });
      } else {
        for (const body of HOSTILE_BODIES) attempts.push({ path: base, body });
      }
      for (const attempt of attempts) {
        const response = await request(attempt.path, {
          method: endpoint.method,
          token: user.token,
          body: attempt.body,
        });
        expect(
          response.status,
          `${endpoint.method} ${attempt.path} ${String(attempt.body).slice(0, 80)}`,
        ).not.toBe(500);
        expect(response.status).toBeLessThan(600);
        const answer = await response.json().catch(() => null);
        if (response.status >= 400)
          expect(typeof answer?.message, `${endpoint.method} ${attempt.path} has a message`).toBe("string");
      }
    }
  });

  it("answers a malformed Authorization header with 401, not 500", async () => {
    const { request } = await createTestApp();
    for (const header of [
      "Bearer",
      "Bearer ",
      "Bearer a.b",
      "Bearer ....",
      "Basic abc",
      `Bearer ${"x".repeat(5000)}`,
    ]) {
      const response = await request("/api/auth/me", { headers: { Authorization: header } });
      expect(response.status).toBe(401);
    }
  });
});
