import type { ChildProcess } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient, type Transaction } from "@libsql/client";
import { createApiClient, type ScheduleInput } from "@stockbridge/shared";
import { afterEach, describe, expect, it } from "vitest";
import { freePort, startDeno } from "../../../scripts/lib.mjs";
import { createTestApp, grantSubscription } from "../../testing/helpers.ts";
import { type BusyOptions, type Db, openDatabase, tuneLocalDatabase, withoutMemoryMap } from "./client.ts";
import { migrate } from "./migrate.ts";

let dir: string | undefined;
const opened: { close(): void }[] = [];
let server: ChildProcess | undefined;
afterEach(async () => {
  server?.kill("SIGTERM");
  server = undefined;
  for (const db of opened.splice(0)) db.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function databaseFile() {
  dir = await mkdtemp(join(tmpdir(), "stockbridge-db-"));
  return `file:${join(dir, "app.db")}`;
}

async function openTuned(url: string, busy: BusyOptions = {}): Promise<Db> {
  const db = openDatabase(url, undefined, { busy });
  opened.push(db);
  await tuneLocalDatabase(db, url);
  return db;
}

/** Another connection to the same file (as another process would have) holding the write lock. */
async function holdWriteLock(url: string): Promise<Transaction> {
  const other = createClient({ url });
  opened.push(other);
  const lock = await other.transaction("write");
  await lock.execute("UPDATE users SET name = name");
  return lock;
}

function scheduleBody(name: string): ScheduleInput {
  return {
    name,
    schedule: { type: "daily", time: "00:00", day: null, interval: null, minuteInterval: null },
    timezone: "UTC",
    isFullSync: true,
    syncOptions: { price: true, quantity: false },
    mappingIds: [],
    status: "active",
  };
}

describe("openDatabase on a local file", () => {
  it("keeps tuneLocalDatabase's settings for calls made at the same time (one connection, not one each)", async () => {
    const client = await openTuned(await databaseFile());
    const atOnce = async (pragma: string) => {
      const results = await Promise.all(Array.from({ length: 5 }, () => client.execute(`PRAGMA ${pragma}`)));
      return results.map((result) => Object.values(result.rows[0] ?? {})[0]);
    };
    // No wait inside SQLite (it would stop the thread): the client waits for locks between tries.
    expect(await atOnce("busy_timeout")).toEqual([0, 0, 0, 0, 0]);
    // 1 = FILE: a pull's swap keeps its temporary rows out of memory.
    expect(await atOnce("temp_store")).toEqual([1, 1, 1, 1, 1]);
    expect(await atOnce("foreign_keys")).toEqual([1, 1, 1, 1, 1]);
    // 1 = NORMAL: a commit does not hold the write lock through an fsync.
    expect(await atOnce("synchronous")).toEqual([1, 1, 1, 1, 1]);
  });
});

describe("withoutMemoryMap", () => {
  it("reads the file without its memory map while any overlapping work runs, and maps it again after the last", async () => {
    const client = await openTuned(await databaseFile());
    const mapSize = async () => Number((await client.execute("PRAGMA mmap_size")).rows[0]?.[0]);
    expect(await mapSize()).toBe(268435456);
    let releaseFirst = () => {};
    const firstHeld = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    const seen: number[] = [];
    const first = withoutMemoryMap(client, async () => {
      seen.push(await mapSize());
      await firstHeld;
      seen.push(await mapSize());
    });
    await withoutMemoryMap(client, async () => {
      seen.push(await mapSize());
    });
    // The second ended while the first still runs: the map stays off.
    expect(await mapSize()).toBe(0);
    releaseFirst();
    await first;
    expect(seen).toEqual([0, 0, 0]);
    expect(await mapSize()).toBe(268435456);
    await expect(
      withoutMemoryMap(client, async () => {
        throw new Error("work failed");
      }),
    ).rejects.toThrow("work failed");
    expect(await mapSize()).toBe(268435456);
  });

  it("leaves a database without a memory map as it is", async () => {
    const memory = openDatabase(":memory:");
    opened.push(memory);
    const mapSize = async () => (await memory.execute("PRAGMA mmap_size")).rows.map((row) => row[0]);
    const before = await mapSize();
    expect(await withoutMemoryMap(memory, async () => "done")).toBe("done");
    expect(await mapSize()).toEqual(before);
  });
});

describe("a call queued behind one that met another connection's lock", () => {
  it("runs on the renewed connection, never on the one the busy statement was left open on", async () => {
    const url = await databaseFile();
    const db = await openTuned(url, { budgetMs: 60_000 });
    await migrate(db);
    // A mark only the first connection has: a temporary table lives and dies with its connection.
    await db.execute("CREATE TEMP TABLE first_connection (x)");
    const lock = await holdWriteLock(url);
    // Both at once: the write fails busy and leaves its statement open on the connection; a batch
    // run there next could take the lock and then fail both its COMMIT and its ROLLBACK
    // ("statements in progress"), leaving a closed connection holding the write lock.
    const write = db.execute("UPDATE users SET name = name");
    const next = db.execute("SELECT COUNT(*) AS n FROM temp.sqlite_master WHERE name = 'first_connection'");
    expect(Number((await next).rows[0]?.n)).toBe(0);
    await lock.rollback();
    await write;
  });
});

describe("a renewal that meets the lock", () => {
  it("waits it out like the call itself, instead of failing the call with SQLITE_BUSY", async () => {
    // A file still in rollback-journal mode, as a new one is while another process turns it to WAL:
    // an exclusive lock there stops even the renewed connection's settings from reading it.
    const url = await databaseFile();
    const db = openDatabase(url, undefined, { busy: { budgetMs: 60_000 } });
    opened.push(db);
    await db.execute("CREATE TABLE t (x)");
    const other = createClient({ url });
    opened.push(other);
    // Exclusive locking mode: its first write takes the file's exclusive lock and keeps it.
    await other.execute("PRAGMA locking_mode = EXCLUSIVE");
    await other.execute("INSERT INTO t VALUES (1)");

    // Fails busy, so the connection is renewed before each probe for the lock, and those renewals
    // fail busy too while the lock is held (several probes' worth).
    const write = db.execute("INSERT INTO t VALUES (2)");
    await new Promise((resolve) => setTimeout(resolve, 300));
    await other.execute("PRAGMA locking_mode = NORMAL");
    await other.execute("SELECT 1 FROM t");

    await write;
    expect(Number((await db.execute("SELECT COUNT(*) AS n FROM t")).rows[0]?.n)).toBe(2);
  });
});

describe("a connection that could not be renewed", () => {
  it("renews it on a later call once the file can be opened again, instead of failing every call until a restart", async () => {
    const url = await databaseFile();
    const db = await openTuned(url, { budgetMs: 20 });
    await migrate(db);
    const lock = await holdWriteLock(url);
    // The folder goes away (a volume unmounted for a moment): open connections keep their file,
    // but the renewal after the busy failure below cannot open it.
    await rm(dir ?? "", { recursive: true, force: true });
    await expect(db.execute("UPDATE users SET name = name")).rejects.toThrow();
    await expect(db.execute("SELECT 1")).rejects.toThrow(/unable to open|CANTOPEN/i);
    await lock.rollback();

    await mkdir(dir ?? "", { recursive: true });

    expect((await db.execute("SELECT 1 AS one")).rows[0]?.one).toBe(1);
    // The renewed connection has the settings of the first one.
    expect(Object.values((await db.execute("PRAGMA foreign_keys")).rows[0] ?? {})[0]).toBe(1);
  });
});

describe("a database another connection holds locked", () => {
  async function appOn(busy: BusyOptions) {
    const url = await databaseFile();
    const db = await openTuned(url, busy);
    await migrate(db);
    const target = await createTestApp({ deps: { db } });
    const user = await target.registerUser();
    await grantSubscription(db, user.user._id);
    return { url, db, request: target.request, token: user.token };
  }

  it("answers writes that arrive during the lock once it is released, and reads meanwhile", async () => {
    let waits = 0;
    const { url, db, request, token } = await appOn({ budgetMs: 60_000, onWait: () => (waits += 1) });
    const lock = await holdWriteLock(url);
    const names = Array.from({ length: 6 }, (_, index) => `Nightly ${index + 1}`);
    const writes = names.map((name) => request("/api/mapping-schedule", { token, body: scheduleBody(name) }));
    // WAL: a read does not wait for the writer.
    expect((await request("/api/auth/me", { token })).status).toBe(200);
    while (waits < names.length) await new Promise((resolve) => setTimeout(resolve, 5));
    await lock.commit();
    const answers = await Promise.all(writes);
    expect(answers.map((answer) => answer.status)).toEqual(names.map(() => 200));
    // Each write once: a retried batch was rolled back whole before it ran again.
    const stored = await db.execute("SELECT name FROM schedules ORDER BY name");
    expect(stored.rows.map((row) => row.name)).toEqual(names);
    // The connection renewed after the busy failures has the same settings as the first one.
    const setting = async (pragma: string) =>
      Object.values((await db.execute(`PRAGMA ${pragma}`)).rows[0] ?? {})[0];
    expect([
      await setting("foreign_keys"),
      await setting("temp_store"),
      await setting("busy_timeout"),
    ]).toEqual([1, 1, 0]);
  });

  it("answers 503 with Retry-After and the catalogue's message when the lock outlasts the budget, writing nothing", async () => {
    const { url, db, request, token } = await appOn({ budgetMs: 50 });
    const lock = await holdWriteLock(url);
    const answers = await Promise.all(
      ["First", "Second", "Third"].map((name) =>
        request("/api/mapping-schedule", { token, body: scheduleBody(name) }),
      ),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(answer.headers.get("retry-after")).toBe("1");
      expect(await answer.json()).toEqual({
        message: "The database is busy. Please try again in a moment.",
        code: "DATABASE_BUSY",
      });
    }
    await lock.rollback();
    expect(Number((await db.execute("SELECT count(*) AS n FROM schedules")).rows[0]?.n)).toBe(0);
    expect((await request("/api/mapping-schedule", { token, body: scheduleBody("First") })).status).toBe(200);
  });
});

describe("the edge under Deno while another process holds the write lock", () => {
  it("keeps answering reads, and answers every write sent meanwhile once the lock is released", async () => {
    const url = await databaseFile();
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    server = await startDeno(
      "edge",
      "edge/main.ts",
      {
        PORT: String(port),
        DATA_DIR: dir ?? "",
        LIBSQL_URL: url,
        PASSWORD_ITERATIONS: "1000",
        // Billing counts as configured (else the subscription gate denies everyone); nothing calls it.
        STRIPE_SECRET_KEY: "sk_test_edge_tests",
        STRIPE_API_URL: "http://127.0.0.1:9",
        STRIPE_WEBHOOK_SECRET: "whsec_edge_tests",
      },
      `${origin}/api/health`,
    );
    const anonymous = createApiClient({ baseUrl: `${origin}/api`, getToken: () => null });
    const registered = await anonymous.call("register", {
      body: { name: "Busy User", email: "busy@example.com", password: "Passw0rd" },
    });
    const other = createClient({ url });
    opened.push(other);
    await grantSubscription(other, registered.user._id);
    const api = createApiClient({ baseUrl: `${origin}/api`, getToken: () => registered.token });

    const lock = await holdWriteLock(url);
    const names = Array.from({ length: 8 }, (_, index) => `Parallel ${index + 1}`);
    const writes = Promise.allSettled(
      names.map((name) => api.call("createSchedule", { body: scheduleBody(name) })),
    );
    // Answered while the writes wait: the wait no longer stops the server's thread.
    expect((await api.call("me")).user.email).toBe("busy@example.com");
    expect((await api.call("listSchedules")).total).toBe(0);
    await lock.commit();
    const settled = await writes;
    expect(settled.map((result) => result.status)).toEqual(names.map(() => "fulfilled"));
    const listed = await api.call("listSchedules", { query: { limit: "100" } });
    expect(listed.schedules.map((schedule) => schedule.name).sort()).toEqual([...names].sort());
  });
});
