import { type ApiClient, ApiError } from "@stockbridge/shared";
import type { Command } from "commander";
import { notSignedIn, personalTokenRefused, toCliError } from "./errors.ts";
import type { CliIo } from "./io.ts";
import { openSession, type Session } from "./session.ts";

/** The program-wide options, readable from any subcommand. */
export interface GlobalOptions {
  api?: string;
  json?: boolean;
  verbose?: boolean;
  /** False with `--no-color` (or STOCKBRIDGE_NO_COLOR); NO_COLOR is read apart. */
  color?: boolean;
}

/** What a command's work gets: where to write, how to talk to the API, and who is watching. */
export interface CommandContext {
  io: CliIo;
  session: Session;
  api: ApiClient;
  json: boolean;
  /** A person watches a terminal: progress views, prompts and styled tables instead of plain text. */
  interactive: boolean;
  /** Colours in interactive output: off with `--no-color` or NO_COLOR (https://no-color.org). */
  color: boolean;
  out(line?: string): void;
  err(line: string): void;
  /** Throws "Not signed in" (exit 3) before a call that would only answer 401. */
  requireSignedIn(): void;
}

export function createContext(io: CliIo, command: Command): CommandContext {
  const options = command.optsWithGlobals<GlobalOptions>();
  const err = (line: string) => io.stderr.write(`${line}\n`);
  const session = openSession(io, {
    api: options.api,
    // `--verbose`: each answer on stderr with its request id, what the server's log lines carry.
    onAnswer: options.verbose
      ? (answer) =>
          err(`${answer.method} ${answer.path} ${answer.status} (request ${answer.requestId ?? "-"})`)
      : undefined,
  });
  const json = options.json === true;
  const interactive = !json && io.stdout.isTTY === true;
  return {
    io,
    session,
    api: session.client,
    json,
    interactive,
    color: interactive && options.color !== false && !io.env.NO_COLOR,
    out: (line = "") => io.stdout.write(`${line}\n`),
    err,
    requireSignedIn() {
      if (!session.hasToken) throw notSignedIn();
    },
  };
}

/**
 * Runs a command's work with its context; every failure leaves as a CliError (message + exit code,
 * and the request id of a refused call) for `run` to print. Commands stay thin: parse flags, call
 * this, nothing else.
 */
export async function runCommand(
  io: CliIo,
  command: Command,
  work: (context: CommandContext) => Promise<void>,
): Promise<void> {
  let session: Session | null = null;
  try {
    const context = createContext(io, command);
    session = context.session;
    await work(context);
  } catch (error) {
    const failure =
      error instanceof ApiError && error.status === 401 && session?.personalToken
        ? personalTokenRefused(error.message)
        : toCliError(error, session?.apiUrl ?? null);
    if (error instanceof ApiError && session) failure.requestId = session.lastRequestId();
    throw failure;
  }
}
