import type { ErrorHandler } from "hono";
import type { Logger } from "../observability/log.ts";
import { AppError, describeError } from "./errors.ts";
import type { AppEnv } from "./types.ts";

/**
 * The one place errors become HTTP: an AppError answers its envelope `{ message, code, errors? }`
 * plus its details (and headers such as Retry-After); anything else is a bug, logged with the
 * request id and answered 500 without internals.
 */
export function errorHandler(logger: Logger): ErrorHandler<AppEnv> {
  return (error, c) => {
    if (error instanceof AppError) {
      for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
      // Details first: they add fields to the envelope and can never replace message or code.
      const body =
        error.errors.length > 0
          ? { ...error.details, message: error.message, code: error.code, errors: error.errors }
          : { ...error.details, message: error.message, code: error.code };
      return c.json(body, error.status);
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
