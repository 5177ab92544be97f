import { DomainError, UpstreamError } from "../errors.ts";
import { BillingInProgressError } from "./errors.ts";
import type { BillingRepo } from "./repo.ts";

/**
 * How long a claim holds without its process. Longer than any one operation can take (a few Stripe
 * calls of at most 20 s, each retried twice), short enough that a crash locks the user out briefly.
 */
export const BILLING_LOCK_MS = 5 * 60_000;

/** Makes the Idempotency-Key of one Stripe write of the running operation from what varies in it. */
export type KeyFor = (step: string, ...parts: string[]) => string;

/**
 * One billing operation at a time per user, across requests and instances: the claim is a row in
 * the database. A second operation while one runs is refused with 409 (it would otherwise decide
 * on a state the first is changing: ten clicks on Subscribe made ten subscriptions).
 */
export function createBillingLock(deps: { repo: BillingRepo; now: () => Date }) {
  return {
    async run<T>(userId: string, operation: string, work: (keyFor: KeyFor) => Promise<T>): Promise<T> {
      const holder = crypto.randomUUID();
      const now = deps.now();
      const generation = await deps.repo.claimBillingLock(userId, {
        holder,
        operation,
        now: now.toISOString(),
        heldUntil: new Date(now.getTime() + BILLING_LOCK_MS).toISOString(),
      });
      if (generation === null) throw new BillingInProgressError();
      // Keys stay the same until an operation settles: a retry after a lost answer or a crash
      // replays Stripe's first answer; the next operation gets new ones.
      const keyFor: KeyFor = (step, ...parts) =>
        ["stockbridge", userId, generation, operation, step, ...parts].join(":");
      let settled = false;
      try {
        const result = await work(keyFor);
        settled = true;
        return result;
      } catch (error) {
        settled = outcomeKnown(error);
        throw error;
      } finally {
        await deps.repo.releaseBillingLock(userId, { holder, settled });
      }
    },
  };
}

export type BillingLock = ReturnType<typeof createBillingLock>;

/**
 * Stripe answered with a decision (a declined card, a bad id): the next attempt is a new request.
 * Stripe failing or unreachable may have applied the write, so its retry must reuse the keys.
 */
function outcomeKnown(error: unknown): boolean {
  return error instanceof DomainError && !(error instanceof UpstreamError);
}
