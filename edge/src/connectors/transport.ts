import type { FetchLike } from "../security/outbound-guard.ts";

export type { FetchLike };

/**
 * Time as the connectors see it: pacing and back-off read `now` and wait with `sleep`. Real time in
 * the app; tests pass the sandbox's clock so a throttle wait advances simulated time instantly.
 */
export interface ConnectorClock {
  now(): number;
  sleep(milliseconds: number): Promise<void>;
}

export const realClock: ConnectorClock = {
  now: () => Date.now(),
  sleep: (milliseconds) => new Promise((resolve) => setTimeout(resolve, Math.max(0, milliseconds))),
};

/** Exponential back-off with jitter: ~0.5 s, 1 s, 2 s, 4 s ... capped. */
export function backoffMs(attempt: number, baseMs = 500, capMs = 10_000): number {
  const exponential = Math.min(capMs, baseMs * 2 ** attempt);
  return Math.round(exponential / 2 + Math.random() * (exponential / 2));
}

/** `Retry-After` in seconds (possibly fractional, "2.0") or an HTTP date; null when absent or odd. */
export function retryAfterMs(response: Response, now: number): number | null {
  const header = response.headers.get("Retry-After");
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** A per-request deadline joined with the caller's own abort signal. */
export function deadline(timeoutMs: number, signal?: AbortSignal): AbortSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  return signal ? AbortSignal.any([timeout, signal]) : timeout;
}

export function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
}

/** Network-level failure text without stack noise ("fetch failed: connect ECONNREFUSED 127.0.0.1:9"). */
export function networkReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  const causeText = cause instanceof Error ? cause.message : typeof cause === "string" ? cause : "";
  return causeText && !error.message.includes(causeText) ? `${error.message}: ${causeText}` : error.message;
}

/** Caps concurrent work at `limit`; waiters run in arrival order. */
export function createSemaphore(limit: number) {
  let active = 0;
  const waiting: Array<() => void> = [];
  return {
    async run<T>(work: () => Promise<T>): Promise<T> {
      if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
      else active += 1;
      try {
        return await work();
      } finally {
        const next = waiting.shift();
        if (next) next();
        else active -= 1;
      }
    },
    get active() {
      return active;
    },
  };
}
