import { tmpdir } from "node:os";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { CliIo } from "./io.ts";
import { run } from "./main.ts";

/** The program in-process, without a TTY: what it wrote to each stream and its exit code. */
async function runInProcess(argv: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const chunks = { stdout: "", stderr: "" };
  stdout.on("data", (chunk) => (chunks.stdout += String(chunk)));
  stderr.on("data", (chunk) => (chunks.stderr += String(chunk)));
  const io: CliIo = { stdout, stderr, stdin: new PassThrough(), env: {}, homeDir: tmpdir() };
  const code = await run(argv, io);
  return { code, ...chunks };
}

describe("buildProgram", () => {
  it("documents every command group and the exit codes in --help (exit 0)", async () => {
    const { code, stdout } = await runInProcess(["--help"]);
    expect(code).toBe(0);
    for (const group of [
      "login",
      "logout",
      "whoami",
      "connections",
      "products",
      "mappings",
      "sync",
      "history",
      "schedules",
      "jobs",
    ]) {
      expect(stdout).toMatch(new RegExp(`^  ${group}\\b`, "m"));
    }
    expect(stdout).toContain("3  not signed in, or the session expired");
  });

  it("answers an unknown system with the allowed choices (exit 2)", async () => {
    const { code, stdout, stderr } = await runInProcess(["products", "list", "magento"]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toContain(
      "'magento' is invalid for argument 'system'. Allowed choices are shopify, acumatica.",
    );
  });
});
