import type { ExecutionHistory } from "@stockbridge/shared";
import { afterEach, describe, expect, it } from "vitest";
import { type DenoWorld, pollUntil, startDenoWorld } from "../../testing/deno-harness.ts";
import { RUN_STOPPED } from "./run-lease.ts";

let world: DenoWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

// Real processes: an edge under Deno is killed (SIGKILL: no finally runs) while its syncs wait on
// a slow Acumatica, and another edge on the same database file ends what it left open.
describe("a sync whose server was killed mid-run", () => {
  it("ends a single-mapping run (no job) as failed once its lease runs out; a sync job is resumed in its entry and completes", async () => {
    world = await startDenoWorld({ env: { RUN_LEASE_SECONDS: "2", JOB_POLL_SECONDS: "1" } });
    const first = await world.startEdge();
    const { token, mappings } = await world.readyUser(first);
    const [single, ...several] = mappings;
    // Every Acumatica call now takes 8 s: both runs are stuck inside their ERP reads.
    await world.faults({ acumatica: { latencyMs: 8_000 } });

    const api = first.api(token);
    const syncOptions = { price: true, quantity: true };
    // The single-mapping sync answers when it ends, which it never does here: its answer is lost.
    void api.call("syncMapping", { params: { id: single!._id }, body: { syncOptions } }).catch(() => {});
    const { job } = await api.call("syncMappings", {
      body: { mappingIds: several.slice(0, 3).map((mapping) => mapping._id), syncOptions },
    });
    const open = await pollUntil(
      () => api.call("executionHistory"),
      (list) => list.histories.filter((entry) => entry.status === "running").length === 2,
      "both runs to be open",
    );
    await first.kill();
    await world.faults({ acumatica: { latencyMs: 0 } });

    const second = await world.startEdge();
    const after = second.api(token);
    const ended = await pollUntil(
      () => after.call("executionHistory"),
      (list) => list.histories.every((entry) => entry.status !== "running"),
      "the stopped runs to end",
    );
    expect(ended.total).toBe(2);
    const jobDone = await after.call("job", { params: { id: job._id } });
    expect(jobDone).toMatchObject({ status: "succeeded", result: { success: 3, failure: 0 } });
    for (const entry of ended.histories) {
      const before = open.histories.find((candidate) => candidate._id === entry._id) as ExecutionHistory;
      const resumed = entry._id === jobDone.result?.historyId;
      expect(entry).toMatchObject({
        trigger: "manual",
        startDate: before.startDate,
        endDate: expect.any(String),
        ...(resumed
          ? { status: "completed", successCount: 3, failureCount: 0 }
          : { status: "failed", error: RUN_STOPPED }),
      });
    }

    // Nothing is left open: a new run on the surviving server completes beside them.
    const rerun = await after.call("syncMapping", { params: { id: single!._id }, body: { syncOptions } });
    const history = await after.call("executionHistory");
    expect(history.histories.find((entry) => entry._id === rerun.historyId)?.status).toBe("completed");
    expect(history.histories.filter((entry) => entry.status === "failed")).toHaveLength(1);
  }, 120_000);
});
