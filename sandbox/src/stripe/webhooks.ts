import { sleep } from "../faults.ts";
import { signWebhookPayload } from "./signature.ts";

export interface WebhookTarget {
  url: string | undefined;
  secret: string;
}

/** Waits between attempts: short so tests can watch a retry, long enough to let an endpoint restart. */
export const RETRY_DELAYS_MS = [100, 400, 1200] as const;
const ATTEMPT_TIMEOUT_MS = 10_000;

export interface WebhookDispatcher {
  /** Queues a serialized event; delivery runs in the background, in order. */
  enqueue(payload: string): void;
  /**
   * The next `count` deliveries are POSTed as usual but their answer is treated as a failure, as
   * if it was lost on the way back: the endpoint sees the same event again on the retry.
   */
  failNext(count: number): void;
  /** Resolves once nothing is queued or in flight. */
  idle(): Promise<void>;
  /** Drops queued deliveries (an attempt already in flight finishes but is not retried). */
  reset(): void;
  stats(): { delivered: number; failed: number; pending: number };
}

/**
 * Delivers events one at a time, in order, to the configured endpoint, each attempt signed anew.
 * A non-2xx answer or an unreachable endpoint is retried after RETRY_DELAYS_MS; after the last
 * retry the event is given up (counted in `failed` per attempt) and the queue moves on.
 */
export function createWebhookDispatcher(target: () => WebhookTarget): WebhookDispatcher {
  let queue: string[] = [];
  let running = false;
  let forcedFailures = 0;
  let delivered = 0;
  let failed = 0;
  let generation = 0;
  let waiters: (() => void)[] = [];

  async function attempt(payload: string): Promise<"ok" | "failed" | "skipped"> {
    const { url, secret } = target();
    // The endpoint was switched off (configure) while this event waited: drop it quietly.
    if (!url) return "skipped";
    const forced = forcedFailures > 0;
    if (forced) forcedFailures--;
    try {
      // Signed with the real wall clock, not the sandbox clock: receivers check the timestamp
      // against their own time (5 minutes tolerance) and would refuse a signature "from next month".
      const signature = await signWebhookPayload(secret, payload, Math.floor(Date.now() / 1000));
      const response = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json; charset=utf-8",
          "stripe-signature": signature,
          "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
        },
        body: payload,
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      });
      await response.body?.cancel();
      return response.ok && !forced ? "ok" : "failed";
    } catch {
      return "failed";
    }
  }

  async function drain(): Promise<void> {
    if (running) return;
    running = true;
    try {
      while (queue.length > 0) {
        const payload = queue[0]!;
        const started = generation;
        for (let tries = 0; ; tries++) {
          const outcome = await attempt(payload);
          if (started !== generation || outcome === "skipped") break;
          if (outcome === "ok") {
            delivered++;
            break;
          }
          failed++;
          const delay = RETRY_DELAYS_MS[tries];
          if (delay === undefined) break;
          await sleep(delay);
          if (started !== generation) break;
        }
        if (started === generation) queue.shift();
      }
    } finally {
      running = false;
      const resolved = waiters;
      waiters = [];
      for (const resolve of resolved) resolve();
    }
  }

  return {
    enqueue(payload) {
      queue.push(payload);
      void drain();
    },
    failNext(count) {
      forcedFailures = count;
    },
    idle() {
      if (!running && queue.length === 0) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
    reset() {
      generation++;
      queue = [];
      forcedFailures = 0;
      delivered = 0;
      failed = 0;
    },
    stats: () => ({ delivered, failed, pending: queue.length }),
  };
}
