import { LOG_LEVELS, type LogLevel } from "./observability/log.ts";
/**
 * Configuration: read once from the environment by main.ts, validated here with a clear message for
 * a bad value. Nothing else reads the environment.
 */
export interface Config {
  environment: "development" | "production";
  host: string;
  port: number;
  /** Public origin of the app, used for Stripe return URLs. */
  appOrigin: string;
  databaseUrl: string;
  databaseAuthToken: string | undefined;
  /** Only a local database file (and, in development, the generated secrets) is written here. */
  dataDir: string;
  webDist: string;
  /** HS256 secret for session tokens (>= 32 bytes). */
  jwtSecret: string | undefined;
  tokenTtlSeconds: number;
  /** `id:base64key` pairs, comma-separated; the first encrypts, all decrypt (rotation). */
  encryptionKeys: string | undefined;
  passwordIterations: number;
  /** Registrations one client address may make per minute (each costs a password hash). */
  registrationsPerMinute: number;
  /** How long jobs, history entries of running syncs and Acumatica session slots stay claimed without a heartbeat. */
  runLeaseSeconds: number;
  /** Queued jobs one instance runs at once (a user's own start always runs at once). */
  jobConcurrency: number;
  /** How often an instance looks for queued jobs and jobs whose instance stopped (main.ts). */
  jobPollSeconds: number;
  /**
   * Also tick every this many seconds, beside the minute cron (self-hosting where no cron runs,
   * tests of several instances); undefined: the cron alone.
   */
  tickSeconds: number | undefined;
  /**
   * `deno-kv`: queued jobs are announced on Deno KV's queue (Deno Deploy's, or the file at
   * `denoKvPath`), which delivers each to an instance at once; unset: polls and ticks claim them.
   */
  jobQueue: "deno-kv" | undefined;
  denoKvPath: string | undefined;
  corsOrigins: string[];
  trustProxy: boolean;
  /** Proxies in front of the app that append to X-Forwarded-For (read only with trustProxy). */
  trustedProxyHops: number;
  /** Sandbox mode: the simulators' origin; Shopify, Acumatica demo and Stripe point there. */
  sandboxUrl: string | undefined;
  allowPrivateNetwork: boolean;
  stripeSecretKey: string | undefined;
  stripeWebhookSecret: string | undefined;
  stripeApiUrl: string | undefined;
  /** Bearer token `GET /api/metrics` asks for; production answers 401 without one configured. */
  metricsToken: string | undefined;
  /** Where alert emails go out (`smtp://` or `smtps://`, credentials in the URL); none: no email alerts. */
  smtpUrl: string | undefined;
  /** The From of alert emails. */
  smtpFrom: string;
  /** The least severe log line written: `info` (with the access log), `warn` or `error`. */
  logLevel: LogLevel;
  version: string;
}

export class ConfigError extends Error {}

const OWASP_PBKDF2_SHA256_ITERATIONS = 600_000;

export function parseConfig(env: Record<string, string | undefined>, version = "0.0.0"): Config {
  const environment = oneOf(env, "APP_ENV", {
    choices: ["development", "production"],
    fallback: "development",
  });
  const port = integer(env, "PORT", { fallback: 8000, min: 1, max: 65_535 });
  const host = env.HOST?.trim() || "127.0.0.1";
  const dataDir = env.DATA_DIR?.trim() || ".data";
  const sandboxUrl = optionalUrl(env, "SANDBOX_URL");
  const passwordIterations = integer(env, "PASSWORD_ITERATIONS", {
    fallback: OWASP_PBKDF2_SHA256_ITERATIONS,
    min: 1_000,
    max: 10_000_000,
  });
  if (environment === "production" && passwordIterations < OWASP_PBKDF2_SHA256_ITERATIONS) {
    throw new ConfigError(
      `PASSWORD_ITERATIONS must be at least ${OWASP_PBKDF2_SHA256_ITERATIONS} in production`,
    );
  }
  const jwtSecret = env.JWT_SECRET?.trim() || undefined;
  if (jwtSecret && jwtSecret.length < 32) throw new ConfigError("JWT_SECRET must be at least 32 characters");
  if (environment === "production") {
    if (!jwtSecret) throw new ConfigError("JWT_SECRET is required in production");
    if (!env.ENCRYPTION_KEYS) throw new ConfigError("ENCRYPTION_KEYS is required in production");
    if (sandboxUrl) throw new ConfigError("SANDBOX_URL must not be set in production");
    // Without it the app would run on a throw-away local file: every deploy would start empty.
    if (!env.LIBSQL_URL?.trim()) {
      throw new ConfigError(
        "LIBSQL_URL is required in production (libsql://<database>.turso.io, or file:/path/stockbridge.db when self-hosting)",
      );
    }
  }
  const metricsToken = env.METRICS_TOKEN?.trim() || undefined;
  const appOrigin = optionalUrl(env, "APP_ORIGIN") ?? `http://${host}:${port}`;
  if (metricsToken && metricsToken.length < 16) {
    throw new ConfigError("METRICS_TOKEN must be at least 16 characters");
  }
  return {
    environment,
    host,
    port,
    appOrigin,
    databaseUrl: env.LIBSQL_URL?.trim() || `file:${dataDir}/stockbridge.db`,
    databaseAuthToken: env.LIBSQL_AUTH_TOKEN?.trim() || undefined,
    dataDir,
    webDist: env.WEB_DIST?.trim() || "web/dist",
    jwtSecret,
    tokenTtlSeconds: integer(env, "TOKEN_TTL_SECONDS", { fallback: 3_600, min: 60, max: 86_400 }),
    encryptionKeys: env.ENCRYPTION_KEYS?.trim() || undefined,
    passwordIterations,
    registrationsPerMinute: integer(env, "REGISTRATIONS_PER_MINUTE", { fallback: 10, min: 1, max: 100_000 }),
    runLeaseSeconds: integer(env, "RUN_LEASE_SECONDS", { fallback: 60, min: 1, max: 3_600 }),
    jobConcurrency: integer(env, "JOB_CONCURRENCY", { fallback: 4, min: 1, max: 64 }),
    jobPollSeconds: integer(env, "JOB_POLL_SECONDS", { fallback: 5, min: 1, max: 300 }),
    tickSeconds: env.TICK_SECONDS?.trim()
      ? integer(env, "TICK_SECONDS", { fallback: 60, min: 1, max: 3_600 })
      : undefined,
    jobQueue: jobQueueOf(env.JOB_QUEUE),
    denoKvPath: env.DENO_KV_PATH?.trim() || undefined,
    corsOrigins: (env.CORS_ORIGINS ?? "")
      .split(",")
      .map((origin) => origin.trim())
      .filter(Boolean),
    trustProxy: boolean(env, "TRUST_PROXY", false),
    trustedProxyHops: integer(env, "TRUSTED_PROXY_HOPS", { fallback: 1, min: 1, max: 10 }),
    sandboxUrl,
    allowPrivateNetwork: boolean(env, "ALLOW_PRIVATE_NETWORK", Boolean(sandboxUrl)),
    stripeSecretKey: env.STRIPE_SECRET_KEY?.trim() || undefined,
    stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET?.trim() || undefined,
    stripeApiUrl: optionalUrl(env, "STRIPE_API_URL") ?? sandboxUrl,
    metricsToken,
    smtpUrl: smtpUrl(env),
    smtpFrom: smtpFrom(env, appOrigin),
    logLevel: oneOf(env, "LOG_LEVEL", { choices: LOG_LEVELS, fallback: "info" }),
    version,
  };
}

function integer(
  env: Record<string, string | undefined>,
  name: string,
  { fallback, min, max }: { fallback: number; min: number; max: number },
): number {
  const text = env[name]?.trim();
  if (!text) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max} (got "${text}")`);
  }
  return value;
}

function boolean(env: Record<string, string | undefined>, name: string, fallback: boolean): boolean {
  const text = env[name]?.trim().toLowerCase();
  if (!text) return fallback;
  if (text === "true" || text === "1") return true;
  if (text === "false" || text === "0") return false;
  throw new ConfigError(`${name} must be true or false (got "${text}")`);
}

function oneOf<T extends string>(
  env: Record<string, string | undefined>,
  name: string,
  { choices, fallback }: { choices: readonly T[]; fallback: T },
): T {
  const text = env[name]?.trim();
  if (!text) return fallback;
  if ((choices as readonly string[]).includes(text)) return text as T;
  throw new ConfigError(`${name} must be one of ${choices.join(", ")} (got "${text}")`);
}

function optionalUrl(env: Record<string, string | undefined>, name: string): string | undefined {
  const text = env[name]?.trim();
  if (!text) return undefined;
  try {
    const url = new URL(text);
    return url.origin + url.pathname.replace(/\/$/, "");
  } catch {
    throw new ConfigError(`${name} must be a URL (got "${text}")`);
  }
}

/** SMTP_URL as nodemailer reads it; only its scheme and host are checked here (the password is not echoed). */
function smtpUrl(env: Record<string, string | undefined>): string | undefined {
  const text = env.SMTP_URL?.trim();
  if (!text) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError("SMTP_URL must be a URL like smtp://user:password@smtp.example.com:587");
  }
  if ((url.protocol !== "smtp:" && url.protocol !== "smtps:") || !url.hostname) {
    throw new ConfigError(
      `SMTP_URL must start with smtp:// or smtps:// and name a host (got ${url.protocol}//${url.hostname})`,
    );
  }
  return text;
}

/** SMTP_FROM, or alerts@ the app's host (alerts@localhost when the origin is an address). */
function smtpFrom(env: Record<string, string | undefined>, appOrigin: string): string {
  const text = env.SMTP_FROM?.trim();
  if (text) {
    if (!/@[^\s@>]+/.test(text) || /[\r\n]/.test(text)) {
      throw new ConfigError(
        `SMTP_FROM must be an address like "Stockbridge <alerts@example.com>" (got "${text}")`,
      );
    }
    return text;
  }
  const host = new URL(appOrigin).hostname;
  const named = /[a-z]/i.test(host) && !host.includes(":") ? host : "localhost";
  return `Stockbridge <alerts@${named}>`;
}

function jobQueueOf(value: string | undefined): "deno-kv" | undefined {
  const queue = value?.trim();
  if (!queue) return undefined;
  if (queue === "deno-kv") return queue;
  throw new ConfigError(`JOB_QUEUE must be deno-kv or unset (got "${queue}")`);
}
