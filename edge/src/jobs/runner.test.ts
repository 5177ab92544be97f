import { afterEach, describe, expect, it } from "vitest";
import { type ConnectedApp, createConnectedApp } from "../../testing/connectors-harness.ts";
import { createTestApp } from "../../testing/helpers.ts";
import { createJobsRepo } from "./repo.ts";
import { createJobRunner } from "./runner.ts";

let app: ConnectedApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** Reads a whole event stream (it ends after the `done` event) into its events. */
async function readEvents(response: Response) {
  const text = await response.text();
  return text
    .split("\n\n")
    .filter((block) => block.trim())
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? "null";
      return { event, job: JSON.parse(data) };
    });
}

describe("GET /api/jobs/:id", () => {
  it("answers the caller's job and 404 for anyone else's", async () => {
    app = await createConnectedApp();
    await app.connectShopify();
    const { job } = await app.api.call("syncShopifyProducts");
    expect(job).toMatchObject({ kind: "shopify-pull", status: "running", finishedAt: null });
    const done = await app.waitForJob(job._id);
    expect(done).toMatchObject({ status: "succeeded", progress: { done: 300, total: 300 } });
    const other = await app.registerUser();
    const response = await app.request(`/api/jobs/${job._id}`, { token: other.token });
    expect(response.status).toBe(404);
  });
});

describe("a server that is stopping", () => {
  it("lets a running job finish within the grace, then refuses new jobs with 503 and Retry-After", async () => {
    app = await createConnectedApp();
    await app.connectShopify();
    const { job } = await app.api.call("syncShopifyProducts");

    expect(await app.app.stopJobs(60_000)).toEqual([]);

    expect(await app.waitForJob(job._id)).toMatchObject({ status: "succeeded" });
    const refused = await app.request("/api/shopify/products/sync", {
      method: "POST",
      token: app.user.token,
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(await refused.json()).toEqual({
      message: "The server is restarting. Please try again in a few seconds.",
      code: "STOPPING",
    });
  });
});

describe("GET /api/jobs/:id/events", () => {
  // The stream's fallback re-read comes after a minute here: a change it missed would hang the test.
  const missNothing = { deps: { jobEventsPollMs: 60_000 } };

  it("streams progress until done, with the token in the query (EventSource cannot set headers)", async () => {
    app = await createConnectedApp(missNothing);
    await app.connectShopify();
    const { job } = await app.api.call("syncShopifyProducts");
    const response = await app.request(
      `/api/jobs/${job._id}/events?token=${encodeURIComponent(app.user.token)}`,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const events = await readEvents(response);
    expect(events.at(-1)).toMatchObject({
      event: "done",
      job: { _id: job._id, status: "succeeded", message: "Products synchronized successfully" },
    });
    expect(events.filter((event) => event.event === "progress").length).toBeGreaterThanOrEqual(1);
  });

  it("accepts the Bearer header and ends at once for a finished job", async () => {
    app = await createConnectedApp(missNothing);
    await app.connectAcumatica();
    const { job } = await app.api.call("syncAcumaticaProducts");
    await app.waitForJob(job._id);
    const events = await readEvents(
      await app.request(`/api/jobs/${job._id}/events`, { token: app.user.token }),
    );
    expect(events.map((event) => event.event)).toEqual(["progress", "done"]);
    expect(events[1]?.job.status).toBe("succeeded");
  });

  it("ends every stream with the job's end, whenever it lands between the stream's reads and writes", async () => {
    app = await createConnectedApp({ ...missNothing, size: 40 });
    await app.connectShopify();
    await app.connectAcumatica();
    for (let round = 0; round < 5; round += 1) {
      const pulls = [await app.api.call("syncShopifyProducts"), await app.api.call("syncAcumaticaProducts")];
      const streams = await Promise.all(
        pulls.map(async ({ job }) =>
          readEvents(await app!.request(`/api/jobs/${job._id}/events`, { token: app!.user.token })),
        ),
      );
      for (const events of streams)
        expect(events.at(-1)).toMatchObject({ event: "done", job: { status: "succeeded" } });
    }
  }, 20_000);

  it("refuses a missing or bad token and another user's job", async () => {
    app = await createConnectedApp();
    await app.connectShopify();
    const { job } = await app.api.call("syncShopifyProducts");
    expect((await app.request(`/api/jobs/${job._id}/events`)).status).toBe(401);
    expect((await app.request(`/api/jobs/${job._id}/events?token=not-a-token`)).status).toBe(401);
    const other = await app.registerUser();
    expect((await app.request(`/api/jobs/${job._id}/events?token=${other.token}`)).status).toBe(404);
    await app.waitForJob(job._id);
  });
});

describe("the job queue shared by several instances", () => {
  it("runs every queued job exactly once across two instances draining at once, one job per user at a time", async () => {
    const { db, registerUser } = await createTestApp();
    const users = await Promise.all([1, 2, 3, 4, 5].map(() => registerUser()));
    const ran: { jobId: string; instance: string }[] = [];
    const active = new Map<string, number>();
    let overlapped = false;
    const instance = (name: string) => {
      const runner = createJobRunner({
        repo: createJobsRepo(db),
        now: () => new Date(),
        newId: () => crypto.randomUUID(),
        log: () => {},
        concurrency: 3,
      });
      runner.handle("auto-map", async (context) => {
        const running = (active.get(context.userId) ?? 0) + 1;
        active.set(context.userId, running);
        if (running > 1) overlapped = true;
        // Real work yields: give the other instance every chance to claim the same job or user.
        await new Promise((resolve) => setTimeout(resolve, 5));
        ran.push({ jobId: context.jobId, instance: name });
        active.set(context.userId, running - 1);
        return {
          result: {
            created: 0,
            alreadyMapped: 0,
            duplicateSkus: { shopify: [], acumatica: [] },
            overPlanLimit: 0,
            planLimit: null,
          },
        };
      });
      return runner;
    };
    const [a, b] = [instance("a"), instance("b")];
    const queued: string[] = [];
    for (const user of users)
      for (let n = 0; n < 6; n += 1) {
        const id = await a.enqueue(user.user._id, { kind: "auto-map", input: {} });
        if (id) queued.push(id);
      }
    expect(queued).toHaveLength(30);

    await Promise.all([a.drain(), b.drain()]);

    expect(ran.map((run) => run.jobId).sort()).toEqual([...queued].sort());
    expect(overlapped).toBe(false);
    expect(new Set(ran.map((run) => run.instance))).toEqual(new Set(["a", "b"]));
    const statuses = await db.execute("SELECT status, COUNT(*) AS n FROM jobs GROUP BY status");
    expect(statuses.rows.map((row) => [row.status, Number(row.n)])).toEqual([["succeeded", 30]]);
  });

  it("does not queue a schedule's run while its previous run is still live", async () => {
    const { db, registerUser } = await createTestApp();
    const user = await registerUser();
    const runner = createJobRunner({
      repo: createJobsRepo(db),
      now: () => new Date(),
      newId: () => crypto.randomUUID(),
      log: () => {},
    });
    const first = await runner.enqueue(user.user._id, { kind: "sync", input: {}, scheduleId: "schedule-1" });
    const second = await runner.enqueue(user.user._id, { kind: "sync", input: {}, scheduleId: "schedule-1" });
    const other = await runner.enqueue(user.user._id, { kind: "sync", input: {}, scheduleId: "schedule-2" });
    expect(first).not.toBeNull();
    expect(second).toBeNull();
    expect(other).not.toBeNull();
  });
});
