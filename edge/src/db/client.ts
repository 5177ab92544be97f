import { type Client, createClient } from "@libsql/client";

export type Db = Client;

/**
 * Opens libSQL: a local file (`file:...`), `:memory:` for tests, or Turso (`libsql://...` + token).
 * A local file gets one connection: the client would otherwise open another for each call made
 * while one is borrowed, without the per-connection settings of tuneLocalDatabase (busy timeout,
 * memory map, temp store), and calls run one at a time on this thread anyway.
 */
export function openDatabase(url: string, authToken?: string): Db {
  if (authToken) return createClient({ url, authToken });
  return createClient(url.startsWith("file:") ? { url, concurrency: 1 } : { url });
}

/**
 * Local files get WAL and a busy timeout so concurrent requests and the cron tick don't trip on
 * locks. Reads go through a memory map (up to 256 MB of the file): a page of products reads rows all
 * over the file, and each read then skips a system call and a copy (half the time of a 10-row page
 * at 100,000 rows). The mapped pages count in the RSS but are the OS's file cache, not heap; a
 * bigger page cache (cache_size) measured no faster on top of it and would be heap.
 */
export async function tuneLocalDatabase(db: Db, url: string): Promise<void> {
  if (!url.startsWith("file:")) return;
  await db.execute("PRAGMA journal_mode = WAL");
  await db.execute("PRAGMA busy_timeout = 5000");
  await db.execute("PRAGMA foreign_keys = ON");
  await db.execute("PRAGMA mmap_size = 268435456");
  // libSQL is built to keep temporary tables in memory; a pull's swap materializes every staged row
  // and the set of staged keys there (tens of MB at 50,000 rows), so they go to temporary files.
  await db.execute("PRAGMA temp_store = FILE");
}
