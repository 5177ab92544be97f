import { join } from "node:path";
import { createClient } from "@libsql/client";
import { afterEach, describe, expect, it } from "vitest";
import { type DenoWorld, pollUntil, startDenoWorld, waitFor } from "../../testing/deno-harness.ts";

let world: DenoWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe("an edge stopped with SIGTERM while a sync job runs", () => {
  it("hands the job back at once; the other instance resumes it in the same entry and finishes it, with the freed Acumatica seat", async () => {
    world = await startDenoWorld({ size: 30 });
    const [a, b] = [await world.startEdge(), await world.startEdge()];
    const { token } = await world.readyUser(a);
    // Every Acumatica call hangs until the edge gives up: the job cannot finish within the grace.
    await world.faults({ acumatica: { timeoutRate: 1, timeoutMs: 600_000 } });
    const { job } = await a
      .api(token)
      .call("syncMappings", { body: { syncOptions: { price: true, quantity: true } } });
    await pollUntil(
      () => world!.acumaticaState(),
      (state) => (state.running ?? 0) >= 1,
      "the job to be inside an Acumatica call",
    );

    const exited = new Promise<number | null>((resolve) => a.process.once("exit", (code) => resolve(code)));
    a.process.kill("SIGTERM");
    expect(await exited).toBe(0);
    await world.faults({ acumatica: { timeoutRate: 0 } });

    // Nobody waits for the lease (60 s): the job is queued again, and reading it on B takes it over.
    const api = b.api(token);
    const done = await waitFor(api, await api.call("job", { params: { id: job._id } }));
    expect(done).toMatchObject({ status: "succeeded", result: { failure: 0 } });
    const { histories } = await api.call("executionHistory", { query: { limit: "10" } });
    expect(histories).toHaveLength(1);
    expect(histories[0]).toMatchObject({
      _id: done.result?.historyId,
      status: "completed",
      failedMappings: [],
    });
    const db = createClient({ url: `file:${join(world.dataDir, "stockbridge.db")}` });
    try {
      const rows = await db.execute({ sql: "SELECT attempts FROM jobs WHERE id = ?", args: [job._id] });
      expect(Number(rows.rows[0]?.attempts)).toBe(2);
      const seats = await db.execute("SELECT COUNT(*) AS n FROM work_slots");
      expect(Number(seats.rows[0]?.n)).toBe(0);
    } finally {
      db.close();
    }
  });
});
