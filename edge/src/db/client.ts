import { type Client, createClient } from "@libsql/client";

export type Db = Client;

/** Opens libSQL: a local file (`file:...`), `:memory:` for tests, or Turso (`libsql://...` + token). */
export function openDatabase(url: string, authToken?: string): Db {
  return createClient(authToken ? { url, authToken } : { url });
}

/** Local files get WAL and a busy timeout so concurrent requests and the cron tick don't trip on locks. */
export async function tuneLocalDatabase(db: Db, url: string): Promise<void> {
  if (!url.startsWith("file:")) return;
  await db.execute("PRAGMA journal_mode = WAL");
  await db.execute("PRAGMA busy_timeout = 5000");
  await db.execute("PRAGMA foreign_keys = ON");
}
