import { getConnInfo } from "hono/deno";
import { createApp } from "./src/app.ts";
import { type Config, ConfigError, parseConfig } from "./src/config.ts";
import {
  type Db,
  describeDatabaseUrl,
  isLocalDatabase,
  localDatabaseFolder,
  openDatabase,
  tuneLocalDatabase,
} from "./src/db/client.ts";
import { migrate, SchemaTooNewError } from "./src/db/migrate.ts";
import { createJsonLogger, type LogLevel } from "./src/observability/log.ts";
import { type ByteConnection, createPinnedFetch, type OpenConnection } from "./src/security/pinned-fetch.ts";
import { SCHEDULES_CRON } from "./src/system/health.ts";
import { createShutdown } from "./src/system/shutdown.ts";

/** How long running jobs get to finish once the server stopped taking requests. */
const JOBS_GRACE_MS = 5_000;
/** What a job's announcement on the platform queue says (other messages are not ours). */
const JOB_MESSAGE = "stockbridge.job";

// The only file that touches Deno.serve, Deno.env and the file system: it reads configuration once,
// builds the real dependencies and hands them to createApp.
const writeLine = (line: string, level: LogLevel) =>
  level === "info" ? console.log(line) : console.error(line);
let logger = createJsonLogger(writeLine);

const version =
  JSON.parse(await Deno.readTextFile(new URL("../package.json", import.meta.url))).version ?? "0.0.0";

let config: Config;
try {
  config = parseConfig(Deno.env.toObject(), version);
} catch (error) {
  if (error instanceof ConfigError) {
    logger.error(`Configuration error: ${error.message}`);
    Deno.exit(1);
  }
  throw error;
}
logger = createJsonLogger(writeLine, undefined, config.logLevel);

// Nothing is written to disk for a remote database: Deno Deploy gives no write permission. A local
// file's folder is made before opening it; development secrets make the data folder when they
// first need to be kept.
const databaseFolder = localDatabaseFolder(config.databaseUrl);
if (databaseFolder) await Deno.mkdir(databaseFolder, { recursive: true });
if (config.environment === "development") config = await withDevelopmentSecrets(config);

const db = await openMigratedDatabase(config);

// The platform's queue, where configured: each job the tick queues is announced on Deno KV's queue,
// which delivers it to an instance at once (on Deno Deploy, whichever it picks), and that instance
// runs it inside the delivery, so the platform keeps it alive for the work.
const jobQueue = config.jobQueue === "deno-kv" ? await Deno.openKv(config.denoKvPath) : null;

const webRoot = new URL(`../${config.webDist}/`, import.meta.url);
const app = createApp({
  config,
  db,
  logger,
  remoteAddress: (c) => getConnInfo(c).remote.address,
  resolveHost,
  fetch: createPinnedFetch({ fetch: (input, init) => fetch(input, init), open: openConnection }),
  wakeJob: jobQueue
    ? async (jobId) => {
        await jobQueue.enqueue({ kind: JOB_MESSAGE, jobId });
      }
    : undefined,
  webAssets: {
    async read(path) {
      try {
        return await Deno.readFile(new URL(`.${path}`, webRoot));
      } catch {
        return null;
      }
    },
  },
});

// Every minute: resume jobs whose process died, queue due schedules as jobs and run what this
// instance may of the queue. The tick claims rows with a lease in the database, so every instance
// may tick without running a schedule twice. Deploy picks up only crons registered at the top level
// before the server starts.
async function tick(): Promise<void> {
  try {
    const report = await app.tick();
    if (report.ran.length > 0 || report.interrupted.length > 0) {
      logger.info("schedules ticked", { ran: report.ran.length, interrupted: report.interrupted.length });
    }
  } catch (error) {
    logger.error("schedules tick failed", { error });
  }
}
Deno.cron(SCHEDULES_CRON, "* * * * *", tick);
// Registered at the top level, like the cron: Deploy wakes an isolate for each delivery.
jobQueue?.listenQueue(async (message: unknown) => {
  const jobId = jobIdOf(message);
  if (!jobId) return;
  try {
    await app.runQueuedJob(jobId);
  } catch (error) {
    // Not thrown back: a redelivery would find the job claimed; the poll and tick take it over.
    logger.error("queued job not run", { jobId, error });
  }
});
// One tick at a time in this process: a long one is not overlapped by the next interval.
let ticking = false;
const tickTimer =
  config.tickSeconds === undefined
    ? undefined
    : setInterval(() => {
        if (ticking) return;
        ticking = true;
        void tick().finally(() => {
          ticking = false;
        });
      }, config.tickSeconds * 1000);

// Between ticks, every few seconds: queued jobs (another instance's fan-out, a stopped instance's
// work) are claimed here when this instance has room; first at once, for what a stop handed back.
const sweepJobs = () =>
  app.sweepJobs().catch((error: unknown) => logger.error("job sweep failed", { error }));
void sweepJobs();
const jobPoll = setInterval(sweepJobs, config.jobPollSeconds * 1000);

const server = Deno.serve(
  {
    hostname: config.host,
    port: config.port,
    onListen: ({ hostname, port }) => {
      const mode = config.sandboxUrl ? ` (sandbox mode: ${config.sandboxUrl})` : "";
      logger.info(`Stockbridge is running at http://${hostname}:${port}${mode}`, {
        version,
        environment: config.environment,
        database: describeDatabaseUrl(config.databaseUrl),
      });
    },
  },
  app.fetch,
);

// SIGTERM (a redeploy, `docker stop`) or Ctrl-C: stop taking requests, let those in flight finish,
// then close the database. Deno Deploy stops isolates itself and may not offer signal listeners.
const shutdown = createShutdown({ logger, stopServer: () => server.shutdown() });
// Jobs get a few seconds to finish; the rest go back to the queue for another instance (or this
// one's next start) to resume from their last checkpoint; then the database closes.
shutdown.add({
  name: "jobs",
  run: async () => {
    clearInterval(jobPoll);
    clearInterval(tickTimer);
    const released = await app.stopJobs(JOBS_GRACE_MS);
    if (released.length > 0) logger.warn("jobs handed back to the queue unfinished", { jobs: released });
  },
});
shutdown.add({ name: "job queue", run: () => jobQueue?.close() });
shutdown.add({ name: "database", run: () => db.close() });
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  try {
    Deno.addSignalListener(signal, () => {
      void shutdown.run(signal).then(() => Deno.exit(0));
    });
  } catch {
    // no signals here (Deno Deploy, or SIGTERM on Windows)
  }
}

/**
 * Opens the database and brings its schema up to date. A database that cannot be reached stops the
 * start with one line naming LIBSQL_URL (without its credentials) and the reason, not a stack trace.
 */
async function openMigratedDatabase(current: Config): Promise<Db> {
  const where = describeDatabaseUrl(current.databaseUrl);
  let opened: Db | null = null;
  try {
    opened = openDatabase(current.databaseUrl, current.databaseAuthToken);
    await tuneLocalDatabase(opened, current.databaseUrl);
    await migrate(opened, undefined, {
      onWait: () => logger.info("waiting for another instance to finish migrating the database"),
    });
    return opened;
  } catch (error) {
    opened?.close();
    if (error instanceof SchemaTooNewError) {
      logger.error(error.message);
      Deno.exit(1);
    }
    const hint = isLocalDatabase(current.databaseUrl)
      ? "check the path and its permissions, or set LIBSQL_URL"
      : "check LIBSQL_URL and LIBSQL_AUTH_TOKEN, and that the database accepts connections";
    logger.error(`Cannot open the database at LIBSQL_URL=${where}: ${reasonOf(error)} (${hint})`);
    Deno.exit(1);
  }
}

/** An error's message and its causes' messages, without the stack. */
function reasonOf(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 4; depth += 1) {
    const text = current instanceof Error ? current.message : String(current);
    if (text && !parts.some((part) => part.includes(text))) parts.push(text);
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(": ") || "unknown error";
}

/**
 * Locally the token secret and the encryption key are generated once and kept in the data folder,
 * so `npm start` needs no set-up and sessions survive a restart. Production must configure both.
 * In sandbox mode the Stripe webhook secret is kept there too: the sandbox started by `npm start`
 * or `npm run sandbox` on the same folder signs with it (scripts/lib.mjs, developmentWebhookSecret).
 */
async function withDevelopmentSecrets(current: Config): Promise<Config> {
  const file = `${current.dataDir}/dev-secrets.json`;
  let stored: { jwtSecret?: string; encryptionKeys?: string; stripeWebhookSecret?: string } = {};
  try {
    stored = JSON.parse(await Deno.readTextFile(file));
  } catch {
    // first start: generate below
  }
  const bytes = () => crypto.getRandomValues(new Uint8Array(32));
  const random = () => btoa(String.fromCharCode(...bytes()));
  const hex = () => [...bytes()].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  const secrets = {
    jwtSecret: current.jwtSecret ?? stored.jwtSecret ?? random(),
    encryptionKeys: current.encryptionKeys ?? stored.encryptionKeys ?? `dev1:${random()}`,
  };
  const webhookSecret =
    current.stripeWebhookSecret || !current.sandboxUrl
      ? stored.stripeWebhookSecret
      : (stored.stripeWebhookSecret ?? `whsec_${hex()}`);
  if (
    secrets.jwtSecret !== stored.jwtSecret ||
    secrets.encryptionKeys !== stored.encryptionKeys ||
    webhookSecret !== stored.stripeWebhookSecret
  ) {
    const kept = { ...stored, ...secrets, stripeWebhookSecret: webhookSecret };
    await Deno.mkdir(current.dataDir, { recursive: true });
    await Deno.writeTextFile(file, JSON.stringify(kept, null, 2), { mode: 0o600 });
  }
  return {
    ...current,
    ...secrets,
    stripeWebhookSecret: current.stripeWebhookSecret ?? (current.sandboxUrl ? webhookSecret : undefined),
  };
}

/** Every A and AAAA address of a host, for the outbound address guard (a missing family is no error). */
async function resolveHost(hostname: string): Promise<string[]> {
  const lookups = await Promise.allSettled([
    Deno.resolveDns(hostname, "A"),
    Deno.resolveDns(hostname, "AAAA"),
  ]);
  return lookups.flatMap((lookup) => (lookup.status === "fulfilled" ? lookup.value : []));
}

/**
 * A socket to an address the outbound guard checked (an IP, so no DNS happens here), with TLS for
 * https: SNI and certificate verification use the URL's host name against the default roots.
 */
async function openConnection(options: Parameters<OpenConnection>[0]): Promise<ByteConnection> {
  const tcp = await Deno.connect({ hostname: options.address, port: options.port });
  let conn: Deno.Conn = tcp;
  if (options.tlsHostname) {
    try {
      conn = await Deno.startTls(tcp, { hostname: options.tlsHostname, alpnProtocols: ["http/1.1"] });
    } catch (error) {
      tcp.close();
      throw error;
    }
  }
  return {
    readable: conn.readable,
    writable: conn.writable,
    close() {
      try {
        conn.close();
      } catch {
        // already closed (the server ended the stream, or the body was read to its end)
      }
    },
  };
}

/** The job a queue message names, if it is one of ours. */
function jobIdOf(message: unknown): string | null {
  if (typeof message !== "object" || message === null) return null;
  const { kind, jobId } = message as { kind?: unknown; jobId?: unknown };
  return kind === JOB_MESSAGE && typeof jobId === "string" ? jobId : null;
}
