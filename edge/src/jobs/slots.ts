import { DatabaseBusyError, describeError } from "../errors.ts";
import type { SlotsRepo } from "./slots-repo.ts";

export interface SlotGateDeps {
  repo: SlotsRepo;
  now: () => Date;
  newId: () => string;
  log: (line: string) => void;
  /** How long a ticket or slot stays claimed without a heartbeat (renewed every third of it). */
  leaseMs: number;
  /** How often a waiter at the front asks the database again when nothing in this process woke it. */
  pollMs?: number;
}

/** A holder's place in the database queue; `lost` once its row ran out and was cleared. */
interface Ticket {
  seq: number;
  lost: boolean;
  /** Wakes the waiting holder (so a lost ticket is taken again at once). */
  wake?: () => void;
}

interface Waiter {
  seq: number;
  woken: boolean;
  wake(): void;
}

const POLL_MS = 200;

/**
 * At most `limit` holders of a key at once across every instance (licence seats: one user's
 * Acumatica sessions), served first come, first served. The queue lives in the database (tickets
 * with leases, so a stopped process frees its slot when its lease runs out); in this process a
 * release wakes the waiters at once, and only the first `limit` local waiters of a key poll for
 * releases elsewhere (a waiter behind them cannot be served before they are).
 */
export function createSlotGate(deps: SlotGateDeps) {
  const pollMs = deps.pollMs ?? POLL_MS;
  const queues = new Map<string, Waiter[]>();
  /** This process's tickets and slots (holder -> key), freed together when it stops. */
  const mine = new Map<string, string>();
  const leaseUntil = () => new Date(deps.now().getTime() + deps.leaseMs).toISOString();

  function wakeFront(key: string, limit: number) {
    for (const waiter of (queues.get(key) ?? []).slice(0, limit)) waiter.wake();
  }

  async function enqueue(key: string, holder: string): Promise<number> {
    return deps.repo.enqueue({ key, holder, leaseUntil: leaseUntil(), now: deps.now().toISOString() });
  }

  async function waitTurn(
    key: string,
    {
      holder,
      ticket,
      limit,
      onQueued,
    }: { holder: string; ticket: Ticket; limit: number; onQueued?: () => void },
  ) {
    let queued = false;
    const queue = queues.get(key) ?? [];
    queues.set(key, queue);
    let signal: (() => void) | null = null;
    const me: Waiter = {
      seq: ticket.seq,
      woken: false,
      wake() {
        me.woken = true;
        signal?.();
      },
    };
    insertBySeq(queue, me);
    ticket.wake = me.wake;
    try {
      for (;;) {
        me.woken = false;
        if (ticket.lost) {
          // The ticket ran out (this process stalled past its lease): back in the queue.
          ticket.lost = false;
          me.seq = await enqueue(key, holder);
          queue.splice(queue.indexOf(me), 1);
          insertBySeq(queue, me);
        }
        const front = queue.indexOf(me) < limit;
        if (front) {
          const now = deps.now().toISOString();
          if (await deps.repo.claim(holder, { key, limit, now, leaseUntil: leaseUntil() })) return;
        }
        if (me.woken) continue;
        if (!queued) {
          queued = true;
          onQueued?.();
        }
        await new Promise<void>((resolve) => {
          const timer = front ? setTimeout(resolve, pollMs) : undefined;
          signal = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        signal = null;
      }
    } finally {
      queue.splice(queue.indexOf(me), 1);
      if (queue.length === 0) queues.delete(key);
      // Whoever moved up into the front now polls too.
      wakeFront(key, limit);
    }
  }

  /**
   * Runs `work` holding one of the key's `limit` slots; waits its turn first (telling `onQueued`
   * when it has to), always frees it.
   */
  async function hold<T>(
    key: string,
    { limit, work, onQueued }: { limit: number; work: () => Promise<T>; onQueued?: () => void },
  ): Promise<T> {
    const holder = deps.newId();
    mine.set(holder, key);
    const ticket: Ticket = { seq: await enqueue(key, holder), lost: false };
    const heartbeat = setInterval(() => {
      deps.repo.renew(holder, leaseUntil()).then(
        (alive) => {
          if (alive) return;
          ticket.lost = true;
          ticket.wake?.();
        },
        (error: unknown) => deps.log(`slot ${key}: lease not renewed: ${describeError(error)}`),
      );
    }, deps.leaseMs / 3);
    (heartbeat as { unref?: () => void }).unref?.();
    try {
      await waitTurn(key, { holder, ticket, limit: Math.max(1, limit), onQueued });
      return await work();
    } finally {
      clearInterval(heartbeat);
      await release(key, holder);
      mine.delete(holder);
      wakeFront(key, Math.max(1, limit));
    }
  }

  /**
   * Frees every ticket and slot of this process at once (the graceful stop, after its jobs were
   * failed): other instances need not wait for the leases to run out.
   */
  async function releaseAll(): Promise<void> {
    await Promise.all([...mine].map(([holder, key]) => release(key, holder)));
    mine.clear();
  }

  /**
   * Frees the row, trying again while the database stays busy past one call's budget (another
   * instance writing): a slot left behind would count as held until its lease ran out, a minute
   * in which every other waiter of the key (on any instance) stands still.
   */
  async function release(key: string, holder: string) {
    const giveUpAt = deps.now().getTime() + deps.leaseMs;
    for (;;) {
      try {
        await deps.repo.release(holder, { key, now: deps.now().toISOString() });
        return;
      } catch (error) {
        if (!(error instanceof DatabaseBusyError) || deps.now().getTime() >= giveUpAt) {
          // The lease runs out on its own; until then the slot counts as held.
          deps.log(`slot ${key}: not released: ${describeError(error)}`);
          return;
        }
      }
    }
  }

  return { hold, releaseAll };
}

export type SlotGate = ReturnType<typeof createSlotGate>;

/** Local waiters stay in ticket order: the first `limit` of them are the ones that may be served. */
function insertBySeq(queue: Waiter[], waiter: Waiter) {
  const at = queue.findIndex((other) => other.seq > waiter.seq);
  queue.splice(at === -1 ? queue.length : at, 0, waiter);
}
