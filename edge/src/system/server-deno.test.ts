import { createApiClient } from "@stockbridge/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EdgeProcess, startEdgeProcess } from "../../testing/deno-harness.ts";

// The real thing users run: `deno run edge/main.ts` with a libSQL file, spoken to over HTTP.
describe("the edge under Deno", () => {
  let edge: EdgeProcess;
  let origin: string;

  beforeAll(async () => {
    edge = await startEdgeProcess();
    origin = edge.origin;
  });

  afterAll(() => edge?.stop());

  it("answers health with the migrated database", async () => {
    const response = await fetch(`${origin}/api/health`);
    expect(await response.json()).toEqual({
      data: {
        status: "ok",
        version: expect.any(String),
        db: "ok",
        schemaVersion: expect.any(Number),
        // Deno.cron ticks on the minute: the test may start on either side of one.
        lastTickAt: expect.toBeOneOf([null, expect.any(String)]),
        oldestQueuedJobAgeSeconds: null,
      },
    });
  });

  it("registers, signs in and reads the account over HTTP", async () => {
    const anonymous = createApiClient({ baseUrl: `${origin}/api`, getToken: () => null });
    const registered = await anonymous.call("register", {
      body: { name: "Deno User", email: "deno@example.com", password: "Passw0rd" },
    });
    const signedIn = createApiClient({ baseUrl: `${origin}/api`, getToken: () => registered.token });
    expect((await signedIn.call("me")).user.email).toBe("deno@example.com");
  });

  it("serves the web app shell for app routes and JSON 404 for unknown API paths", async () => {
    const page = await fetch(`${origin}/settings`);
    expect(page.status).toBe(200);
    expect((await page.text()).toLowerCase()).toContain("<!doctype html>");
    const api = await fetch(`${origin}/api/nothing-here`);
    expect(api.status).toBe(404);
    expect((await api.json()).code).toBe("NOT_FOUND");
  });
});
