import type { ErrorHandler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { DomainError, describeError, type ErrorCode } from "../errors.ts";
import type { Logger } from "../observability/log.ts";
import type { AppEnv } from "./types.ts";

/** The HTTP status of each error code: the only place a domain error meets HTTP. */
const STATUS_OF_CODE: Readonly<Record<ErrorCode, ContentfulStatusCode>> = {
  VALIDATION_FAILED: 400,
  INVALID_SIGNATURE: 400,
  UNAUTHORIZED: 401,
  PAYMENT_FAILED: 402,
  FORBIDDEN: 403,
  SUBSCRIPTION_REQUIRED: 403,
  PLAN_LIMIT: 403,
  PERSONAL_TOKEN_FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  // A queued job's stored input that this version cannot read: a bug of ours, never the caller's.
  JOB_INPUT: 500,
  UPSTREAM_FAILED: 502,
  BILLING_NOT_CONFIGURED: 503,
  STOPPING: 503,
  DATABASE_BUSY: 503,
  UNHEALTHY: 503,
  DB_UNAVAILABLE: 503,
  IDEMPOTENCY_KEY_REUSED: 422,
  IDEMPOTENCY_IN_PROGRESS: 409,
};

/**
 * The one place errors become HTTP: a DomainError answers its envelope `{ message, code, errors? }`
 * plus its details, with the status of its code (and Retry-After when it says when to try again);
 * anything else is a bug, logged with the request id and answered 500 without internals.
 */
export function errorHandler(logger: Logger): ErrorHandler<AppEnv> {
  return (error, c) => {
    if (error instanceof DomainError) {
      if (error.retryAfterSeconds !== undefined)
        c.header("Retry-After", String(Math.max(1, Math.ceil(error.retryAfterSeconds))));
      // Details first: they add fields to the envelope and can never replace message or code.
      const body =
        error.errors.length > 0
          ? { ...error.details, message: error.message, code: error.code, errors: error.errors }
          : { ...error.details, message: error.message, code: error.code };
      return c.json(body, STATUS_OF_CODE[error.code]);
    }
    const id = c.get("requestId");
    logger.error("request failed", {
      requestId: id,
      userId: c.get("caller")?.userId,
      method: c.req.method,
      path: c.req.path,
      error: describeError(error),
    });
    return c.json(
      { message: `Something went wrong on our side (request ${id}). Please try again.`, code: "INTERNAL" },
      500,
    );
  };
}
