import { createHmac, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProduct } from "../../e2e/support/start-product.ts";
import { cliEnv, newConfigDir, runCli } from "../testing/cli.ts";
import { startCli } from "../testing/cli-process.ts";
import { holdAcumatica, newConnectedSubscriber, newUser } from "../testing/users.ts";
import type { CliIo } from "./io.ts";
import { run } from "./main.ts";

// This file runs its own edge with a JWT secret it knows, so it can hand the CLI session tokens that
// expire when a test needs them to (a real session's id, signed as the edge signs them).
const JWT_SECRET = randomBytes(32).toString("hex");
let product: Awaited<ReturnType<typeof startProduct>>;
beforeAll(async () => {
  product = await startProduct("cli-refresh", () => ({ JWT_SECRET }));
});
afterAll(() => product?.stop());

describe("session refresh", () => {
  it("refreshes an expired saved session and saves the new token in its place", async () => {
    const user = await newUser(product.appUrl);
    const configDir = newConfigDir();
    const expired = reissue(user.token, { issuedAgo: 3_700, expiresIn: -100 });
    saveSession(configDir, product.appUrl, expired);

    const whoami = await runCli(["whoami"], { env: cliEnv(product.appUrl, { configDir }) });
    expect(whoami.stderr).toBe("");
    expect(whoami.code).toBe(0);
    expect(whoami.stdout).toContain(`<${user.email}>`);
    const saved = savedToken(configDir);
    expect(saved).not.toBe(expired);
    expect(claims(saved).exp).toBeGreaterThan(Date.now() / 1000);
    expect(claims(saved).sid).toBe(claims(user.token).sid);
  });

  it("keeps following a pull after the token it started with has expired", async () => {
    const user = await newConnectedSubscriber(product.appUrl, product.sandboxUrl);
    const hold = await holdAcumatica(user);
    const configDir = newConfigDir();
    // A token with six seconds to live: due for refresh after four and a half.
    const shortLived = reissue(user.token, { issuedAgo: 0, expiresIn: 6 });
    saveSession(configDir, product.appUrl, shortLived);

    const pull = startCli(["products", "pull", "acumatica", "--verbose"], {
      env: cliEnv(product.appUrl, { configDir }),
    });
    await pull.stderrShows(/GET \/api\/jobs\//);
    await untilExpired(shortLived);
    // A poll of the job sent after the token expired: with it alone, this would have been refused.
    await pull.stderrShows(/GET \/api\/jobs\//, { after: pull.stderr().length });
    hold.release();

    const result = await pull.ended;
    // The pull itself fails (the stand-in Acumatica refuses the login), not the session.
    expect(result.stderr).not.toContain("Not signed in");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("POST /api/auth/refresh 200");
    expect(savedToken(configDir)).not.toBe(shortLived);
  });

  it("refreshes after a 401 when the local clock says the token is still fresh", async () => {
    const user = await newUser(product.appUrl);
    const configDir = newConfigDir();
    saveSession(configDir, product.appUrl, reissue(user.token, { issuedAgo: 3_700, expiresIn: -100 }));
    // This machine's clock runs two hours behind the server's.
    const behind = () => Date.now() - 2 * 3_600_000;

    const result = await runInProcess(["whoami"], {
      env: cliEnv(product.appUrl, { configDir }),
      now: behind,
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`<${user.email}>`);
  });

  it("refreshes an expired STOCKBRIDGE_TOKEN in memory and writes no credentials", async () => {
    const user = await newUser(product.appUrl);
    const configDir = newConfigDir();
    const expired = reissue(user.token, { issuedAgo: 3_700, expiresIn: -100 });

    const whoami = await runCli(["whoami", "--json"], {
      env: cliEnv(product.appUrl, { configDir, token: expired }),
    });
    expect(whoami.code).toBe(0);
    expect(JSON.parse(whoami.stdout).user.email).toBe(user.email);
    expect(existsSync(join(configDir, "credentials.json"))).toBe(false);
  });

  it("keeps the saved session when the server cannot be reached, and forgets it once the server refuses it", async () => {
    const user = await newUser(product.appUrl);
    const configDir = newConfigDir();
    const expired = reissue(user.token, { issuedAgo: 3_700, expiresIn: -100 });
    saveSession(configDir, "http://127.0.0.1:9", expired);

    const unreachable = await runCli(["whoami"], { env: { STOCKBRIDGE_CONFIG_DIR: configDir } });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain("Cannot reach the Stockbridge API at http://127.0.0.1:9");
    expect(savedToken(configDir)).toBe(expired);

    saveSession(configDir, product.appUrl, expired);

    await user.api.call("logout");
    const ended = await runCli(["whoami"], { env: cliEnv(product.appUrl, { configDir }) });
    expect(ended.code).toBe(3);
    expect(existsSync(join(configDir, "credentials.json"))).toBe(false);
  });
});

/** The user's session as a token signed like the edge's, with other times. */
function reissue(token: string, times: { issuedAgo: number; expiresIn: number }): string {
  const { sub, sid } = claims(token);
  const now = Math.floor(Date.now() / 1000);
  const header = encode({ alg: "HS256", typ: "JWT" });
  const payload = encode({
    sid,
    sub,
    iss: "stockbridge",
    aud: "stockbridge-api",
    iat: now - times.issuedAgo,
    exp: now + times.expiresIn,
  });
  const signature = createHmac("sha256", JWT_SECRET).update(`${header}.${payload}`).digest("base64url");
  return `${header}.${payload}.${signature}`;
}

function encode(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

function claims(token: string): { sub: string; sid: string; exp: number } {
  return JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8"));
}

function saveSession(configDir: string, apiUrl: string, token: string): void {
  mkdirSync(configDir, { recursive: true });
  const credentials = { apiUrl, token, email: "", savedAt: "" };
  writeFileSync(join(configDir, "credentials.json"), JSON.stringify(credentials), { mode: 0o600 });
}

function savedToken(configDir: string): string {
  return JSON.parse(readFileSync(join(configDir, "credentials.json"), "utf8")).token;
}

/** Waits until the token's expiry time has passed (a state that lasts), checking each 100 ms. */
async function untilExpired(token: string): Promise<void> {
  while (Date.now() / 1000 <= claims(token).exp) await new Promise((resolve) => setTimeout(resolve, 100));
}

/** The program in-process (for a clock of its own), without a TTY. */
async function runInProcess(argv: string[], options: { env: Record<string, string>; now: () => number }) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const chunks = { stdout: "", stderr: "" };
  stdout.on("data", (chunk) => (chunks.stdout += String(chunk)));
  stderr.on("data", (chunk) => (chunks.stderr += String(chunk)));
  const io: CliIo = {
    stdout,
    stderr,
    stdin: new PassThrough(),
    env: options.env,
    homeDir: tmpdir(),
    now: options.now,
  };
  const code = await run(argv, io);
  return { code, ...chunks };
}
