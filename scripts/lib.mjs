// Helpers shared by the start, test and sandbox scripts (plain Node, no dependencies, so they run
// before `npm install` has happened).
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";

export const ROOT = resolve(import.meta.dirname, "..");
export const DENO = join(ROOT, "node_modules", ".bin", "deno");
export const DENO_FLAGS = [
  "--allow-net",
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-ffi",
  "--allow-sys",
];

/** Installs dependencies when node_modules is missing or older than the lockfile. */
export function ensureDependencies() {
  const marker = join(ROOT, "node_modules", ".package-lock.json");
  const lock = join(ROOT, "package-lock.json");
  if (
    existsSync(marker) &&
    existsSync(DENO) &&
    (!existsSync(lock) || statSync(marker).mtimeMs >= statSync(lock).mtimeMs)
  )
    return;
  console.log("Installing dependencies (npm install)...");
  run("npm", ["install", "--no-audit", "--no-fund"]);
}

/** Builds the web app when any of its sources is newer than the last build. */
export function ensureWebBuild() {
  const built = join(ROOT, "web", "dist", "index.html");
  const sources = [
    "web/src",
    "web/public",
    "web/index.html",
    "web/vite.config.ts",
    "web/package.json",
    "shared/src",
  ];
  const newest = Math.max(...sources.map((source) => newestMtime(join(ROOT, source))));
  if (existsSync(built) && statSync(built).mtimeMs >= newest) return;
  console.log("Building the web app...");
  // Always a production build, even when called from a test run (vitest sets NODE_ENV=test, which
  // would give React's development build to `npm start` as well).
  run("npm", ["run", "build", "--workspace", "web"], { env: { ...process.env, NODE_ENV: "production" } });
}

/**
 * Builds the CLI (plain JavaScript in cli/dist, run by `stockbridge`) when any of its sources, or the
 * shared package bundled into it, is newer than the last build.
 */
export function ensureCliBuild() {
  const built = join(ROOT, "cli", "dist", "index.js");
  const sources = ["cli/src", "cli/package.json", "cli/tsup.config.ts", "shared/src"];
  const newest = Math.max(...sources.map((source) => newestMtime(join(ROOT, source))));
  if (existsSync(built) && statSync(built).mtimeMs >= newest) return;
  console.log("Building the CLI...");
  run("npm", ["run", "build", "--workspace", "cli"]);
}

/** The newest change under a path, tests beside the code left out (they are not built). */
function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return path.endsWith(".test.ts") ? 0 : stats.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: "inherit", ...options });
  if (result.status !== 0) {
    console.error(`\n${command} ${args.join(" ")} failed (exit ${result.status ?? result.signal}).`);
    process.exit(result.status ?? 1);
  }
}

/** Starts a Deno program in the background, its output prefixed, and resolves once `url` answers. */
export async function startDeno(name, entry, env, readyUrl) {
  const child = spawn(DENO, ["run", "--config", join(ROOT, "deno.json"), ...DENO_FLAGS, entry], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const prefix = (stream, target) =>
    stream.on("data", (chunk) => {
      for (const line of String(chunk).split("\n")) if (line.trim()) target.write(`[${name}] ${line}\n`);
    });
  prefix(child.stdout, process.stdout);
  prefix(child.stderr, process.stderr);
  const exited = new Promise((resolveExit) => child.once("exit", (code) => resolveExit(code)));
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r(undefined), 100))]);
    if (code !== undefined) throw new Error(`${name} exited with code ${code} before it was ready`);
    try {
      const response = await fetch(readyUrl);
      if (response.status < 500) return child;
    } catch {
      // not listening yet
    }
  }
  child.kill();
  throw new Error(`${name} did not answer at ${readyUrl} within 30 s`);
}

/**
 * The Stripe webhook secret the sandbox signs with and a sandbox-mode edge verifies with: made once
 * per data folder and kept in its dev-secrets.json beside the edge's other development secrets
 * (edge/main.ts reads the same entry), so no one else knows it.
 */
export function developmentWebhookSecret(dataDir) {
  const folder = resolve(ROOT, dataDir);
  const file = join(folder, "dev-secrets.json");
  let stored = {};
  try {
    stored = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    // first start: generated below
  }
  if (typeof stored.stripeWebhookSecret === "string" && stored.stripeWebhookSecret) {
    return stored.stripeWebhookSecret;
  }
  const stripeWebhookSecret = `whsec_${randomBytes(32).toString("hex")}`;
  mkdirSync(folder, { recursive: true });
  writeFileSync(file, JSON.stringify({ ...stored, stripeWebhookSecret }, null, 2), { mode: 0o600 });
  return stripeWebhookSecret;
}

/** A free loopback port (bound then released) for servers that tests start. */
export function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}
