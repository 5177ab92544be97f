import type { ApiError } from "@stockbridge/shared";
import { describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/helpers.ts";
import { registerSubscriber } from "../../testing/mapping-fixtures.ts";
import { runStatus } from "./outcome.ts";
import { createHistoryRepo } from "./repo.ts";

/** Writes a finished run the way the sync engine does: opened as running, closed with counts. */
async function recordRun(
  app: TestApp,
  userId: string,
  run: {
    start: string;
    schedule?: { id: string; name: string };
    failures?: { shopifySku: string; acumaticaSku: string; error: string }[];
    status?: "failed";
    error?: string;
  },
) {
  const repo = createHistoryRepo(app.db);
  const id = crypto.randomUUID();
  await repo.start({
    id,
    userId,
    trigger: run.schedule ? "schedule" : "manual",
    scheduleId: run.schedule?.id ?? null,
    scheduleName: run.schedule?.name ?? null,
    startDate: run.start,
    leaseUntil: run.start,
    scope: "all",
    syncOptions: { price: true, quantity: true },
  });
  const failures = (run.failures ?? []).map((failure) => ({ mappingId: null, ...failure }));
  await repo.finish({
    id,
    userId,
    endDate: new Date(new Date(run.start).getTime() + 5000).toISOString(),
    successCount: 3,
    failureCount: failures.length,
    skippedCount: 1,
    status: run.status ?? runStatus({ success: 3, failure: failures.length }),
    error: run.error ?? null,
    failures,
    skips: [],
  });
  return id;
}

describe("execution history", () => {
  it("answers at the top level, newest first, ten to a page by default", async () => {
    const app = await createTestApp();
    const { userId, token } = await registerSubscriber(app);
    const ids: string[] = [];
    for (let day = 1; day <= 12; day += 1)
      ids.push(
        await recordRun(app, userId, { start: `2026-11-${String(day).padStart(2, "0")}T08:00:00.000Z` }),
      );

    const response = await app.request("/api/execution-history", { token });
    const body = await response.json();
    expect(Object.keys(body).sort()).toEqual(["histories", "page", "total", "totalPages"]);
    expect(body).toMatchObject({ total: 12, page: 1, totalPages: 2 });
    expect(body.histories).toHaveLength(10);
    expect(body.histories[0]._id).toBe(ids[11]);
    const second = await app.client(token).call("executionHistory", { query: { page: "2" } });
    expect(second.histories.map((entry) => entry._id)).toEqual([ids[1], ids[0]]);
  });

  it("shows the schedule, the counts and each failed mapping with both SKUs and the error", async () => {
    const app = await createTestApp();
    const { userId, api } = await registerSubscriber(app);
    const id = await recordRun(app, userId, {
      start: "2026-11-20T08:00:00.000Z",
      schedule: { id: "sched-1", name: "Nightly" },
      failures: [
        { shopifySku: "SKU-1", acumaticaSku: "ABC-1", error: "Price must be greater than or equal to 0" },
      ],
    });

    const entry = await api.call("executionHistoryEntry", { params: { id } });
    expect(entry).toEqual({
      _id: id,
      schedule: { _id: "sched-1", name: "Nightly" },
      trigger: "schedule",
      startDate: "2026-11-20T08:00:00.000Z",
      endDate: "2026-11-20T08:00:05.000Z",
      successCount: 3,
      failureCount: 1,
      skippedCount: 1,
      status: "partial",
      error: null,
      syncOptions: { price: true, quantity: true },
      retryOf: null,
      skippedMappings: [],
      failedMappings: [
        {
          mappingId: null,
          shopifySku: "SKU-1",
          acumaticaSku: "ABC-1",
          error: "Price must be greater than or equal to 0",
        },
      ],
      checkOnly: false,
      drifted: null,
    });
    expect((await api.call("executionHistory")).histories[0]?.failedMappings).toHaveLength(1);
  });

  it("keeps a run that could not proceed as failed with its error", async () => {
    const app = await createTestApp();
    const { userId, api } = await registerSubscriber(app);
    const id = await recordRun(app, userId, {
      start: "2026-11-20T08:00:00.000Z",
      status: "failed",
      error: "Acumatica: the sign-in was refused",
    });
    expect(await api.call("executionHistoryEntry", { params: { id } })).toMatchObject({
      status: "failed",
      error: "Acumatica: the sign-in was refused",
      schedule: null,
      trigger: "manual",
    });
  });

  it("never shows another user's runs", async () => {
    const app = await createTestApp();
    const owner = await registerSubscriber(app);
    const other = await registerSubscriber(app);
    const id = await recordRun(app, owner.userId, { start: "2026-11-20T08:00:00.000Z" });

    expect((await other.api.call("executionHistory")).total).toBe(0);
    const error = await other.api.call("executionHistoryEntry", { params: { id } }).catch((e: unknown) => e);
    expect((error as ApiError).status).toBe(404);
  });

  it("lists all 10,000 mappings of a full sync that failed as a whole, each with the run's error", async () => {
    const app = await createTestApp();
    const { userId, api } = await registerSubscriber(app);
    // No connection saved: the run fails as a whole before it reads anything.
    await app.db.execute({
      sql: `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000)
            INSERT INTO mappings (id, user_id, shopify_variant_id, shopify_sku, acumatica_id, acumatica_sku, mapping_type, created_at, updated_at)
            SELECT printf('map-%05d', i), ?, 'gid://shopify/ProductVariant/' || i, printf('SKU-%05d', i), printf('ERP-%05d', i),
              printf('ERP-%05d', i), 'exact-sku', '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z'
            FROM n`,
      args: [userId],
    });

    const { job } = await api.call("syncMappings", {
      body: { syncOptions: { price: false, quantity: true } },
    });
    let current = job;
    while (current.status === "queued" || current.status === "running") {
      await new Promise((resolve) => setTimeout(resolve, 10));
      current = await api.call("job", { params: { id: job._id } });
    }

    expect(current.status).toBe("failed");
    const [listed] = (await api.call("executionHistory")).histories;
    const entry = await api.call("executionHistoryEntry", { params: { id: listed!._id } });
    expect(entry).toMatchObject({
      status: "failed",
      successCount: 0,
      failureCount: 10_000,
      error: current.message,
    });
    expect(entry.failedMappings).toHaveLength(10_000);
    expect(entry.failedMappings[0]).toEqual({
      mappingId: "map-00001",
      shopifySku: "SKU-00001",
      acumaticaSku: "ERP-00001",
      error: current.message,
    });
    expect(entry.failedMappings.at(-1)?.mappingId).toBe("map-10000");
    expect(new Set(entry.failedMappings.map((failed) => failed.error))).toEqual(new Set([current.message]));
  });

  it.each(["page=0", "limit=101", "page=x"])("answers 400 for %s", async (query) => {
    const app = await createTestApp();
    const { token } = await registerSubscriber(app);
    expect((await app.request(`/api/execution-history?${query}`, { token })).status).toBe(400);
  });
});
