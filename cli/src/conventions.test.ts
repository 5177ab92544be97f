import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, inject, it, onTestFinished } from "vitest";
import { waitForJob } from "../../e2e/support/catalog-setup.ts";
import { cliEnv, runCli } from "../testing/cli.ts";
import { startCli } from "../testing/cli-process.ts";
import { holdAcumatica, newConnectedSubscriber, newUser } from "../testing/users.ts";

const BIN = resolve(import.meta.dirname, "../bin/stockbridge.mjs");
const ESCAPE = "\u001b[";
const REQUEST_LINE = /^GET \/api\/auth\/me 200 \(request [\w-]+\)$/m;

describe("--version", () => {
  it("prints the package's version (exit 0)", async () => {
    const manifest = JSON.parse(readFileSync(resolve(import.meta.dirname, "../package.json"), "utf8"));
    const result = await runCli(["--version"]);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(manifest.version);
  });
});

describe("--json errors", () => {
  it("writes one { error } object on stderr with the server's code and request id, and nothing on stdout", async () => {
    const appUrl = inject("appUrl");
    const user = await newUser(appUrl);
    const result = await runCli(["jobs", "show", "no-such-job", "--json"], {
      env: cliEnv(appUrl, { token: user.token }),
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    const { error } = JSON.parse(result.stderr);
    expect(error).toEqual({ message: expect.any(String), code: "NOT_FOUND", requestId: expect.any(String) });
    expect(error.requestId).not.toBe("");
  });

  it("reports a signed-out call (exit 3) and a usage error (exit 2) the same way", async () => {
    const env = cliEnv(inject("appUrl"));
    const signedOut = await runCli(["whoami", "--json"], { env });
    expect(signedOut.code).toBe(3);
    expect(JSON.parse(signedOut.stderr)).toEqual({
      error: { message: "Not signed in: run `stockbridge login`", code: "UNAUTHORIZED", requestId: null },
    });

    const usage = await runCli(["products", "list", "shopify", "--page", "0", "--json"], { env });
    expect(usage.code).toBe(2);
    const { error } = JSON.parse(usage.stderr);
    expect(error.code).toBe("USAGE");
    expect(error.message).toContain("--page must be a whole number from 1 to 1000000");
  });
});

describe("--verbose", () => {
  it("prints each request with its status and request id on stderr, and the failed one's id", async () => {
    const appUrl = inject("appUrl");
    const user = await newUser(appUrl);
    const env = cliEnv(appUrl, { token: user.token });
    const ok = await runCli(["whoami", "--verbose", "--json"], { env });
    expect(ok.code).toBe(0);
    expect(ok.stderr).toMatch(REQUEST_LINE);
    expect(JSON.parse(ok.stdout).user.email).toBe(user.email);

    const refused = await runCli(["jobs", "show", "no-such-job", "--verbose"], { env });
    expect(refused.code).toBe(1);
    const id = /GET \/api\/jobs\/no-such-job 404 \(request ([\w-]+)\)/.exec(refused.stderr)?.[1];
    expect(id).toMatch(/^[\w-]+$/);
    expect(refused.stderr).toContain(`request id: ${id}`);
  });
});

describe("STOCKBRIDGE_<FLAG>", () => {
  it("reads any flag from the environment; the command line wins and a bad value names the variable", async () => {
    const appUrl = inject("appUrl");
    const user = await newUser(appUrl);
    const env = cliEnv(appUrl, { token: user.token });

    const json = await runCli(["whoami"], {
      env: { ...env, STOCKBRIDGE_JSON: "1", STOCKBRIDGE_VERBOSE: "true" },
    });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).user.email).toBe(user.email);
    expect(json.stderr).toMatch(REQUEST_LINE);

    const off = await runCli(["whoami"], { env: { ...env, STOCKBRIDGE_JSON: "0" } });
    expect(off.code).toBe(0);
    expect(off.stdout).toContain(`${user.name} <${user.email}>`);

    const bad = await runCli(["products", "list", "shopify"], { env: { ...env, STOCKBRIDGE_LIMIT: "many" } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("STOCKBRIDGE_LIMIT: --limit must be a whole number from 1 to 100");

    const flagWins = await runCli(["products", "list", "shopify", "--limit", "0"], {
      env: { ...env, STOCKBRIDGE_LIMIT: "5" },
    });
    expect(flagWins.code).toBe(2);
    expect(flagWins.stderr).toContain("--limit must be a whole number");
  });
});

describe("--all", () => {
  it("pages through a list: every row once, in one JSON list", async () => {
    const [appUrl, sandboxUrl] = [inject("appUrl"), inject("sandboxUrl")];
    const user = await newConnectedSubscriber(appUrl, sandboxUrl);
    await waitForJob(user.api, (await user.api.call("syncShopifyProducts")).job);
    const { total } = await user.api.call("shopifyProducts");
    const limit = Math.ceil(total / 3);

    const result = await runCli(
      ["products", "list", "shopify", "--all", "--limit", String(limit), "--json"],
      {
        env: cliEnv(appUrl, { token: user.token }),
      },
    );
    expect(result.code).toBe(0);
    const data = JSON.parse(result.stdout);
    expect(data.total).toBe(total);
    expect(new Set(data.products.map((product: { _id: string }) => product._id)).size).toBe(total);

    const both = await runCli(["products", "list", "shopify", "--all", "--page", "2"], {
      env: cliEnv(appUrl, { token: user.token }),
    });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("Use either --all or --page, not both.");
  });
});

describe("colours", () => {
  it("styles a table in a terminal, and not with NO_COLOR or --no-color", async () => {
    const [appUrl, sandboxUrl] = [inject("appUrl"), inject("sandboxUrl")];
    const user = await newConnectedSubscriber(appUrl, sandboxUrl);
    await user.api.call("createSchedule", {
      body: {
        name: "Nightly",
        schedule: { type: "daily", time: "02:30" },
        isFullSync: true,
        syncOptions: { price: false, quantity: true },
      },
    });
    const env = cliEnv(appUrl, { token: user.token });

    const styled = await inTerminal(["schedules", "list"], env);
    expect(styled).toContain("Nightly");
    expect(styled).toContain(ESCAPE);
    for (const plain of [
      await inTerminal(["schedules", "list"], { ...env, NO_COLOR: "1" }),
      await inTerminal(["schedules", "list", "--no-color"], env),
    ]) {
      expect(plain).toContain("Nightly");
      expect(plain).not.toContain(ESCAPE);
    }
  });
});

describe("Ctrl+C while following a job", () => {
  it("stops following, names the job and how to follow it again (exit 130); the job runs on", async () => {
    const [appUrl, sandboxUrl] = [inject("appUrl"), inject("sandboxUrl")];
    const user = await newConnectedSubscriber(appUrl, sandboxUrl);
    await holdAcumatica(user);
    const pull = startCli(["products", "pull", "acumatica", "--verbose"], {
      env: cliEnv(appUrl, { token: user.token }),
    });
    await pull.stderrShows(/GET \/api\/jobs\//);
    pull.interrupt();

    const result = await pull.ended;
    expect(result.code).toBe(130);
    const jobId = /GET \/api\/jobs\/([\w-]+)/.exec(result.stderr)?.[1] ?? "";
    expect(result.stderr).toContain(
      `Stopped following job ${jobId}; it keeps running. Follow it again: stockbridge jobs wait ${jobId}`,
    );
    expect((await user.api.call("job", { params: { id: jobId } })).status).toMatch(/queued|running/);
  });
});

describe("completion", () => {
  it("prints a script per shell; bash completes commands and flags through it", async () => {
    for (const shell of ["bash", "zsh", "fish"]) {
      const script = await runCli(["completion", shell]);
      expect(script.code).toBe(0);
      expect(script.stdout).toContain("stockbridge __complete");
    }
    const unknown = await runCli(["completion", "tcsh"]);
    expect(unknown.code).toBe(2);

    expect(await completeInBash(["stockbridge", "sch"])).toEqual(["schedules"]);
    const schedules = await completeInBash(["stockbridge", "schedules", ""]);
    expect(schedules).toEqual(expect.arrayContaining(["list", "enable", "disable", "--json"]));
    expect(await completeInBash(["stockbridge", "products", "pull", ""])).toEqual(
      expect.arrayContaining(["shopify", "acumatica", "--no-wait"]),
    );
  });
});

/** Runs the CLI under a pseudo-terminal (util-linux `script`), as a person at a terminal would. */
function inTerminal(args: string[], env: Record<string, string>): Promise<string> {
  const command = [process.execPath, BIN, ...args].map(shellQuote).join(" ");
  return new Promise((resolveRun, reject) => {
    execFile(
      "script",
      ["-qec", command, "/dev/null"],
      {
        env: { PATH: process.env.PATH ?? "", HOME: tmpdir(), TERM: "xterm-256color", ...env },
        timeout: 45_000,
      },
      (error, stdout) => (error ? reject(error) : resolveRun(stdout)),
    );
  });
}

/** The words bash would offer at the end of `words`, through the script `completion bash` prints. */
async function completeInBash(words: string[]): Promise<string[]> {
  const bin = mkdtempSync(join(tmpdir(), "stockbridge-bin-"));
  onTestFinished(() => rmSync(bin, { recursive: true, force: true }));
  symlinkSync(BIN, join(bin, "stockbridge"));
  const script = [
    "source <(stockbridge completion bash)",
    `COMP_WORDS=(${words.map(shellQuote).join(" ")})`,
    `COMP_CWORD=${words.length - 1}`,
    "_stockbridge",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash's own ${...}, not a template
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join("\n");
  const output = await new Promise<string>((resolveRun, reject) => {
    execFile(
      "bash",
      ["-c", script],
      { env: { PATH: `${bin}:${process.env.PATH ?? ""}`, HOME: tmpdir() }, timeout: 45_000 },
      (error, stdout) => (error ? reject(error) : resolveRun(stdout)),
    );
  });
  return output.split("\n").filter(Boolean);
}

function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
