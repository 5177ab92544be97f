import type { Db } from "./client.ts";
import { MIGRATIONS } from "./migrations/index.ts";

export interface Migration {
  version: number;
  name: string;
  /** Statements run in one write batch (a transaction): a migration applies whole or not at all. */
  statements: string[];
}

/** The database was migrated by a newer build: this one must not serve it (it would miss columns). */
export class SchemaTooNewError extends Error {
  constructor(found: number, known: number) {
    super(
      `The database's schema is at version ${found}, newer than this build knows (${known}): run the build that migrated it, or a newer one.`,
    );
  }
}

export interface MigrateOptions {
  /** Who holds the lock (one id per process). */
  holder?: string;
  /** How long the lock stays taken without renewal; renewed before each migration. */
  leaseMs?: number;
  /** How often an instance waiting for another's migrations asks again. */
  pollMs?: number;
  /** Told once when this instance waits for another's migrations. */
  onWait?: () => void;
}

const LEASE_MS = 120_000;
const POLL_MS = 200;

/**
 * Applies every migration newer than the database's version, in order. Safe to call at each start
 * and on every instance at once: migrations run under a lock row (the instance that takes it
 * applies them; the others wait and find them applied), and each migration is a transaction, so
 * an instance killed mid-migration leaves nothing half-done and its lock runs out after the lease.
 */
export async function migrate(
  db: Db,
  migrations: Migration[] = MIGRATIONS,
  options: MigrateOptions = {},
): Promise<number[]> {
  const holder = options.holder ?? crypto.randomUUID();
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const ordered = [...migrations].sort((a, b) => a.version - b.version);
  const known = ordered.at(-1)?.version ?? 0;
  await db.batch(
    [
      "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
      "CREATE TABLE IF NOT EXISTS schema_lock (id INTEGER PRIMARY KEY CHECK (id = 1), holder TEXT NOT NULL, lease_until INTEGER NOT NULL)",
    ],
    "write",
  );
  let told = false;
  for (;;) {
    if (pendingOf(ordered, await appliedVersions(db, known)).length === 0) return [];
    if (await takeLock(db, holder, leaseMs)) break;
    if (!told) options.onWait?.();
    told = true;
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? POLL_MS));
  }
  try {
    // Read again under the lock: the instance that held it before may have applied some.
    const done: number[] = [];
    for (const migration of pendingOf(ordered, await appliedVersions(db, known))) {
      if (!(await takeLock(db, holder, leaseMs))) throw new Error("The migration lock was lost");
      await db.batch(
        [
          ...migration.statements,
          {
            sql: "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
            args: [migration.version, migration.name, new Date().toISOString()],
          },
        ],
        "write",
      );
      done.push(migration.version);
    }
    return done;
  } finally {
    await db.execute({ sql: "DELETE FROM schema_lock WHERE holder = ?", args: [holder] });
  }
}

async function appliedVersions(db: Db, known: number): Promise<Set<number>> {
  const versions = (await db.execute("SELECT version FROM schema_migrations")).rows.map((row) =>
    Number(row.version),
  );
  const newest = Math.max(0, ...versions);
  if (newest > known) throw new SchemaTooNewError(newest, known);
  return new Set(versions);
}

function pendingOf(ordered: Migration[], applied: Set<number>): Migration[] {
  return ordered.filter((migration) => !applied.has(migration.version));
}

/** Takes the lock when free or run out, or renews it when this holder has it; true when held. */
async function takeLock(db: Db, holder: string, leaseMs: number): Promise<boolean> {
  const now = Date.now();
  const result = await db.execute({
    sql: `INSERT INTO schema_lock (id, holder, lease_until) VALUES (1, ?, ?)
          ON CONFLICT (id) DO UPDATE SET holder = excluded.holder, lease_until = excluded.lease_until
          WHERE schema_lock.holder = excluded.holder OR schema_lock.lease_until < ?`,
    args: [holder, now + leaseMs, now],
  });
  return result.rowsAffected === 1;
}
