import { MESSAGES } from "@stockbridge/shared";

/**
 * The one error model: services, repositories and connectors throw these, knowing nothing of
 * HTTP. Each carries a code (the envelope's `code`, which clients read); `http/error-handler.ts`
 * owns the code-to-status table and turns them into `{ message, code, errors? }`. Anything else
 * thrown is a bug and answers 500 without details.
 */
export type ErrorCode =
  | "VALIDATION_FAILED"
  | "INVALID_SIGNATURE"
  | "UNAUTHORIZED"
  | "PAYMENT_FAILED"
  | "FORBIDDEN"
  | "SUBSCRIPTION_REQUIRED"
  | "PLAN_LIMIT"
  | "PERSONAL_TOKEN_FORBIDDEN"
  | "NOT_FOUND"
  | "CONFLICT"
  | "RATE_LIMITED"
  | "JOB_INPUT"
  | "UPSTREAM_FAILED"
  | "BILLING_NOT_CONFIGURED"
  | "STOPPING"
  | "DATABASE_BUSY"
  | "UNHEALTHY"
  | "DB_UNAVAILABLE"
  | "IDEMPOTENCY_KEY_REUSED"
  | "IDEMPOTENCY_IN_PROGRESS";

export interface FieldIssue {
  path: string;
  message: string;
}

export interface DomainErrorOptions {
  /** Each field that failed its rule (validation). */
  errors?: FieldIssue[];
  /** When trying again makes sense (a rate limit, a busy database, a stopping instance). */
  retryAfterSeconds?: number;
}

export class DomainError extends Error {
  /** More fields of the failure envelope, beside message and code (a busy job's `jobId`). */
  details: Readonly<Record<string, unknown>> = {};
  readonly errors: FieldIssue[];
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: DomainErrorOptions = {},
  ) {
    super(message);
    this.name = new.target.name;
    this.errors = options.errors ?? [];
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export class ValidationError extends DomainError {
  constructor(message: string, errors: FieldIssue[] = []) {
    super("VALIDATION_FAILED", message, { errors });
  }
}

export class UnauthorizedError extends DomainError {
  constructor(message = "Your session has expired. Please sign in again.") {
    super("UNAUTHORIZED", message);
  }
}

/** Not allowed for this caller: no subscription, over the plan, or a personal token's limits. */
export class ForbiddenError extends DomainError {
  constructor(
    message: string,
    code: "FORBIDDEN" | "SUBSCRIPTION_REQUIRED" | "PLAN_LIMIT" | "PERSONAL_TOKEN_FORBIDDEN" = "FORBIDDEN",
  ) {
    super(code, message);
  }
}

export class NotFoundError extends DomainError {
  constructor(message: string) {
    super("NOT_FOUND", message);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super("CONFLICT", message);
    this.details = details;
  }
}

export class RateLimitError extends DomainError {
  constructor(message: string, retryAfterSeconds: number) {
    super("RATE_LIMITED", message, { retryAfterSeconds });
  }
}

/** The process is stopping (a deploy or a restart): another instance, or this one restarted, takes it. */
export class ServiceStoppingError extends DomainError {
  constructor() {
    super("STOPPING", MESSAGES.generic.stopping, { retryAfterSeconds: 5 });
  }
}

/**
 * The database stayed locked by another connection for longer than one unit of work may wait
 * (db/client.ts): nothing was written, and the same request a moment later is likely to succeed.
 */
export class DatabaseBusyError extends DomainError {
  constructor() {
    super("DATABASE_BUSY", MESSAGES.generic.databaseBusy, { retryAfterSeconds: 1 });
  }
}

/** An outside system (Shopify, Acumatica, Stripe) failed; the message names it and says why. */
export class UpstreamError extends DomainError {
  constructor(
    readonly system: "Shopify" | "Acumatica" | "Stripe",
    message: string,
  ) {
    super("UPSTREAM_FAILED", message);
  }
}

/** An Idempotency-Key sent again with another method, path or body than its first request. */
export class IdempotencyKeyReusedError extends DomainError {
  constructor() {
    super("IDEMPOTENCY_KEY_REUSED", MESSAGES.idempotency.reused);
  }
}

/** A repeat of a request whose first try (same Idempotency-Key) has not answered yet. */
export class IdempotencyInProgressError extends DomainError {
  constructor() {
    super("IDEMPOTENCY_IN_PROGRESS", MESSAGES.idempotency.inProgress, { retryAfterSeconds: 1 });
  }
}

/** An unexpected error for the log: its stack when it has one. */
export function describeError(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
