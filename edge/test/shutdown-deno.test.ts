import { join } from "node:path";
import { createClient } from "@libsql/client";
import { afterEach, describe, expect, it } from "vitest";
import { RUN_STOPPED } from "../src/history/run-lease.ts";
import { SERVER_STOPPED } from "../src/jobs/runner.ts";
import { type DenoWorld, pollUntil, startDenoWorld } from "./deno-harness.ts";

let world: DenoWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe("an edge stopped with SIGTERM while a sync job runs", () => {
  it("fails the job and ends its history entry at once, and frees its Acumatica seat for the other instance", async () => {
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

    // Read on the other instance right away: nobody waits for the lease (60 s) to learn of it.
    const api = b.api(token);
    expect(await api.call("job", { params: { id: job._id } })).toMatchObject({
      status: "failed",
      message: SERVER_STOPPED,
    });
    const { histories } = await api.call("executionHistory", { query: { limit: "10" } });
    expect(histories).toHaveLength(1);
    const [run] = histories;
    expect(run).toMatchObject({ status: "failed" });
    expect(run?.failedMappings[0]?.error ?? run?.error ?? "").toContain(RUN_STOPPED);
    const db = createClient({ url: `file:${join(world.dataDir, "stockbridge.db")}` });
    try {
      const seats = await db.execute("SELECT COUNT(*) AS n FROM work_slots");
      expect(Number(seats.rows[0]?.n)).toBe(0);
    } finally {
      db.close();
    }
  });
});
