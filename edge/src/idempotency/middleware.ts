import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/types.ts";
import type { StoredAnswer } from "./repo.ts";
import { IDEMPOTENCY_HEADER, type IdempotencyService } from "./service.ts";

/** Set on an answer given from the store instead of running the request again. */
const REPLAYED_HEADER = "Idempotent-Replayed";

/**
 * Honours `Idempotency-Key` on an authenticated write (the contract router mounts it, after it knows
 * the caller, around the handler of each endpoint `takesIdempotencyKey` names): the first request runs and its answer is kept; a repeat gets that
 * answer with `Idempotent-Replayed: true`. Requests without the header pass untouched.
 */
export function idempotencyKeys(service: IdempotencyService): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.req.header(IDEMPOTENCY_HEADER);
    const caller = c.get("caller");
    if (key === undefined || !caller) return next();
    const url = new URL(c.req.url);
    const admission = await service.admit({
      userId: caller.userId,
      key,
      method: c.req.method,
      path: `${url.pathname}${url.search}`,
      // Read once here; hono keeps it for the handler's own read.
      body: await c.req.text(),
    });
    if (!admission.run) return replay(admission.answer);
    let answer: StoredAnswer | null = null;
    try {
      await next();
      answer = {
        status: c.res.status,
        contentType: c.res.headers.get("Content-Type"),
        body: await c.res.clone().text(),
      };
    } finally {
      // Also when the run threw past the error handler: the key is then freed, not left running.
      await service.settle({ userId: caller.userId, key, claimId: admission.claimId }, answer);
    }
  };
}

function replay(answer: StoredAnswer): Response {
  const headers = new Headers({ [REPLAYED_HEADER]: "true" });
  if (answer.contentType) headers.set("Content-Type", answer.contentType);
  // A 204 (or any answer stored empty) must be rebuilt without a body.
  return new Response(answer.body === "" ? null : answer.body, { status: answer.status, headers });
}
