import { MESSAGES } from "@stockbridge/shared";
import type { ContentfulStatusCode } from "hono/utils/http-status";

export interface FieldIssue {
  path: string;
  message: string;
}

/**
 * The one error model: services throw these, one handler turns them into the envelope
 * `{ message, code, errors? }`. Anything else is a bug and answers 500 without details.
 */
export class AppError extends Error {
  /** More fields of the failure envelope, beside message and code (a busy job's `jobId`). */
  details: Readonly<Record<string, unknown>> = {};

  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly errors: FieldIssue[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends AppError {
  constructor(message: string, errors: FieldIssue[] = []) {
    super(400, "VALIDATION_FAILED", message, errors);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = "Your session has expired. Please sign in again.") {
    super(401, "UNAUTHORIZED", message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message: string, code = "FORBIDDEN") {
    super(403, code, message);
  }
}

export class NotFoundError extends AppError {
  constructor(message: string) {
    super(404, "NOT_FOUND", message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super(409, "CONFLICT", message);
    this.details = details;
  }
}

export class RateLimitError extends AppError {
  constructor(message: string, retryAfterSeconds: number) {
    super(429, "RATE_LIMITED", message, [], {
      "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))),
    });
  }
}

/**
 * The database stayed locked by another connection for longer than one unit of work may wait
 * (db/client.ts): nothing was written, and the same request a moment later is likely to succeed.
 */
/** The process is stopping (a deploy or a restart): another instance, or this one restarted, takes it. */
export class ServiceStoppingError extends AppError {
  constructor() {
    super(503, "STOPPING", MESSAGES.generic.stopping, [], { "Retry-After": "5" });
  }
}

export class DatabaseBusyError extends AppError {
  constructor() {
    super(503, "DATABASE_BUSY", MESSAGES.generic.databaseBusy, [], { "Retry-After": "1" });
  }
}

/** An outside system (Shopify, Acumatica, Stripe) failed; the message names it and says why. */
export class UpstreamError extends AppError {
  constructor(
    readonly system: "Shopify" | "Acumatica" | "Stripe",
    message: string,
  ) {
    super(502, "UPSTREAM_FAILED", message);
  }
}

/** An unexpected error for the log: its stack when it has one. */
export function describeError(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
