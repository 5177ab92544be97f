import type { SandboxClock } from "../clock.ts";
import { sleep } from "../faults.ts";
import { requestDeclined } from "./errors.ts";

/** More than this many waiting requests and the next one is declined (acumatica.md §6). */
const MAX_QUEUED = 20;
const MAX_WAIT_MS = 10 * 60_000;
const MINUTE_MS = 60_000;

export interface LimiterCounters {
  admitted: number;
  delayed: number;
  queueDeclines: number;
  queued: number;
  queuedPeak: number;
  active: number;
  activePeak: number;
}

/**
 * The licence's request queue, as documented:
 * - at most `maxConcurrent` requests run; the others wait in FIFO order;
 * - once the past minute holds 50% of `requestsPerMinute`, each request is delayed by
 *   (time left until a minute after the first of them) / (requests left in that minute);
 * - a request that would make the queue longer than 20, or that waited over 10 minutes, is declined.
 * Delays are measured on the sandbox clock (advancing it releases delayed requests); waiting polls it.
 */
export function createLimiter(
  clock: SandboxClock,
  limits: () => { maxConcurrent: number; requestsPerMinute: number },
) {
  const counters: LimiterCounters = {
    admitted: 0,
    delayed: 0,
    queueDeclines: 0,
    queued: 0,
    queuedPeak: 0,
    active: 0,
    activePeak: 0,
  };
  const waiting: Array<() => void> = [];
  // Start times of admitted requests, oldest first; `head` skips the ones older than a minute.
  let log: number[] = [];
  let head = 0;
  let gateAt = 0;

  function planStart(now: number): number {
    const limit = limits().requestsPerMinute;
    if (limit === 0) return now;
    const at = Math.max(now, gateAt);
    while (head < log.length && log[head]! <= at - MINUTE_MS) head += 1;
    if (head > 1_000 && head * 2 > log.length) {
      log = log.slice(head);
      head = 0;
    }
    const inPastMinute = log.length - head;
    if (inPastMinute * 2 < limit) return at;
    const minuteEnds = log[head]! + MINUTE_MS;
    const left = limit - inPastMinute;
    return left > 0 ? at + (minuteEnds - at) / left : Math.max(at, minuteEnds);
  }

  function slotFree(): boolean {
    const limit = limits().maxConcurrent;
    return waiting.length === 0 && (limit === 0 || counters.active < limit);
  }

  /** Wakes waiters while slots are free (after a release or a raised limit). */
  function pump() {
    const limit = limits().maxConcurrent;
    while (waiting.length > 0 && (limit === 0 || counters.active < limit)) {
      counters.active += 1;
      waiting.shift()!();
    }
    counters.activePeak = Math.max(counters.activePeak, counters.active);
  }

  function release() {
    counters.active -= 1;
    pump();
  }

  /** Resolves with a release function once the request may run; throws the 429 when declined. */
  async function admit(): Promise<() => void> {
    const arrivedAt = clock.now().getTime();
    const startAt = planStart(arrivedAt);
    const mustWait = startAt > arrivedAt || !slotFree();
    if (mustWait && counters.queued >= MAX_QUEUED) {
      counters.queueDeclines += 1;
      throw requestDeclined(`more than ${MAX_QUEUED} requests are waiting in the queue.`);
    }
    log.push(startAt);
    gateAt = startAt;
    if (!mustWait) {
      counters.active += 1;
      counters.activePeak = Math.max(counters.activePeak, counters.active);
      counters.admitted += 1;
      return once(release);
    }
    counters.queued += 1;
    counters.queuedPeak = Math.max(counters.queuedPeak, counters.queued);
    try {
      if (startAt > arrivedAt) {
        counters.delayed += 1;
        await waitForClock(clock, startAt);
      }
      if (slotFree()) {
        counters.active += 1;
        counters.activePeak = Math.max(counters.activePeak, counters.active);
      } else {
        // pump() counts the slot as taken before waking us.
        await new Promise<void>((resolve) => waiting.push(resolve));
      }
    } finally {
      counters.queued -= 1;
    }
    if (clock.now().getTime() - arrivedAt > MAX_WAIT_MS) {
      release();
      counters.queueDeclines += 1;
      throw requestDeclined("the request waited in the queue for more than 10 minutes.");
    }
    counters.admitted += 1;
    return once(release);
  }

  return {
    admit,
    counters,
    /** Call after the limits change, so waiters see a raised concurrency limit at once. */
    limitsChanged: pump,
    clear() {
      log = [];
      head = 0;
      gateAt = 0;
      Object.assign(counters, { admitted: 0, delayed: 0, queueDeclines: 0, queuedPeak: 0, activePeak: 0 });
    },
  };
}

export type Limiter = ReturnType<typeof createLimiter>;

function once(action: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    action();
  };
}

/** Sleeps in short real-time steps until the sandbox clock reaches `at`. */
async function waitForClock(clock: SandboxClock, at: number): Promise<void> {
  for (let now = clock.now().getTime(); now < at; now = clock.now().getTime()) {
    await sleep(Math.min(at - now, 25));
  }
}
