import { ApiError, MESSAGES } from "@stockbridge/shared";

/** The documented exit codes (README "The CLI"). Scripts branch on these, so they never change. */
export const EXIT = {
  ok: 0,
  /** The server refused, or a run finished with failed items. */
  failed: 1,
  /** A bad command line or configuration value (commander's own errors too). */
  usage: 2,
  /** No token, or the server no longer accepts it. */
  signedOut: 3,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const NOT_SIGNED_IN = "Not signed in: run `stockbridge login`";

/** An error meant for the person at the terminal: printed as is, without a stack. */
export class CliError extends Error {
  readonly exitCode: ExitCode;
  readonly details: string[];
  /** The terminal already shows the message (a progress view's closing line): print nothing more. */
  readonly shown: boolean;

  constructor(message: string, options: { exitCode?: ExitCode; details?: string[]; shown?: boolean } = {}) {
    super(message);
    this.name = "CliError";
    this.exitCode = options.exitCode ?? EXIT.failed;
    this.details = options.details ?? [];
    this.shown = options.shown ?? false;
  }
}

export function usageError(message: string): CliError {
  return new CliError(message, { exitCode: EXIT.usage });
}

export function notSignedIn(reason?: string): CliError {
  return new CliError(NOT_SIGNED_IN, { exitCode: EXIT.signedOut, details: reason ? [reason] : [] });
}

/**
 * Turns whatever a command threw into what the user reads: the server's own message (exit 1), a
 * rejected session (exit 3), or an unreachable server named with the URL that was tried.
 */
export function toCliError(error: unknown, apiUrl: string | null): CliError {
  if (error instanceof CliError) return error;
  if (error instanceof ApiError) {
    if (error.status === 401) return notSignedIn(error.message);
    if (error.code === "TIMEOUT") return new CliError(`${MESSAGES.generic.timeout} (${apiUrl ?? "the API"})`);
    if (error.code === "NETWORK") {
      return new CliError(`Cannot reach the Stockbridge API at ${apiUrl ?? "the configured URL"}`, {
        details: [`${error.message}; is the server running? Set the URL with --api or STOCKBRIDGE_API_URL.`],
      });
    }
    return new CliError(error.message, {
      details: error.errors.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)),
    });
  }
  // Anything else is a bug in the CLI: say so, with the stack, rather than pretend it is the server.
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return new CliError(`Unexpected error in the Stockbridge CLI: ${text}`);
}
