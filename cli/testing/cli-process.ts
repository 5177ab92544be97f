import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { resolve } from "node:path";
import { onTestFinished } from "vitest";
import type { CliResult } from "./cli.ts";

const BIN = resolve(import.meta.dirname, "../bin/stockbridge.mjs");

export interface CliProcess {
  /**
   * Resolves once stderr has shown `pattern` (the command reached that point), in what it wrote after
   * the first `after` characters; rejects if the process ended first.
   */
  stderrShows(pattern: RegExp, options?: { after?: number }): Promise<void>;
  /** What stderr has shown so far. */
  stderr(): string;
  /** Ctrl+C: SIGINT to the process. */
  interrupt(): void;
  ended: Promise<CliResult>;
}

/**
 * Starts the CLI as a child process without a TTY and lets a test act while it runs (runCli waits for
 * the end). Killed after the test if still running.
 */
export function startCli(args: readonly string[], options: { env: Record<string, string> }): CliProcess {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? tmpdir(),
      TMPDIR: tmpdir(),
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  let stdout = "";
  let stderr = "";
  const watchers: Array<() => void> = [];
  child.stdout.on("data", (chunk) => (stdout += String(chunk)));
  child.stderr.on("data", (chunk) => {
    stderr += String(chunk);
    for (const watch of [...watchers]) watch();
  });
  const ended = new Promise<CliResult>((resolveEnd) =>
    child.on("close", (code, signal) => resolveEnd({ code: code ?? (signal ? 128 : 1), stdout, stderr })),
  );
  return {
    stderrShows(pattern, { after = 0 } = {}) {
      return new Promise((resolveShown, reject) => {
        const watch = () => {
          if (!pattern.test(stderr.slice(after))) return;
          watchers.splice(watchers.indexOf(watch), 1);
          resolveShown();
        };
        watchers.push(watch);
        watch();
        void ended.then(() =>
          reject(new Error(`The CLI ended before stderr showed ${pattern}:\n${stdout}\n${stderr}`)),
        );
      });
    },
    stderr: () => stderr,
    interrupt: () => child.kill("SIGINT"),
    ended,
  };
}
