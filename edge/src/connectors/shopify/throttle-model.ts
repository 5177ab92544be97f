import { record } from "../../lib/json.ts";
/** What Shopify reports in `extensions.cost.throttleStatus`. */
export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

/**
 * The client's picture of the store's leaky bucket: the last status Shopify sent, refilled at the
 * restore rate since then, minus what calls in flight have reserved. Calls wait until their cost
 * fits instead of spending a round trip on THROTTLED.
 */
export function createThrottleModel(now: () => number) {
  let status: ThrottleStatus | null = null;
  let at = 0;
  let reserved = 0;

  function available(): number | null {
    if (!status) return null;
    const refilled = status.currentlyAvailable + ((now() - at) / 1000) * status.restoreRate;
    return Math.min(status.maximumAvailable, refilled) - reserved;
  }

  return {
    /** Milliseconds to wait before a call of `cost` fits the bucket (0 when unknown or it fits). */
    waitFor(cost: number): number {
      const left = available();
      if (left === null || !status || cost <= left) return 0;
      // A cost above the whole bucket can never fit: once the bucket is full, send and let Shopify
      // judge (waiting on would never end, as the callers wait until this answers 0).
      const target = Math.min(cost, status.maximumAvailable);
      if (left >= target) return 0;
      return Math.ceil(((target - left) / status.restoreRate) * 1000) + 25;
    },
    reserve(cost: number) {
      reserved += cost;
      return () => {
        reserved = Math.max(0, reserved - cost);
      };
    },
    update(next: ThrottleStatus) {
      status = next;
      at = now();
    },
    status(): ThrottleStatus | null {
      return status;
    },
    /** Points the bucket holds now for a new call (refilled since the last answer, less what calls in flight reserved); null before any answer. */
    available,
  };
}

export function readThrottleStatus(extensions: unknown): {
  requested: number | null;
  actual: number | null;
  status: ThrottleStatus | null;
} {
  const cost = record(record(extensions)?.cost);
  const throttle = record(cost?.throttleStatus);
  const number = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : null);
  const maximumAvailable = number(throttle?.maximumAvailable);
  const currentlyAvailable = number(throttle?.currentlyAvailable);
  const restoreRate = number(throttle?.restoreRate);
  return {
    requested: number(cost?.requestedQueryCost),
    actual: number(cost?.actualQueryCost),
    status:
      maximumAvailable !== null && currentlyAvailable !== null && restoreRate !== null && restoreRate > 0
        ? { maximumAvailable, currentlyAvailable, restoreRate }
        : null,
  };
}
