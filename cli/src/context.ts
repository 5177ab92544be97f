import type { ApiClient } from "@stockbridge/shared";
import type { Command } from "commander";
import { notSignedIn, toCliError } from "./errors.ts";
import type { CliIo } from "./io.ts";
import { openSession, type Session } from "./session.ts";

/** The program-wide options (`--api`, `--json`), readable from any subcommand. */
export interface GlobalOptions {
  api?: string;
  json?: boolean;
}

/** What a command's work gets: where to write, how to talk to the API, and who is watching. */
export interface CommandContext {
  io: CliIo;
  session: Session;
  api: ApiClient;
  json: boolean;
  /** A person watches a terminal: progress views, prompts and styled tables instead of plain text. */
  interactive: boolean;
  out(line?: string): void;
  err(line: string): void;
  /** Throws "Not signed in" (exit 3) before a call that would only answer 401. */
  requireSignedIn(): void;
}

export function createContext(io: CliIo, command: Command): CommandContext {
  const options = command.optsWithGlobals<GlobalOptions>();
  const session = openSession(io, { api: options.api });
  const json = options.json === true;
  return {
    io,
    session,
    api: session.client,
    json,
    interactive: !json && io.stdout.isTTY === true,
    out: (line = "") => io.stdout.write(`${line}\n`),
    err: (line) => io.stderr.write(`${line}\n`),
    requireSignedIn() {
      if (!session.hasToken) throw notSignedIn();
    },
  };
}

/**
 * Runs a command's work with its context; every failure leaves as a CliError (message + exit code)
 * for `run` to print. Commands stay thin: parse flags, call this, nothing else.
 */
export async function runCommand(
  io: CliIo,
  command: Command,
  work: (context: CommandContext) => Promise<void>,
): Promise<void> {
  let apiUrl: string | null = null;
  try {
    const context = createContext(io, command);
    apiUrl = context.session.apiUrl;
    await work(context);
  } catch (error) {
    throw toCliError(error, apiUrl);
  }
}
