import type { Job, JobResult } from "@stockbridge/shared";
import {
  ConflictError,
  DatabaseBusyError,
  DomainError,
  describeError,
  NotFoundError,
  ServiceStoppingError,
} from "../errors.ts";
import type { ClaimedJob, JobKind, JobsRepo } from "./repo.ts";

const SERVER_STOPPED = "The server stopped while this job was running";
/** A job whose instance died this many times is not tried again (it may be what kills them). */
const MAX_ATTEMPTS = 3;
export const NOT_RESUMABLE = "This job cannot be resumed after its server stopped; start it again";

export interface JobProgress {
  done?: number;
  total?: number | null;
  phase?: string;
}

/** What a job's work sees: its input, where an earlier attempt got to, and progress reporting. */
export interface JobContext {
  jobId: string;
  userId: string;
  /** As stored at enqueue; the work validates it (a row may come from an older version). */
  input: unknown;
  /** What the last attempt saved with `checkpoint()`; null on a first attempt. */
  resumeFrom: unknown;
  /** 1 on the first attempt; more when another instance resumes the job. */
  attempt: number;
  progress(update: JobProgress): void;
  /**
   * Saves where the work got to after a finished step, so another instance resumes from here
   * if this one stops. Throws when this instance no longer holds the job.
   */
  checkpoint(value: unknown): Promise<void>;
}

export interface JobOutcome<K extends JobKind = JobKind> {
  /** Shown by the screens (e.g. the spec's toast); null for none. */
  message?: string | null;
  /** Typed by the job's kind: what the OpenAPI document promises a succeeded job of that kind holds. */
  result: JobResult<K>;
  /**
   * Housekeeping the result does not wait for (a pull's search index): run once the job is
   * recorded as done, still counted by `idle()`; a failure is logged and leaves the job as it is.
   */
  afterwards?: () => Promise<void>;
}

export type JobWork<K extends JobKind = JobKind> = (context: JobContext) => Promise<JobOutcome<K>>;

export interface JobRunnerDeps {
  repo: JobsRepo;
  now: () => Date;
  newId: () => string;
  log: (line: string) => void;
  /** How long a job stays claimed without a heartbeat before another instance resumes it. */
  leaseMs?: number;
  /** Jobs this instance runs at once from the queue (a user's own start always runs at once). */
  concurrency?: number;
  /**
   * Tells the platform's queue of a job queued here without a user waiting on it (a schedule's run),
   * so it is delivered to an instance at once (`runQueued`); a failure is logged (polls still claim it).
   */
  wake?: (jobId: string) => Promise<void>;
  /**
   * Told which jobs ended failed because no instance will resume them (attempts used up, input
   * that cannot run), so what they left open (their history entry) ends with them; a failure here
   * is logged (the entry's own lease still ends it).
   */
  onStopped?: (jobIds: string[]) => Promise<void>;
}

const HEARTBEAT_MS = 10_000;
const PROGRESS_WRITE_MS = 300;
const DEFAULT_CONCURRENCY = 4;

/**
 * Thrown by `checkpoint()` when another instance took the job over (this one stalled past its
 * lease): the work stops without touching what the job left open, which is the new holder's now.
 */
export class JobLostError extends Error {
  constructor(jobId: string) {
    super(`job ${jobId}: another instance holds it now`);
    this.name = "JobLostError";
  }
}

/**
 * Long work as durable job rows (ARCHITECTURE "Long work", "Many instances"). A start queues a
 * row with the work's input and answers it at once; a worker claims it with a lease it renews by
 * heartbeat and runs the handler registered for its kind. Any instance may claim: this one at once
 * for its own user's start, any other from its poll or tick. When an instance stops, its jobs are
 * released (SIGTERM) or their lease runs out (a crash), and another instance claims them again and
 * resumes from the work's last checkpoint. Progress is in the row, so streams work from anywhere.
 * One live job per user and kind for a user's start: a second answers 409 with the live job's id.
 */
export function createJobRunner(deps: JobRunnerDeps) {
  const leaseMs = deps.leaseMs ?? 60_000;
  const concurrency = deps.concurrency ?? DEFAULT_CONCURRENCY;
  // A short (configured) lease needs a heartbeat well inside it, or a live job would look dead.
  const heartbeatMs = Math.min(HEARTBEAT_MS, leaseMs / 3);
  // This process's claims: a job's row names it as owner while this process runs it.
  const owner = deps.newId();
  const handlers = new Map<JobKind, JobWork>();
  const running = new Map<string, Promise<void>>();
  const listeners = new Map<string, Set<() => void>>();
  const leaseUntil = () => new Date(deps.now().getTime() + leaseMs).toISOString();
  let stopping = false;

  function notify(jobId: string) {
    for (const listener of listeners.get(jobId) ?? []) listener();
  }

  /** Fails what no instance will resume, and ends what those jobs left open. */
  async function failExhausted(): Promise<string[]> {
    const failed = await deps.repo.failExhausted(deps.now().toISOString(), SERVER_STOPPED, MAX_ATTEMPTS);
    return closeStopped(failed);
  }

  async function closeStopped(failed: string[]): Promise<string[]> {
    for (const id of failed) deps.log(`job ${id}: ${SERVER_STOPPED}`);
    if (failed.length > 0 && deps.onStopped) {
      try {
        await deps.onStopped(failed);
      } catch (error) {
        deps.log(`jobs ${failed.join(", ")}: what they left open was not closed: ${describeError(error)}`);
      }
    }
    return failed;
  }

  /**
   * Claims what this instance may run (one job by id, or up to its spare capacity) and starts it.
   * Answers the runs it started.
   */
  async function claim(options: { id?: string; stoppedOnly?: boolean } = {}): Promise<Promise<void>[]> {
    if (stopping) return [];
    const limit = options.id === undefined ? concurrency - running.size : 1;
    const claimed = await deps.repo.claim({
      owner,
      now: deps.now().toISOString(),
      leaseUntil: leaseUntil(),
      limit,
      maxAttempts: MAX_ATTEMPTS,
      id: options.id,
      stoppedOnly: options.stoppedOnly,
    });
    return claimed.map((job) => {
      if (job.attempt > 1) deps.log(`job ${job.job._id} (${job.job.kind}): resumed, attempt ${job.attempt}`);
      const run = execute(job).finally(() => {
        running.delete(job.job._id);
        // A finished job frees a place: take the next queued one (a user's schedules wait their turn).
        if (!stopping) void pump();
      });
      running.set(job.job._id, run);
      return run;
    });
  }

  /** Claims and runs queued jobs until none is left this instance may take; resolves when they end. */
  async function drain(): Promise<number> {
    let ran = 0;
    for (;;) {
      const runs = await claim();
      if (runs.length === 0) {
        if (running.size === 0) return ran;
        // Wait for one of ours to end, then look again: it may have freed a user's turn.
        await Promise.race(running.values());
        continue;
      }
      ran += runs.length;
    }
  }

  /** Takes what is claimable now without waiting for it; a failure is logged (the next poll tries again). */
  async function pump(options: { stoppedOnly?: boolean } = {}): Promise<void> {
    try {
      await claim(options);
    } catch (error) {
      deps.log(`jobs: claim failed: ${describeError(error)}`);
    }
  }

  async function get(userId: string, jobId: string): Promise<Job> {
    const job = await deps.repo.find(userId, jobId);
    if (!job) throw new NotFoundError("Job not found");
    // A reader that finds the job waiting, or its instance gone, takes it over (no wait for a poll or tick).
    const waiting =
      job.status === "queued" ||
      (job.status === "running" && (await deps.repo.leaseExpired(jobId, deps.now().toISOString())));
    if (waiting && !running.has(jobId)) {
      await failExhausted();
      await claim({ id: jobId }).catch((error: unknown) =>
        deps.log(`job ${jobId}: not taken over: ${describeError(error)}`),
      );
      return (await deps.repo.find(userId, jobId)) ?? job;
    }
    return job;
  }

  async function start(
    userId: string,
    {
      kind,
      input,
      busyMessage,
      phase = "Starting",
    }: { kind: JobKind; input: unknown; busyMessage: string; phase?: string },
  ): Promise<Job> {
    if (stopping) throw new ServiceStoppingError();
    await failExhausted();
    const jobId = deps.newId();
    // The job in the way may end between the refused insert and the look-up: then try again.
    for (let attempt = 1; ; attempt += 1) {
      const now = deps.now().toISOString();
      if (await deps.repo.enqueue({ id: jobId, userId, kind, now, phase, input, exclusive: true })) break;
      const live = await deps.repo.liveJobId(userId, kind);
      // The 409 names the running job so a client can follow it instead of giving up.
      if (live || attempt === 3) throw new ConflictError(busyMessage, live ? { jobId: live } : {});
    }
    // The user waits for this one: this instance runs it now, whatever its queue holds.
    await claim({ id: jobId });
    const job = await deps.repo.find(userId, jobId);
    if (!job) throw new Error(`job ${jobId} vanished right after it was created`);
    return job;
  }

  /**
   * Queues a job nobody is waiting on at the door (a schedule's run): no 409, it waits its user's
   * turn. With `scheduleId`, not while that schedule has a live job. Answers the job's id, or null.
   */
  async function enqueue(
    userId: string,
    {
      kind,
      input,
      phase = "Queued",
      scheduleId,
    }: { kind: JobKind; input: unknown; phase?: string; scheduleId?: string },
  ): Promise<string | null> {
    const id = deps.newId();
    const queued = await deps.repo.enqueue({
      id,
      userId,
      kind,
      now: deps.now().toISOString(),
      phase,
      input,
      exclusive: false,
      scheduleId: scheduleId ?? null,
    });
    if (queued && deps.wake)
      await deps
        .wake(id)
        .catch((error: unknown) => deps.log(`job ${id}: queue not told: ${describeError(error)}`));
    return queued ? id : null;
  }

  async function execute(claimed: ClaimedJob): Promise<void> {
    // Let the POST answer first; the work starts on the next turn of the event loop.
    await Promise.resolve();
    const { job } = claimed;
    const work = handlers.get(job.kind);
    if (!work) {
      deps.log(`job ${job._id}: no handler for kind ${job.kind}`);
      if (await deps.repo.fail(job._id, { owner, message: NOT_RESUMABLE, now: deps.now().toISOString() }))
        await closeStopped([job._id]);
      notify(job._id);
      return;
    }
    const state = { done: job.progress.done, total: job.progress.total, phase: job.progress.phase };
    let lost = false;
    let lastWrite = 0;
    let writing: Promise<void> = Promise.resolve();
    const write = () => {
      lastWrite = Date.now();
      const snapshot = { ...state, leaseUntil: leaseUntil() };
      writing = writing
        .then(async () => {
          if (!(await deps.repo.progress(job._id, owner, snapshot)) && !lost) {
            lost = true;
            deps.log(`job ${job._id}: another instance took it over; this one's writes stop counting`);
          }
        })
        .then(() => notify(job._id))
        .catch((error: unknown) => deps.log(`job ${job._id}: progress not saved: ${describeError(error)}`));
    };
    const heartbeat = setInterval(write, heartbeatMs);
    // A heartbeat must not keep a process (or a test run) alive on its own.
    (heartbeat as { unref?: () => void }).unref?.();
    const context: JobContext = {
      jobId: job._id,
      userId: claimed.userId,
      input: claimed.input,
      resumeFrom: claimed.checkpoint,
      attempt: claimed.attempt,
      progress(update) {
        const phaseChanged = update.phase !== undefined && update.phase !== state.phase;
        if (update.done !== undefined) state.done = update.done;
        if (update.total !== undefined) state.total = update.total;
        if (update.phase !== undefined) state.phase = update.phase;
        if (phaseChanged || Date.now() - lastWrite >= PROGRESS_WRITE_MS) write();
      },
      async checkpoint(value) {
        if (!(await deps.repo.checkpoint(job._id, owner, value))) {
          lost = true;
          throw new JobLostError(job._id);
        }
      },
    };
    write();
    let outcome: { status: "succeeded" | "failed"; message: string | null; result: unknown };
    let afterwards: JobOutcome["afterwards"];
    try {
      const done = await work(context);
      outcome = { status: "succeeded", message: done.message ?? null, result: done.result };
      afterwards = done.afterwards;
    } catch (error) {
      // A database busy past its budget is a moment, not the job's fault: the job goes back to the
      // queue and resumes from its checkpoint (its attempts still bound how often).
      if (error instanceof DatabaseBusyError && claimed.attempt < MAX_ATTEMPTS) {
        clearInterval(heartbeat);
        await writing;
        deps.log(`job ${job._id} (${job.kind}): the database was busy; queued again to resume`);
        await deps.repo
          .release([job._id], owner)
          .catch((cause: unknown) => deps.log(`job ${job._id}: not queued again: ${describeError(cause)}`));
        notify(job._id);
        return;
      }
      outcome = { status: "failed", message: failureText(error), result: null };
      if (!(error instanceof JobLostError))
        deps.log(
          `job ${job._id} (${job.kind}) failed: ${error instanceof DomainError ? error.message : describeError(error)}`,
        );
    } finally {
      clearInterval(heartbeat);
    }
    await writing;
    try {
      // Conditional on this instance's claim: a job another instance took over is its to finish.
      const finished = await deps.repo.finish(job._id, owner, { ...outcome, now: deps.now().toISOString() });
      if (!finished) deps.log(`job ${job._id}: ended here after another instance took it over; not recorded`);
    } catch (error) {
      deps.log(`job ${job._id}: final state not saved: ${describeError(error)}`);
    }
    notify(job._id);
    if (afterwards) {
      try {
        await afterwards();
      } catch (error) {
        deps.log(`job ${job._id}: follow-up work failed: ${describeError(error)}`);
      }
    }
  }

  return {
    /** The work for jobs of `kind`, on whichever instance claims them. Register before serving. */
    handle<K extends JobKind>(kind: K, work: JobWork<K>): void {
      handlers.set(kind, work as unknown as JobWork);
    },
    start,
    enqueue,
    get,
    drain,
    /**
     * A queue delivery: claims that job (if no instance has it) and resolves when it ends, so the
     * platform keeps this instance alive for the work.
     */
    async runQueued(jobId: string): Promise<void> {
      await Promise.all(await claim({ id: jobId }));
    },
    /**
     * The poll's and tick's step: fails what no instance will resume, then takes what is claimable
     * without waiting for it (`stoppedOnly`: only jobs whose instance stopped, when a platform queue
     * delivers the freshly queued ones). A quiet database answers two reads and takes no write lock.
     */
    async sweep(options: { stoppedOnly?: boolean } = {}): Promise<void> {
      await failExhausted();
      if (stopping || running.size >= concurrency) return;
      await pump(options);
    },
    /** Calls `listener` whenever the job's row changes in this process; returns the unsubscribe. */
    subscribe(jobId: string, listener: () => void): () => void {
      let set = listeners.get(jobId);
      if (!set) {
        set = new Set();
        listeners.set(jobId, set);
      }
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(jobId);
      };
    },
    /** Resolves when every job this process runs has finished (tests, graceful shutdown). */
    async idle(): Promise<void> {
      while (running.size > 0) await Promise.allSettled([...running.values()]);
    },
    /**
     * The graceful stop's step: nothing new is claimed (a start answers 503), the running jobs get
     * `graceMs` to finish, and those still running are handed back to the queue at once, so
     * another instance (or this one's next start) resumes them from their last checkpoint without
     * waiting for a lease to run out. Answers their ids.
     */
    async stop(graceMs: number): Promise<string[]> {
      stopping = true;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const grace = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceMs);
      });
      await Promise.race([this.idle(), grace]);
      clearTimeout(timer);
      if (running.size === 0) return [];
      return deps.repo.release([...running.keys()], owner);
    },
  };
}

export type JobRunner = ReturnType<typeof createJobRunner>;

/** Domain errors carry a message meant for people; anything else is a bug, shown without internals. */
function failureText(error: unknown): string {
  if (error instanceof DomainError) return error.message;
  return "The job failed because of an error on our side. Please try again.";
}
