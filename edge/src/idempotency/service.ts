import { MESSAGES } from "@stockbridge/shared";
import { IdempotencyInProgressError, IdempotencyKeyReusedError, ValidationError } from "../errors.ts";
import { sha256Hex } from "../security/bytes.ts";
import type { IdempotencyRepo, StoredAnswer } from "./repo.ts";

/** How long a key is remembered after its first request (a client's replays come within it). */
const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/**
 * A first request that has not answered after this long is taken to have died with its process:
 * a repeat runs it again instead of waiting out the key's whole lifetime. Write handlers answer in
 * seconds (long work runs as a job), so a live one is never run twice.
 */
const RUN_LEASE_MS = 5 * 60 * 1000;
/** What the header may hold: 1 to 255 printable ASCII characters (as Stripe's). */
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

export const IDEMPOTENCY_HEADER = "Idempotency-Key";

interface WriteRequest {
  userId: string;
  key: string;
  method: string;
  /** Path and query string, as sent. */
  path: string;
  body: string;
}

/** The request runs (and its answer is then stored under the claim), or the stored answer is given. */
type Admission = { run: true; claimId: string } | { run: false; answer: StoredAnswer };

interface IdempotencyServiceDeps {
  repo: IdempotencyRepo;
  now: () => Date;
  newId: () => string;
}

/**
 * Idempotency keys of write requests: the first request with a key runs and its answer is kept 24
 * hours for that user; a repeat (same method, path and body) gets that answer without running
 * again, the same key with another request is refused, and a repeat while the first still runs is
 * told to try again.
 */
export function createIdempotencyService(deps: IdempotencyServiceDeps) {
  const { repo, now, newId } = deps;

  async function admit(request: WriteRequest): Promise<Admission> {
    if (!KEY_PATTERN.test(request.key)) {
      throw new ValidationError(MESSAGES.idempotency.invalidKey, [
        { path: IDEMPOTENCY_HEADER, message: MESSAGES.idempotency.invalidKey },
      ]);
    }
    const keyed = { ...request, bodyHash: await sha256Hex(request.body) };
    // Twice: a key freed between the claim and the read (a 5xx released it, the prune removed it)
    // is free to take.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const at = now();
      const claimId = newId();
      const claimed = await repo.claim(keyed, {
        claimId,
        at: at.toISOString(),
        expiresAt: new Date(at.getTime() + KEY_LIFETIME_MS).toISOString(),
        staleBefore: new Date(at.getTime() - RUN_LEASE_MS).toISOString(),
      });
      if (claimed) return { run: true, claimId };
      const record = await repo.find(request.userId, request.key);
      if (!record) continue;
      if (
        record.method !== keyed.method ||
        record.path !== keyed.path ||
        record.bodyHash !== keyed.bodyHash
      ) {
        throw new IdempotencyKeyReusedError();
      }
      if (!record.answer) throw new IdempotencyInProgressError();
      return { run: false, answer: record.answer };
    }
    throw new IdempotencyInProgressError();
  }

  /**
   * Keeps the answer of a run for its repeats; a server failure (5xx) or a rate limit (429) is not
   * kept, so the same request with the same key may be tried again.
   */
  async function settle(
    owner: { userId: string; key: string; claimId: string },
    answer: StoredAnswer | null,
  ) {
    if (!answer || answer.status >= 500 || answer.status === 429) await repo.release(owner);
    else await repo.complete(owner, answer);
  }

  return {
    admit,
    settle,
    /** Removes expired keys (the minute tick); answers how many. */
    prune: () => repo.prune(now().toISOString()),
  };
}

export type IdempotencyService = ReturnType<typeof createIdempotencyService>;
