import { createRequire } from "node:module";
import type { Client, InArgs, InStatement, Replicated, ResultSet, TransactionMode } from "@libsql/client";
import { createClient as createRemoteClient } from "@libsql/client/web";
import { DatabaseBusyError } from "../errors.ts";

/**
 * The database as the app uses it: statements and batches, each retried when busy. No interactive
 * transactions: one would hold the connection between calls, which renewing it (below) would cut.
 */
export type Db = Omit<Client, "transaction">;

/**
 * How long one unit of work (a statement or a batch) may wait for another connection's lock in all.
 * Two instances on one file under a loaded machine (CI on 2 cores) kept each other's writes out for
 * more than 5 s at a time; a write that answers late is better than a 503 for work that would succeed.
 */
const BUSY_BUDGET_MS = 15_000;
/**
 * Waits between tries double from the first to the last (each jittered), until the budget is spent.
 * The last is short: another process that writes often frees the lock only for moments, and a
 * process that looked every 100 ms seldom saw one (its writes starved past the budget).
 */
const FIRST_WAIT_MS = 5;
const LAST_WAIT_MS = 25;

/** What SQLite keeps per connection (journal_mode WAL stays with the file): a renewed one gets them again. */
const CONNECTION_SETTINGS = [
  // No wait inside SQLite: it sleeps in the native call, which stops every request of the process.
  "PRAGMA busy_timeout = 0",
  "PRAGMA foreign_keys = ON",
  // Reads go through a memory map (up to 256 MB of the file): a page of products reads rows all over
  // the file, and each read then skips a system call and a copy (half the time of a 10-row page at
  // 100,000 rows). The mapped pages count in the RSS but are the OS's file cache, not heap; a bigger
  // page cache (cache_size) measured no faster on top of it and would be heap.
  "PRAGMA mmap_size = 268435456",
  // In WAL a commit then appends to the log without waiting for the disk (only checkpoints sync).
  // FULL syncs on every commit, and the write lock is held through it: on a busy disk one fsync can
  // take seconds, and another instance on the file waited past its busy budget (503) behind it.
  // A crash of the process loses nothing (the log is in the OS's cache); a power cut may lose the
  // last commits but never leaves the file corrupt. Measured: 0.24 ms per insert with FULL, 0.03 ms.
  "PRAGMA synchronous = NORMAL",
  // libSQL is built to keep temporary tables in memory; a pull's swap materializes every staged row
  // and the set of staged keys there (tens of MB at 50,000 rows), so they go to temporary files.
  "PRAGMA temp_store = FILE",
];

export interface BusyOptions {
  /** Default 15 s (BUSY_BUDGET_MS), waited without blocking the thread. */
  budgetMs?: number;
  /** Told when a call starts waiting for the lock (tests wait on it rather than on time). */
  onWait?: () => void;
}

/**
 * Opens libSQL: a local file (`file:...`), `:memory:` for tests, or a remote database (Turso's
 * `libsql://...` + token, or any libSQL server over `http(s)://`).
 * A remote database goes through `@libsql/client/web` (HTTP only): the default client loads
 * libSQL's native module even for a remote URL, which Deno Deploy cannot run, so that one is
 * required on first use of a local file only. A local file gets one connection: the client would
 * otherwise open another for each call made while one is borrowed, without the per-connection
 * settings of tuneLocalDatabase, and calls run one at a time on this thread anyway. Calls that
 * meet another connection's lock are tried again within a budget (BusyRetryingClient).
 */
export function openDatabase(url: string, authToken?: string, options: { busy?: BusyOptions } = {}): Db {
  const local = isLocalDatabase(url);
  const client = !local
    ? createRemoteClient({ url, authToken })
    : nativeClient().createClient(url.startsWith("file:") ? { url, concurrency: 1 } : { url });
  return new BusyRetryingClient(client, {
    ...options.busy,
    renewable: local && !url.includes(":memory:"),
  });
}

/** A file or memory database (the native client); anything else is reached over the network. */
export function isLocalDatabase(url: string): boolean {
  return url === ":memory:" || url.startsWith("file:");
}

/** The folder a local database file lives in (created before opening), or null for memory / remote. */
export function localDatabaseFolder(url: string): string | null {
  if (!url.startsWith("file:") || url.includes(":memory:")) return null;
  const path = decodeURIComponent(
    url
      .slice("file:".length)
      .replace(/^\/\/(?=\/)/, "")
      .split("?")[0] ?? "",
  );
  const slash = path.lastIndexOf("/");
  return slash > 0 ? path.slice(0, slash) : slash === 0 ? "/" : ".";
}

/** The URL as it may be shown: scheme, host and path, never credentials or an `authToken` query. */
export function describeDatabaseUrl(url: string): string {
  if (isLocalDatabase(url)) return url.split("?")[0] ?? url;
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === "/" ? "" : parsed.pathname}`;
  } catch {
    return "(not a URL)";
  }
}

let native: typeof import("@libsql/client") | undefined;
/** The native client, loaded on first use (see openDatabase): a static import would load it for every URL. */
function nativeClient(): typeof import("@libsql/client") {
  native ??= createRequire(import.meta.url)("@libsql/client") as typeof import("@libsql/client");
  return native;
}

/** Local files get WAL, so readers never wait for a writer, and the per-connection settings above. */
export async function tuneLocalDatabase(db: Db, url: string): Promise<void> {
  if (!url.startsWith("file:")) return;
  await db.execute("PRAGMA journal_mode = WAL");
  for (const setting of CONNECTION_SETTINGS) await db.execute(setting);
}

/** The connections whose memory map withoutMemoryMap turned off, with how many calls still need it off. */
const unmapped = new WeakMap<Db, { holders: number; size: Promise<number> }>();

/**
 * Runs `work` with the local connection's memory map off (mmap_size 0), then maps the file again:
 * for work that reads a large part of the file once, like a catalog pull's swap and search
 * indexing. Every page read through the map stays in the process's RSS until the map is dropped
 * (+60 MB for a 50,000-variant pull); read() goes through the OS's file cache instead, measured as
 * fast for these reads. Not for many small calls: each switch drops the map's pages, which the next
 * reads fault in again. Calls that overlap share one switch: the map comes back when the last ends.
 * Other calls in between (a product list) read without the map, which is only slower.
 */
export async function withoutMemoryMap<T>(db: Db, work: () => Promise<T>): Promise<T> {
  if (db.protocol !== "file") return work();
  let state = unmapped.get(db);
  if (!state) {
    const size = db.execute("PRAGMA mmap_size").then(async (result) => {
      const bytes = Number(result.rows[0]?.[0] ?? 0);
      if (bytes > 0) await db.execute("PRAGMA mmap_size = 0");
      return bytes;
    });
    state = { holders: 0, size };
    unmapped.set(db, state);
  }
  state.holders += 1;
  const held = state;
  let bytes = 0;
  try {
    bytes = await held.size;
    return await work();
  } finally {
    held.holders -= 1;
    // Issued before anything else can run, so a call starting now reads the map as it was.
    if (held.holders === 0) {
      unmapped.delete(db);
      if (bytes > 0) await db.execute(`PRAGMA mmap_size = ${bytes}`);
    }
  }
}

/** From this many rows a call reads enough of the file to be worth running without the map. */
export const LARGE_WORK_ROWS = 1_000;

/**
 * withoutMemoryMap for work over `rows` rows from LARGE_WORK_ROWS on (a full sync's reads and
 * writes), else `work` as it is: a one-mapping sync must not drop the map's pages for every reader.
 */
export function withoutMemoryMapFor<T>(db: Db, rows: number, work: () => Promise<T>): Promise<T> {
  return rows >= LARGE_WORK_ROWS ? withoutMemoryMap(db, work) : work();
}

/** SQLITE_BUSY and its extended codes ("database is locked", "cannot commit transaction"). */
function isBusyError(error: unknown): boolean {
  if (!(error instanceof Error) || !("code" in error)) return false;
  const { code } = error;
  return typeof code === "string" && (code === "SQLITE_BUSY" || code.startsWith("SQLITE_BUSY_"));
}

/**
 * Tries a unit of work again while the database is locked by another connection (another process
 * on the file, or Turso under write load), waiting without blocking the thread; past the budget it
 * throws DatabaseBusyError (503 with Retry-After). Only whole units are retried, each of which left
 * nothing behind when it failed busy: a statement on its own (autocommit) and a batch (one
 * transaction, rolled back on failure). executeMultiple is not, as it commits statement by statement.
 *
 * A local statement that fails busy stays open in libsql (it resets a statement before running it,
 * not after a failure) until the garbage collector finalizes it; until then every COMMIT on that
 * connection fails with "cannot commit transaction - SQL statements in progress", reads included.
 * So a busy failure renews the local connection before the next call runs (the client reconnects
 * and the new connection gets CONNECTION_SETTINGS), and the wait for the lock probes it in a way
 * that leaves nothing open (a renewal per failed try left hundreds of file handles to the collector).
 */
class BusyRetryingClient implements Db {
  readonly #client: Client;
  readonly #budgetMs: number;
  readonly #onWait: (() => void) | undefined;
  readonly #renewable: boolean;
  /** The call before this one (see #use): each waits for it. */
  #turn: Promise<void> = Promise.resolve();
  /** The connection may hold a statement a busy failure left open: renewed before the next call. */
  #stale = false;
  /** The probe loop the calls waiting for the write lock share (see #waitForWriteLock). */
  #lockFree: Promise<void> | null = null;
  #lockWaiters = 0;

  constructor(client: Client, options: BusyOptions & { renewable: boolean }) {
    this.#client = client;
    this.#budgetMs = options.budgetMs ?? BUSY_BUDGET_MS;
    this.#onWait = options.onWait;
    this.#renewable = options.renewable;
  }

  get closed(): boolean {
    return this.#client.closed;
  }

  get protocol(): string {
    return this.#client.protocol;
  }

  execute(stmt: InStatement): Promise<ResultSet>;
  execute(sql: string, args?: InArgs): Promise<ResultSet>;
  execute(stmtOrSql: InStatement | string, args?: InArgs): Promise<ResultSet> {
    return this.#retry(() =>
      typeof stmtOrSql === "string" ? this.#client.execute(stmtOrSql, args) : this.#client.execute(stmtOrSql),
    );
  }

  batch(stmts: Array<InStatement | [string, InArgs?]>, mode?: TransactionMode): Promise<ResultSet[]> {
    return this.#retry(() => this.#client.batch(stmts, mode));
  }

  migrate(stmts: InStatement[]): Promise<ResultSet[]> {
    return this.#retry(() => this.#client.migrate(stmts));
  }

  executeMultiple(sql: string): Promise<void> {
    return this.#use(() => this.#client.executeMultiple(sql));
  }

  sync(): Promise<Replicated> {
    return this.#use(() => this.#client.sync());
  }

  close(): void {
    this.#client.close();
  }

  reconnect(): void {
    this.#client.reconnect();
  }

  async #retry<T>(work: () => Promise<T>): Promise<T> {
    const deadline = performance.now() + this.#budgetMs;
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await this.#use(work);
      } catch (error) {
        if (!isBusyError(error)) throw error;
        // Refused only for a statement another call left open: the renewed connection has none, and
        // a read must not wait for the write lock (WAL lets it run beside a writer).
        if (error instanceof Error && error.message.includes("statements in progress")) {
          if (performance.now() > deadline) throw new DatabaseBusyError();
        } else {
          await this.#waitForWriteLock(deadline, attempt);
        }
      }
    }
  }

  /**
   * Waits until the write lock is free, or throws DatabaseBusyError past the deadline. Locally one
   * probe loop per process asks for every waiting call (as one executeMultiple, whose statements are
   * finalized even when they fail, so a busy probe leaves nothing open and needs no renewal): fifty
   * waiting calls probing each would themselves keep the lock from the other process. Remotely the
   * next try of the work is the probe.
   */
  async #waitForWriteLock(deadline: number, attempt: number): Promise<void> {
    this.#onWait?.();
    if (!this.#renewable) {
      const wait = jittered(attempt);
      if (performance.now() + wait > deadline) throw new DatabaseBusyError();
      await sleep(wait);
      return;
    }
    const left = deadline - performance.now();
    if (left <= 0) throw new DatabaseBusyError();
    this.#lockWaiters += 1;
    this.#lockFree ??= this.#probeUntilFree().finally(() => {
      this.#lockFree = null;
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const free = await Promise.race([
        this.#lockFree.then(() => true),
        new Promise<false>((resolve) => {
          timer = setTimeout(() => resolve(false), left);
        }),
      ]);
      if (!free) throw new DatabaseBusyError();
    } finally {
      clearTimeout(timer);
      this.#lockWaiters -= 1;
    }
  }

  /** Probes with growing waits until the lock is free, or until no call waits for it any more. */
  async #probeUntilFree(): Promise<void> {
    for (let attempt = 0; this.#lockWaiters > 0; attempt += 1) {
      await sleep(jittered(attempt));
      let free: boolean;
      try {
        // Caught inside the call: a busy probe left nothing open, so the connection needs no renewal.
        free = await this.#use(async () => {
          try {
            await this.#client.executeMultiple("BEGIN IMMEDIATE; ROLLBACK");
            return true;
          } catch (error) {
            if (isBusyError(error)) return false;
            throw error;
          }
        });
      } catch (error) {
        // The renewal before the probe met the lock (its settings read the file, which a process
        // turning a new file to WAL holds exclusively): still locked, and renewed at the next probe.
        if (!isBusyError(error)) throw error;
        free = false;
      }
      if (free) return;
    }
  }

  /**
   * Runs a call on the connection, one at a time (the local client has one connection, so nothing
   * runs in parallel anyway), renewing it first when the call before failed busy. One at a time is
   * what makes that renewal safe: a call queued behind the busy one would otherwise run on the old
   * connection with the failed statement still open, and a batch there can take the write lock,
   * fail its COMMIT ("statements in progress") and its ROLLBACK too, leaving a closed-but-alive
   * connection that holds the write lock until the collector finalizes the statement: both
   * instances on the file then failed every write for more than 15 s. After a failed renewal (the
   * file unreachable for a moment) each call tries it again, and fails with its cause while it
   * still fails: the process recovers when the file does, without a restart.
   */
  async #use<T>(work: () => Promise<T>): Promise<T> {
    // A remote database answers each call over its own HTTP request: nothing to queue or renew.
    if (!this.#renewable) return work();
    const before = this.#turn;
    let done = () => {};
    this.#turn = new Promise<void>((resolve) => {
      done = resolve;
    });
    await before;
    try {
      if (this.#stale && !this.#client.closed) {
        this.#client.reconnect();
        for (const setting of CONNECTION_SETTINGS) await this.#client.execute(setting);
        this.#stale = false;
      }
      return await work();
    } catch (error) {
      if (isBusyError(error)) this.#stale = true;
      throw error;
    } finally {
      done();
    }
  }
}

/** The wait before try `attempt`, doubling to LAST_WAIT_MS; jittered so processes do not try in step. */
function jittered(attempt: number): number {
  const ceiling = Math.min(LAST_WAIT_MS, FIRST_WAIT_MS * 2 ** attempt);
  return Math.ceil(ceiling / 2 + (Math.random() * ceiling) / 2);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
