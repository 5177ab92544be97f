import { getConnInfo } from "hono/deno";
import { createApp } from "./src/app.ts";
import { type Config, ConfigError, parseConfig } from "./src/config.ts";
import { openDatabase, tuneLocalDatabase } from "./src/db/client.ts";
import { migrate } from "./src/db/migrate.ts";
import { describeError } from "./src/http/errors.ts";
import { type ByteConnection, createPinnedFetch, type OpenConnection } from "./src/security/pinned-fetch.ts";

// The only file that touches Deno.serve, Deno.env and the file system: it reads configuration once,
// builds the real dependencies and hands them to createApp.
const version =
  JSON.parse(await Deno.readTextFile(new URL("../package.json", import.meta.url))).version ?? "0.0.0";

let config: Config;
try {
  config = parseConfig(Deno.env.toObject(), version);
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(`Configuration error: ${error.message}`);
    Deno.exit(1);
  }
  throw error;
}

await Deno.mkdir(config.dataDir, { recursive: true });
if (config.environment === "development") config = await withDevelopmentSecrets(config);

const db = openDatabase(config.databaseUrl, config.databaseAuthToken);
await tuneLocalDatabase(db, config.databaseUrl);
await migrate(db);

const webRoot = new URL(`../${config.webDist}/`, import.meta.url);
const app = createApp({
  config,
  db,
  remoteAddress: (c) => getConnInfo(c).remote.address,
  resolveHost,
  fetch: createPinnedFetch({ fetch: (input, init) => fetch(input, init), open: openConnection }),
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

// Every minute: fail jobs whose process died, then run due schedules. The tick claims rows with a
// lease in the database, so every instance may tick without running a schedule twice. Deploy picks
// up only crons registered at the top level before the server starts.
Deno.cron("stockbridge-schedules", "* * * * *", async () => {
  try {
    const report = await app.tick();
    if (report.ran.length > 0 || report.interrupted.length > 0) {
      console.log(`schedules: ran ${report.ran.length}, recorded ${report.interrupted.length} interrupted`);
    }
  } catch (error) {
    console.error(`schedules tick failed: ${describeError(error)}`);
  }
});

Deno.serve(
  {
    hostname: config.host,
    port: config.port,
    onListen: ({ hostname, port }) => {
      const mode = config.sandboxUrl ? ` (sandbox mode: ${config.sandboxUrl})` : "";
      console.log(`Stockbridge is running at http://${hostname}:${port}${mode}`);
    },
  },
  app.fetch,
);

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
