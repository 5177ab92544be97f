import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DENO, DENO_FLAGS, freePort, ROOT, startDeno } from "../../../scripts/lib.mjs";
import { parseConfig } from "../config.ts";
import { describeDatabaseUrl, localDatabaseFolder } from "../db/client.ts";

const PRODUCTION = {
  APP_ENV: "production",
  JWT_SECRET: "a-production-like-secret-of-32-characters-at-least",
  ENCRYPTION_KEYS: "k1:MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
};

/** Runs the edge to its exit; resolves with the code and everything it wrote. */
function runEdge(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(DENO, ["run", "--config", join(ROOT, "deno.json"), ...DENO_FLAGS, "edge/main.ts"], {
    cwd: ROOT,
    env: { ...cleanEnv(), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => {
    output += String(chunk);
  });
  child.stderr.on("data", (chunk) => {
    output += String(chunk);
  });
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, output })));
}

/** The test runner's environment without any Stockbridge setting a developer may have exported. */
function cleanEnv(): Record<string, string> {
  const names = [
    "LIBSQL_URL",
    "LIBSQL_AUTH_TOKEN",
    "DATA_DIR",
    "APP_ENV",
    "SANDBOX_URL",
    "METRICS_TOKEN",
    "LOG_LEVEL",
  ];
  return Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && !names.includes(entry[0]),
    ),
  );
}

describe("production configuration", () => {
  it("asks for LIBSQL_URL by name, and takes a Turso URL or a local file", () => {
    expect(() => parseConfig(PRODUCTION)).toThrow(/^LIBSQL_URL is required in production/);
    expect(() => parseConfig({ ...PRODUCTION, LIBSQL_URL: "  " })).toThrow(/^LIBSQL_URL is required/);
    expect(parseConfig({ ...PRODUCTION, LIBSQL_URL: "libsql://db-org.turso.io" }).databaseUrl).toBe(
      "libsql://db-org.turso.io",
    );
    expect(parseConfig({ ...PRODUCTION, LIBSQL_URL: "file:/data/stockbridge.db" }).databaseUrl).toBe(
      "file:/data/stockbridge.db",
    );
  });

  it("refuses a METRICS_TOKEN shorter than 16 characters", () => {
    expect(() => parseConfig({ METRICS_TOKEN: "short" })).toThrow(
      "METRICS_TOKEN must be at least 16 characters",
    );
  });

  it("makes only a local file's folder, and shows a URL without its credentials", () => {
    expect(localDatabaseFolder("file:/var/lib/stockbridge/stockbridge.db")).toBe("/var/lib/stockbridge");
    expect(localDatabaseFolder("file:.data/stockbridge.db")).toBe(".data");
    expect(localDatabaseFolder("file:///srv/db/stockbridge.db")).toBe("/srv/db");
    expect(localDatabaseFolder("file:stockbridge.db")).toBe(".");
    expect(localDatabaseFolder("libsql://db-org.turso.io")).toBeNull();
    expect(localDatabaseFolder(":memory:")).toBeNull();
    expect(describeDatabaseUrl("libsql://user:secret@db-org.turso.io?authToken=abc")).toBe(
      "libsql://db-org.turso.io",
    );
    expect(describeDatabaseUrl("https://db-org.turso.io/")).toBe("https://db-org.turso.io");
  });
});

describe("starting in production", () => {
  let scratch: string;
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), "stockbridge-prod-"));
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("refuses to start without LIBSQL_URL, naming it, and writes nothing", async () => {
    const dataDir = join(scratch, "no-url-data");
    const { code, output } = await runEdge({
      ...PRODUCTION,
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
    });
    expect(code).toBe(1);
    expect(output).toContain("LIBSQL_URL is required in production");
    expect(JSON.parse(output.trim().split("\n").at(-1) ?? "{}")).toMatchObject({ level: "error" });
    expect(existsSync(dataDir)).toBe(false);
  });

  it("names LIBSQL_URL without a stack trace when the database cannot be reached, and writes nothing", async () => {
    const dataDir = join(scratch, "unreachable-data");
    const closedPort = await freePort();
    const { code, output } = await runEdge({
      ...PRODUCTION,
      LIBSQL_URL: `http://127.0.0.1:${closedPort}`,
      LIBSQL_AUTH_TOKEN: "token-that-must-not-be-printed",
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
    });
    expect(code).toBe(1);
    expect(output).toContain(`Cannot open the database at LIBSQL_URL=http://127.0.0.1:${closedPort}`);
    expect(output).not.toMatch(/^\s+at /m);
    expect(output).not.toContain("token-that-must-not-be-printed");
    // A remote database: not even the data folder is made (Deno Deploy gives no write permission).
    expect(existsSync(dataDir)).toBe(false);
  });
});

describe("the edge under Deno, observed", () => {
  let server: ChildProcess | undefined;
  let dataDir: string;
  afterEach(() => {
    server?.kill("SIGKILL");
    server = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function start(env: Record<string, string> = {}) {
    dataDir = mkdtempSync(join(tmpdir(), "stockbridge-observed-"));
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    server = await startDeno(
      "edge",
      "edge/main.ts",
      { PORT: String(port), DATA_DIR: dataDir, PASSWORD_ITERATIONS: "1000", ...env },
      `${origin}/api/health`,
    );
    let stderr = "";
    let stdout = "";
    server.stderr?.on("data", (chunk) => {
      stderr += String(chunk);
    });
    server.stdout?.on("data", (chunk) => {
      stdout += String(chunk);
    });
    return { origin, child: server, output: () => ({ stderr, stdout }) };
  }

  it("prints no Deno.serve request.signal notice for a chunked request body", async () => {
    const { origin, output } = await start();
    // A body without Content-Length (streamed) is the one the body limit reads and hands on.
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"email":"a@example.com","password":"x"}'));
        controller.close();
      },
    });
    const response = await fetch(`${origin}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(401);
    // The access line is written once the answer is complete; the notice would come before it.
    await until(() => output().stdout.includes('"route":"/api/auth/login"'));
    expect(output().stderr).not.toContain("request.signal");
  });

  it("writes no access lines at LOG_LEVEL=warn, only what needs a look", async () => {
    const { origin, child, output } = await start({ LOG_LEVEL: "warn" });
    expect((await fetch(`${origin}/api/health`)).status).toBe(200);
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    server = undefined;
    // At the default level the same answer writes its access line (the test above waits for one).
    expect(output().stdout).not.toContain('"level":"info"');
  });

  it("stops on SIGTERM: finishes, closes the database and exits 0", async () => {
    const { child, output } = await start();
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    server = undefined;
    const lines = output()
      .stdout.trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.message)).toEqual(expect.arrayContaining(["shutting down", "stopped"]));
  });
});

describe("LOG_LEVEL", () => {
  it("names the levels it takes", () => {
    expect(() => parseConfig({ LOG_LEVEL: "debug" })).toThrow(
      'LOG_LEVEL must be one of info, warn, error (got "debug")',
    );
  });
});

describe("self-hosting with `npm run serve`", () => {
  it("runs the edge in production on a local libSQL file, serves the web app and stops on SIGTERM", async () => {
    const folder = mkdtempSync(join(tmpdir(), "stockbridge-serve-"));
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, ["scripts/serve.mjs"], {
      cwd: ROOT,
      env: {
        ...cleanEnv(),
        ...PRODUCTION,
        PORT: String(port),
        LIBSQL_URL: `file:${join(folder, "db", "stockbridge.db")}`,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += String(chunk);
    });
    child.stderr.on("data", (chunk) => {
      output += String(chunk);
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    try {
      await until(() => output.includes("Stockbridge is running at"));
      const health = await fetch(`${origin}/api/health`);
      expect(health.status).toBe(200);
      const page = await fetch(`${origin}/`, { headers: { "Accept-Encoding": "br" } });
      expect(page.headers.get("content-encoding")).toBe("br");
      expect((await page.text()).toLowerCase()).toContain("<!doctype html>");
      // The database folder named by LIBSQL_URL was made; the file is there.
      expect(existsSync(join(folder, "db", "stockbridge.db"))).toBe(true);
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
      expect(output).toContain('"message":"stopped"');
    } finally {
      child.kill("SIGKILL");
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}
