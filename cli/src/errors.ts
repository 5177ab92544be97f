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
  /** Ctrl+C while following a job (128 + SIGINT, as shells report it); the job runs on. */
  interrupted: 130,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const NOT_SIGNED_IN = "Not signed in: run `stockbridge login`";

/** An error meant for the person at the terminal: printed as is, without a stack. */
export class CliError extends Error {
  readonly exitCode: ExitCode;
  /** For scripts (`--json` errors): the server's code (NOT_FOUND, CONFLICT, ...) or the CLI's own. */
  readonly code: string;
  readonly details: string[];
  /** The terminal already shows the message (a progress view's closing line): print nothing more. */
  readonly shown: boolean;
  /** The X-Request-Id of the answer that failed, when the server gave one. */
  requestId: string | null;

  constructor(message: string, options: CliErrorOptions = {}) {
    super(message);
    this.name = "CliError";
    this.exitCode = options.exitCode ?? EXIT.failed;
    this.code = options.code ?? DEFAULT_CODES[this.exitCode];
    this.details = options.details ?? [];
    this.shown = options.shown ?? false;
    this.requestId = options.requestId ?? null;
  }
}

interface CliErrorOptions {
  exitCode?: ExitCode;
  code?: string;
  details?: string[];
  shown?: boolean;
  requestId?: string | null;
}

const DEFAULT_CODES: Record<ExitCode, string> = {
  0: "OK",
  1: "FAILED",
  2: "USAGE",
  3: "UNAUTHORIZED",
  130: "INTERRUPTED",
};

export function usageError(message: string): CliError {
  return new CliError(message, { exitCode: EXIT.usage });
}

export function notSignedIn(reason?: string): CliError {
  return new CliError(NOT_SIGNED_IN, { exitCode: EXIT.signedOut, details: reason ? [reason] : [] });
}

/** A personal API token (STOCKBRIDGE_TOKEN) the server no longer accepts: no refresh can help it. */
export function personalTokenRefused(reason: string): CliError {
  return new CliError("STOCKBRIDGE_TOKEN was refused: the API token is invalid, expired or revoked", {
    exitCode: EXIT.signedOut,
    details: [reason, "Create a new token in Settings > API Tokens or with `stockbridge tokens create`."],
  });
}

/** `--json`: the error as one JSON object on stderr, details (validation, failed items) included when any. */
export function errorJson(error: CliError): string {
  const body = { message: error.message, code: error.code, requestId: error.requestId };
  return `${JSON.stringify({ error: error.details.length > 0 ? { ...body, details: error.details } : body })}\n`;
}

/**
 * Turns whatever a command threw into what the user reads: the server's own message (exit 1), a
 * rejected session (exit 3), or an unreachable server named with the URL that was tried.
 */
export function toCliError(error: unknown, apiUrl: string | null): CliError {
  if (error instanceof CliError) return error;
  if (error instanceof ApiError) {
    if (error.status === 401) return notSignedIn(error.message);
    if (error.code === "TIMEOUT") {
      return new CliError(`${MESSAGES.generic.timeout} (${apiUrl ?? "the API"})`, { code: error.code });
    }
    if (error.code === "NETWORK") {
      return new CliError(`Cannot reach the Stockbridge API at ${apiUrl ?? "the configured URL"}`, {
        code: error.code,
        details: [`${error.message}; is the server running? Set the URL with --api or STOCKBRIDGE_API_URL.`],
      });
    }
    return new CliError(error.message, {
      code: error.code,
      details: error.errors.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)),
    });
  }
  // Anything else is a bug in the CLI: say so, with the stack, rather than pretend it is the server.
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return new CliError(`Unexpected error in the Stockbridge CLI: ${text}`, { code: "INTERNAL" });
}
