import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, inject, it, onTestFinished } from "vitest";
import { newUser } from "../testing/users.ts";

const ROOT = resolve(import.meta.dirname, "../..");

describe("the packed CLI", () => {
  it("installs from its tarball into an empty folder and runs there, without the checkout", async () => {
    const dir = mkdtempSync(join(tmpdir(), "stockbridge-pack-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    // The build is the one the suite's set-up made; packing must not rebuild it under running tests.
    await run("npm", ["pack", "--workspace", "cli", "--ignore-scripts", "--pack-destination", dir], ROOT);
    const tarball = readdirSync(dir).find((file) => file.endsWith(".tgz"));
    expect(tarball).toBeDefined();
    const app = join(dir, "app");
    mkdirSync(app);
    writeFileSync(join(app, "package.json"), "{}\n");
    // Dependencies from npm's cache when they are there (a checkout's `npm install` put them there).
    await run(
      "npm",
      ["install", "--prefer-offline", "--no-audit", "--no-fund", join(dir, tarball ?? "")],
      app,
    );

    const manifest = JSON.parse(readFileSync(resolve(ROOT, "cli/package.json"), "utf8"));
    const version = await run(join(app, "node_modules/.bin/stockbridge"), ["--version"], app);
    expect(version.trim()).toBe(manifest.version);

    // A real command from the installed copy: the shared package is inside its bundle.
    const appUrl = inject("appUrl");
    const user = await newUser(appUrl);
    const whoami = await run(join(app, "node_modules/.bin/stockbridge"), ["whoami", "--json"], app, {
      STOCKBRIDGE_API_URL: appUrl,
      STOCKBRIDGE_TOKEN: user.token,
      STOCKBRIDGE_CONFIG_DIR: join(dir, "config"),
    });
    expect(JSON.parse(whoami).user.email).toBe(user.email);
    const installed = readdirSync(join(app, "node_modules"));
    expect(installed).not.toContain("tsx");
  });
});

function run(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<string> {
  return new Promise((resolveRun, reject) => {
    execFile(
      command,
      args,
      { cwd, env: { ...process.env, ...env }, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) =>
        error
          ? reject(new Error(`${command} ${args.join(" ")} failed: ${error.message}\n${stderr}`))
          : resolveRun(stdout),
    );
  });
}
