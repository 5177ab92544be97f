import { type Job, SANDBOX_DEMO, type SyncRun } from "@stockbridge/shared";
import { afterEach, describe, expect, it } from "vitest";
import { type DenoEdge, type DenoWorld, startDenoWorld, waitFor } from "../../testing/deno-harness.ts";

let world: DenoWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** A licence refusal in any words Acumatica or the app use for it. */
const LICENCE_ERROR = /licen[cs]e|login limit|API users/i;

/** One POST to the edge, answered as status and body (never thrown, so every answer is looked at). */
async function post(edge: DenoEdge, token: string, path: string, body?: unknown) {
  const response = await fetch(`${edge.origin}/api${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { data?: unknown; message?: string } };
}

// The sandbox's licence has 3 API-user seats (a trial has 2): more sessions at once are refused with
// "API Login Limit". The connection's limit (Max Sessions, default 2) must hold across instances.
describe("Acumatica sessions of one connection", () => {
  it("stay within the connection's limit when 50 single-mapping syncs, tests, a pull and a job arrive at once on two instances", async () => {
    world = await startDenoWorld({ size: 150 });
    const [a, b] = [await world.startEdge(), await world.startEdge()];
    const { token, mappings } = await world.readyUser(a);
    expect(mappings.length).toBeGreaterThanOrEqual(55);
    const syncOptions = { price: true, quantity: true };
    const edgeFor = (index: number) => (index % 2 === 0 ? a : b);

    const [singles, tests, pull, job] = await Promise.all([
      Promise.all(
        mappings
          .slice(0, 50)
          .map((mapping, index) =>
            post(edgeFor(index), token, `/mapping/${mapping._id}/sync`, { syncOptions }),
          ),
      ),
      Promise.all([a, b].map((edge) => post(edge, token, "/users/acumatica/test"))),
      post(a, token, "/acumatica/products/sync"),
      post(b, token, "/mapping/sync", { mappingIds: mappings.slice(50, 55).map((m) => m._id), syncOptions }),
    ]);

    for (const answer of singles) {
      expect(answer.status, answer.body.message).toBe(200);
      const run = answer.body.data as SyncRun;
      for (const result of run.results) expect(result.reason ?? "").not.toMatch(LICENCE_ERROR);
    }
    for (const answer of tests) expect(answer, answer.body.message).toMatchObject({ status: 200 });
    const api = a.api(token);
    for (const started of [pull, job]) {
      expect(started.status, started.body.message).toBe(200);
      const done = await waitFor(api, (started.body.data as { job: Job }).job);
      expect(done.status, done.message ?? "").toBe("succeeded");
    }
    const history = await api.call("executionHistory", { query: { limit: "100" } });
    expect(history.total).toBe(51);
    for (const entry of history.histories) {
      expect(entry.status).toBe("completed");
      for (const failed of entry.failedMappings) expect(failed.error).not.toMatch(LICENCE_ERROR);
    }
    expect(await world.acumaticaState()).toMatchObject({ loginLimitHits: 0, loginsOpen: 0 });
    expect((await world.acumaticaState()).loginsOpenPeak).toBeLessThanOrEqual(2);
  }, 180_000);

  it("keep to the Max Sessions saved on the connection, on every instance", async () => {
    world = await startDenoWorld({ size: 60 });
    const [a, b] = [await world.startEdge(), await world.startEdge()];
    const { token, mappings } = await world.readyUser(a);
    const api = a.api(token);
    const demo = await api.call("sandbox");
    const saved = await api.call("saveAcumatica", {
      body: {
        ...demo.acumatica,
        apiVersion: SANDBOX_DEMO.acumatica.apiVersion,
        password: "",
        maxSessions: 1,
      },
    });
    expect(saved.maxSessions).toBe(1);
    const syncOptions = { price: true, quantity: true };

    const answers = await Promise.all([
      ...mappings
        .slice(0, 10)
        .map((mapping, index) =>
          post(index % 2 === 0 ? a : b, token, `/mapping/${mapping._id}/sync`, { syncOptions }),
        ),
      post(a, token, "/users/acumatica/test"),
      post(b, token, "/users/acumatica/test"),
      post(b, token, "/acumatica/products/sync"),
      post(a, token, "/mapping/sync", { mappingIds: mappings.slice(10, 13).map((m) => m._id), syncOptions }),
    ]);

    for (const answer of answers) expect(answer.status, answer.body.message).toBe(200);
    for (const answer of answers.slice(-2)) {
      const done = await waitFor(api, (answer.body.data as { job: Job }).job);
      expect(done.status, done.message ?? "").toBe("succeeded");
    }
    expect(await world.acumaticaState()).toMatchObject({
      loginLimitHits: 0,
      loginsOpen: 0,
      loginsOpenPeak: 1,
    });
  }, 180_000);
});
