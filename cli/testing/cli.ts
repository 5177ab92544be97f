import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { onTestFinished } from "vitest";

const BIN = resolve(import.meta.dirname, "../bin/stockbridge.mjs");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** STOCKBRIDGE_* and other variables; nothing of the test runner's own environment leaks in. */
  env?: Record<string, string>;
  /** Written to stdin, which is then closed (stdin is never a TTY here). */
  input?: string;
  /** Sees stderr as it arrives, so a test can act while the command still runs. */
  onStderr?: (text: string) => void;
}

/** A fresh, empty config folder (STOCKBRIDGE_CONFIG_DIR) for the current test, removed after it. */
export function newConfigDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "stockbridge-cli-config-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Runs `node cli/bin/stockbridge.mjs ...args` as a child process, without a TTY, and collects what it printed. */
export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? tmpdir(),
    TMPDIR: tmpdir(),
    ...options.env,
  };
  return new Promise((resolveRun, reject) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      { env, timeout: 45_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== "number") return reject(error);
        resolveRun({ code: typeof error?.code === "number" ? error.code : 0, stdout, stderr });
      },
    );
    const { onStderr } = options;
    if (onStderr) child.stderr?.on("data", (chunk) => onStderr(String(chunk)));
    child.stdin?.end(options.input ?? "");
  });
}

/** The CLI's environment for a user: the API, a private config folder and, optionally, a token. */
export function cliEnv(
  appUrl: string,
  options: { configDir?: string; token?: string } = {},
): Record<string, string> {
  return {
    STOCKBRIDGE_API_URL: appUrl,
    STOCKBRIDGE_CONFIG_DIR: options.configDir ?? newConfigDir(),
    ...(options.token ? { STOCKBRIDGE_TOKEN: options.token } : {}),
  };
}
