import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { describe, expect, it } from "vitest";
import { createTestClock } from "../../testing/helpers.ts";
import { openDatabase, tuneLocalDatabase } from "../db/client.ts";
import { migrate } from "../db/migrate.ts";
import { createSlotGate } from "./slots.ts";
import { createSlotsRepo } from "./slots-repo.ts";

/** Two gates on one database: two instances of the app, as far as slots go. */
async function twoInstances(options: { leaseMs?: number } = {}) {
  const db = openDatabase(":memory:");
  await migrate(db);
  const clock = createTestClock();
  const gate = () =>
    createSlotGate({
      repo: createSlotsRepo(db),
      now: clock.now,
      newId: () => crypto.randomUUID(),
      log: () => {},
      leaseMs: options.leaseMs ?? 60_000,
      pollMs: 10,
    });
  return { db, clock, gates: [gate(), gate()] as const };
}

async function rows(db: Awaited<ReturnType<typeof twoInstances>>["db"]) {
  return Number((await db.execute("SELECT COUNT(*) AS n FROM work_slots")).rows[0]?.n);
}

/** A piece of work that holds its slot until `finish()` is called. */
function held() {
  let finish = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return { finish, work: () => done };
}

async function until(condition: () => Promise<boolean>) {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe("slots shared by instances", () => {
  it("serves waiters first come, first served, whichever instance each waits on", async () => {
    const { db, gates } = await twoInstances();
    const first = held();
    const holding = gates[0].hold("acumatica:user-1", { limit: 1, work: first.work });
    await until(async () => (await rows(db)) === 1);
    const served: number[] = [];
    const waiting: Promise<void>[] = [];
    for (let index = 0; index < 6; index += 1) {
      waiting.push(
        gates[index % 2]!.hold("acumatica:user-1", {
          limit: 1,
          work: async () => {
            served.push(index);
          },
        }),
      );
      // Each waiter has its ticket before the next one asks.
      await until(async () => (await rows(db)) === index + 2);
    }

    first.finish();
    await Promise.all([holding, ...waiting]);

    expect(served).toEqual([0, 1, 2, 3, 4, 5]);
    expect(await rows(db)).toBe(0);
  });

  it("lets `limit` holders in at once and keeps other keys apart", async () => {
    const { db, gates } = await twoInstances();
    const gateOpen = held();
    let inside = 0;
    const work = async () => {
      inside += 1;
      await gateOpen.work();
    };
    const elsewhere = gates[1].hold("acumatica:user-2", { limit: 1, work: async () => "other key" });
    const holds = Array.from({ length: 5 }, (_, index) =>
      gates[index % 2]!.hold("acumatica:user-1", { limit: 3, work }),
    );
    await until(async () => inside === 3 && (await rows(db)) === 5);

    const holding = await db.execute(
      "SELECT COUNT(*) AS n FROM work_slots WHERE slot_key = 'acumatica:user-1' AND holding = 1",
    );
    expect(Number(holding.rows[0]?.n)).toBe(3);
    expect(await elsewhere).toBe("other key");
    gateOpen.finish();
    await Promise.all(holds);
    expect(inside).toBe(5);
  });

  it("frees the slot of a holder that stopped without freeing it, once its lease runs out", async () => {
    const { db, clock, gates } = await twoInstances();
    // What a killed process leaves: a held slot whose lease nobody renews.
    await db.execute({
      sql: `INSERT INTO work_slots (slot_key, holder, holding, lease_until, created_at) VALUES ('acumatica:user-1', 'dead', 1, ?, ?)`,
      args: [new Date(clock.now().getTime() + 60_000).toISOString(), clock.now().toISOString()],
    });
    let ran = false;
    const waiting = gates[0].hold("acumatica:user-1", {
      limit: 1,
      work: async () => {
        ran = true;
      },
    });
    await until(async () => (await rows(db)) === 2);
    expect(ran).toBe(false);

    clock.advance(60_001);
    await waiting;

    expect(ran).toBe(true);
    expect(await rows(db)).toBe(0);
  });

  it("queues a waiter again whose ticket was cleared while it stalled, and still serves it", async () => {
    // A short lease: the heartbeat checks the ticket every 10 ms of real time.
    const { db, gates } = await twoInstances({ leaseMs: 30 });
    const first = held();
    const holding = gates[0].hold("acumatica:user-1", { limit: 1, work: first.work });
    await until(async () => (await rows(db)) === 1);
    let ran = false;
    const waiting = gates[1].hold("acumatica:user-1", {
      limit: 1,
      work: async () => {
        ran = true;
      },
    });
    await until(async () => (await rows(db)) === 2);

    // What another instance's release does to a ticket whose lease ran out.
    await db.execute("DELETE FROM work_slots WHERE holding = 0");
    await until(async () => (await rows(db)) === 2);
    first.finish();
    await Promise.all([holding, waiting]);

    expect(ran).toBe(true);
    expect(await rows(db)).toBe(0);
  });

  it("frees the slot when the work fails", async () => {
    const { db, gates } = await twoInstances();
    await expect(
      gates[0].hold("acumatica:user-1", {
        limit: 1,
        work: async () => {
          throw new Error("login refused");
        },
      }),
    ).rejects.toThrow("login refused");
    expect(await rows(db)).toBe(0);
    expect(await gates[1].hold("acumatica:user-1", { limit: 1, work: async () => "next" })).toBe("next");
  });

  it("frees the slot once the database is free again when releasing met a lock longer than the busy budget", async () => {
    const dir = await mkdtemp(join(tmpdir(), "stockbridge-slots-"));
    const url = `file:${join(dir, "app.db")}`;
    // A budget of 20 ms per call: the other instance's write outlasts it many times over.
    let waits = 0;
    const db = openDatabase(url, undefined, { busy: { budgetMs: 20, onWait: () => (waits += 1) } });
    const other = createClient({ url });
    try {
      await tuneLocalDatabase(db, url);
      await migrate(db);
      const logged: string[] = [];
      const gate = (log: (line: string) => void) =>
        createSlotGate({
          repo: createSlotsRepo(db),
          now: () => new Date(),
          newId: () => crypto.randomUUID(),
          log,
          leaseMs: 60_000,
          pollMs: 10,
        });
      const first = held();
      const holding = gate((line) => logged.push(line)).hold("acumatica:user-1", {
        limit: 1,
        work: first.work,
      });
      await until(async () => (await rows(db)) === 1);

      // Another instance holds the write lock while the holder finishes and releases.
      const lock = await other.transaction("write");
      await lock.execute("UPDATE work_slots SET created_at = created_at");
      first.finish();
      // Released after several budgets' worth of tries (or once the release gave up).
      await until(async () => waits >= 12 || logged.length > 0);
      await lock.rollback();
      await holding;

      expect(logged).toEqual([]);
      expect(await rows(db)).toBe(0);
      // The next holder is served at once, not a lease later.
      expect(await gate(() => {}).hold("acumatica:user-1", { limit: 1, work: async () => "next" })).toBe(
        "next",
      );
    } finally {
      other.close();
      db.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
