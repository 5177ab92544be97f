import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DENO, DENO_FLAGS, freePort, ROOT } from "../../../scripts/lib.mjs";
import { type EdgeProcess, startEdgeProcess } from "../../testing/deno-harness.ts";
import { type Db, openDatabase, tuneLocalDatabase } from "./client.ts";
import { migrate } from "./migrate.ts";
import { MIGRATIONS } from "./migrations/index.ts";

const SECRETS = {
  JWT_SECRET: "a-shared-secret-of-at-least-32-characters!",
  ENCRYPTION_KEYS: "k1:MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
};

let folder: string | undefined;
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  if (folder) rmSync(folder, { recursive: true, force: true });
  folder = undefined;
});

async function databaseIn(dir: string): Promise<{ url: string; open(): Promise<Db> }> {
  const url = `file:${join(dir, "stockbridge.db")}`;
  return {
    url,
    async open() {
      const db = openDatabase(url);
      cleanups.push(() => db.close());
      await tuneLocalDatabase(db, url);
      return db;
    },
  };
}

async function appliedVersions(db: Db): Promise<number[]> {
  const result = await db.execute("SELECT version FROM schema_migrations ORDER BY version");
  return result.rows.map((row) => Number(row.version));
}

describe("migrations on a database several instances share", () => {
  it("are applied once when two connections migrate a new database at the same moment", async () => {
    folder = mkdtempSync(join(tmpdir(), "stockbridge-migrate-"));
    const database = await databaseIn(folder);
    const [first, second] = [await database.open(), await database.open()];

    const [byFirst, bySecond] = await Promise.all([
      migrate(first, MIGRATIONS, { pollMs: 5 }),
      migrate(second, MIGRATIONS, { pollMs: 5 }),
    ]);

    const all = MIGRATIONS.map((migration) => migration.version);
    expect([...byFirst, ...bySecond].sort((a, b) => a - b)).toEqual(all);
    expect(await appliedVersions(first)).toEqual(all);
    expect(Number((await first.execute("SELECT COUNT(*) AS n FROM schema_lock")).rows[0]?.n)).toBe(0);
  });

  it("lets two edges start on a new database file at once: both serve, each migration applied once", async () => {
    folder = mkdtempSync(join(tmpdir(), "stockbridge-migrate-"));
    const edges: EdgeProcess[] = await Promise.all(
      [0, 1].map(() => startEdgeProcess({ dataDir: folder, env: SECRETS })),
    );
    for (const edge of edges) cleanups.push(() => edge.stop());

    for (const edge of edges) expect((await fetch(`${edge.origin}/api/health`)).status).toBe(200);
    const db = await (await databaseIn(folder)).open();
    expect(await appliedVersions(db)).toEqual(MIGRATIONS.map((migration) => migration.version));
  });

  it("refuses to serve a database a newer build migrated, naming both versions", async () => {
    folder = mkdtempSync(join(tmpdir(), "stockbridge-migrate-"));
    const db = await (await databaseIn(folder)).open();
    await migrate(db);
    const known = Math.max(...MIGRATIONS.map((migration) => migration.version));
    await db.execute({
      sql: "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, 'from a newer build', ?)",
      args: [known + 1, new Date().toISOString()],
    });

    const { code, output } = await runEdgeToExit({ DATA_DIR: folder, ...SECRETS });

    expect(code).toBe(1);
    expect(output).toContain(
      `The database's schema is at version ${known + 1}, newer than this build knows (${known})`,
    );
  });
});

async function runEdgeToExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const port = String(await freePort());
  const child = spawn(DENO, ["run", "--config", join(ROOT, "deno.json"), ...DENO_FLAGS, "edge/main.ts"], {
    cwd: ROOT,
    env: { ...process.env, PORT: port, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // Were it to serve instead of refusing, it must not outlive the test.
  cleanups.push(() => child.kill("SIGKILL"));
  let output = "";
  child.stdout.on("data", (chunk) => {
    output += String(chunk);
  });
  child.stderr.on("data", (chunk) => {
    output += String(chunk);
  });
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, output })));
}
