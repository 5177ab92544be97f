import type { Job, JobResult } from "@stockbridge/shared";
import {
  AppError,
  ConflictError,
  describeError,
  NotFoundError,
  ServiceStoppingError,
} from "../http/errors.ts";
import type { JobKind, JobsRepo } from "./repo.ts";

export const SERVER_STOPPED = "The server stopped while this job was running";

export interface JobProgress {
  done?: number;
  total?: number | null;
  phase?: string;
}

/** What a job's work sees: report progress (written throttled, pushed to event streams). */
export interface JobContext {
  jobId: string;
  userId: string;
  progress(update: JobProgress): void;
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
  /** How long a job stays claimed without a heartbeat before another start/tick declares it dead. */
  leaseMs?: number;
  /**
   * Told which jobs this process just declared dead (their lease ran out elsewhere), so what they
   * left open (their history entry) ends with them; a failure here is logged (the entry's own lease
   * still ends it).
   */
  onStopped?: (jobIds: string[]) => Promise<void>;
}

const HEARTBEAT_MS = 10_000;
const PROGRESS_WRITE_MS = 300;

/**
 * Long work as job rows (ARCHITECTURE "Long work"): the POST answers the job at once, the work runs
 * in this process, progress is written to the row and pushed to listeners (the SSE stream). The row
 * carries a lease renewed by a heartbeat; if the process dies, the next start or read finds the
 * lease expired and fails the job with SERVER_STOPPED. One live job per user and kind: a second
 * start answers 409 with the live job's id (`jobId`).
 */
export function createJobRunner(deps: JobRunnerDeps) {
  const leaseMs = deps.leaseMs ?? 60_000;
  // A short (configured) lease needs a heartbeat well inside it, or a live job would look dead.
  const heartbeatMs = Math.min(HEARTBEAT_MS, leaseMs / 3);
  const running = new Map<string, Promise<void>>();
  const listeners = new Map<string, Set<() => void>>();
  const leaseUntil = () => new Date(deps.now().getTime() + leaseMs).toISOString();

  function notify(jobId: string) {
    for (const listener of listeners.get(jobId) ?? []) listener();
  }

  let stopping = false;

  async function recoverStale(): Promise<string[]> {
    const failed = await deps.repo.failExpired(deps.now().toISOString(), SERVER_STOPPED, [...running.keys()]);
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

  /** Reads write nothing unless this job's own lease ran out in another (stopped) process. */
  async function get(userId: string, jobId: string): Promise<Job> {
    const job = await deps.repo.find(userId, jobId);
    if (!job) throw new NotFoundError("Job not found");
    const live = job.status === "running" || job.status === "queued";
    if (live && !running.has(jobId) && (await deps.repo.leaseExpired(jobId, deps.now().toISOString()))) {
      await recoverStale();
      return (await deps.repo.find(userId, jobId)) ?? job;
    }
    return job;
  }

  async function start<K extends JobKind>(
    userId: string,
    kind: K,
    work: JobWork<K>,
    options: { busyMessage: string; phase?: string },
  ): Promise<Job> {
    if (stopping) throw new ServiceStoppingError();
    await recoverStale();
    const jobId = deps.newId();
    const phase = options.phase ?? "Starting";
    // The job in the way may end between the refused insert and the look-up: then try again.
    for (let attempt = 1; ; attempt += 1) {
      const now = deps.now().toISOString();
      const row = { id: jobId, userId, kind, now, leaseUntil: leaseUntil(), phase };
      if (await deps.repo.insertIfIdle(row)) break;
      const running = await deps.repo.liveJobId(userId, kind, now);
      // The 409 names the running job so a client can follow it instead of giving up.
      if (running || attempt === 3)
        throw new ConflictError(options.busyMessage, running ? { jobId: running } : {});
    }
    const job = await deps.repo.find(userId, jobId);
    if (!job) throw new Error(`job ${jobId} vanished right after it was created`);
    running.set(jobId, run(job, userId, work));
    return job;
  }

  async function run(job: Job, userId: string, work: JobWork): Promise<void> {
    // Let the POST answer first; the work starts on the next turn of the event loop.
    await Promise.resolve();
    const state = { done: 0, total: null as number | null, phase: job.progress.phase };
    let lastWrite = 0;
    let writing: Promise<void> = Promise.resolve();
    const write = () => {
      lastWrite = Date.now();
      const snapshot = { ...state, leaseUntil: leaseUntil() };
      writing = writing
        .then(() => deps.repo.progress(job._id, snapshot))
        .then(() => notify(job._id))
        .catch((error: unknown) => deps.log(`job ${job._id}: progress not saved: ${describeError(error)}`));
    };
    const heartbeat = setInterval(write, heartbeatMs);
    // A heartbeat must not keep a process (or a test run) alive on its own.
    (heartbeat as { unref?: () => void }).unref?.();
    const context: JobContext = {
      jobId: job._id,
      userId,
      progress(update) {
        const phaseChanged = update.phase !== undefined && update.phase !== state.phase;
        if (update.done !== undefined) state.done = update.done;
        if (update.total !== undefined) state.total = update.total;
        if (update.phase !== undefined) state.phase = update.phase;
        if (phaseChanged || Date.now() - lastWrite >= PROGRESS_WRITE_MS) write();
      },
    };
    let outcome: { status: "succeeded" | "failed"; message: string | null; result: unknown };
    let afterwards: JobOutcome["afterwards"];
    try {
      const done = await work(context);
      outcome = { status: "succeeded", message: done.message ?? null, result: done.result };
      afterwards = done.afterwards;
    } catch (error) {
      outcome = { status: "failed", message: failureText(error), result: null };
      deps.log(
        `job ${job._id} (${job.kind}) failed: ${error instanceof AppError ? error.message : describeError(error)}`,
      );
    } finally {
      clearInterval(heartbeat);
    }
    await writing;
    try {
      await deps.repo.finish(job._id, { ...outcome, now: deps.now().toISOString() });
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
    running.delete(job._id);
  }

  return {
    start,
    get,
    recoverStale,
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
     * The graceful stop's step: no new job starts (503), the running ones get `graceMs` to finish,
     * and those still running then are failed with SERVER_STOPPED at once (their history entries
     * ended with them), so nobody waits a lease to learn the work stopped. Answers their ids.
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
      const unfinished = await deps.repo.failLive(
        [...running.keys()],
        SERVER_STOPPED,
        deps.now().toISOString(),
      );
      return closeStopped(unfinished);
    },
  };
}

export type JobRunner = ReturnType<typeof createJobRunner>;

/** Domain errors carry a message meant for people; anything else is a bug, shown without internals. */
function failureText(error: unknown): string {
  if (error instanceof AppError) return error.message;
  return "The job failed because of an error on our side. Please try again.";
}
