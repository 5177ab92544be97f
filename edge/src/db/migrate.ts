import type { Db } from "./client.ts";
import { MIGRATIONS } from "./migrations.ts";

export interface Migration {
  version: number;
  name: string;
  /** Statements run in one write batch (a transaction): a migration applies whole or not at all. */
  statements: string[];
}

/** Applies every migration newer than the database's version, in order. Safe to call at each start. */
export async function migrate(db: Db, migrations: Migration[] = MIGRATIONS): Promise<number[]> {
  await db.execute(
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
  );
  const applied = new Set(
    (await db.execute("SELECT version FROM schema_migrations")).rows.map((row) => Number(row.version)),
  );
  const done: number[] = [];
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    if (applied.has(migration.version)) continue;
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
}
