import { nextRun } from "@stockbridge/shared";
import { DatabaseBusyError, describeError } from "../errors.ts";
import type { HistoryRepo } from "../history/repo.ts";
import { RUN_STOPPED } from "../history/run-lease.ts";
import type { ClaimedSchedule, SchedulesRepo } from "./repo.ts";

export interface ScheduleTickerDeps {
  repo: SchedulesRepo;
  history: HistoryRepo;
  /**
   * Queues the schedule's run as a sync job any instance may claim (fan-out); null when the
   * schedule's previous run is still queued or running.
   */
  enqueueRun(schedule: ClaimedSchedule): Promise<string | null>;
  /** Whether a run of the schedule was queued at or after `since` (a tick that stopped after queueing it). */
  runQueuedSince(scheduleId: string, since: string): Promise<boolean>;
  /** Runs queued jobs on this instance until none is left that it may take; other instances take theirs. */
  runQueuedJobs(): Promise<unknown>;
  /** Whether the user's subscription still grants access; runs of users without one are skipped. */
  hasAccess?(userId: string): Promise<boolean>;
  /**
   * Why the user's plan does not allow this schedule to run (a downgrade left it more frequent than
   * the plan includes), or null. Such a run is skipped; the schedule list says why.
   */
  planRefusal?(userId: string, schedule: ClaimedSchedule): Promise<string | null>;
  /** Jobs whose process died are resumed (or failed when no attempt is left) on each tick too. */
  sweepJobs(): Promise<unknown>;
  now: () => Date;
  newId: () => string;
  log: (line: string) => void;
  /** How long a claim holds without renewal; a run renews it every third of this. */
  leaseMs?: number;
  /**
   * Told of every due schedule about to run, with the tick's time, before its run: the alerts
   * record a missed run when the schedule's time is long past (the cron did not run).
   */
  onDue?(schedule: ClaimedSchedule, at: Date): Promise<unknown>;
}

export interface TickReport {
  /** Schedules whose sync was queued as a job in this tick (the tick then runs what it can of the queue). */
  ran: string[];
  /** Schedules whose earlier run had died with its process, recorded as failed and moved on. */
  interrupted: string[];
  /**
   * Due schedules moved on without a run: their user's subscription no longer grants access, or
   * they are more frequent than the user's plan includes.
   */
  skipped: string[];
}

const DEFAULT_LEASE_MS = 5 * 60_000;
/** Tries of a release that meets a busy database (each waits out the database's own busy budget). */
const RELEASE_ATTEMPTS = 3;

/**
 * The cron side of schedules (ARCHITECTURE "Many instances"). Each tick claims due schedules with
 * one atomic UPDATE, so any number of instances tick without running a schedule twice; queues one
 * sync job per schedule (fan-out: any instance may run it, one user's runs take turns, each
 * connection bounded by its Acumatica seats); sets lastRun and the next run from now, so runs
 * missed while the server was down are not replayed in a burst; then runs what it can of the queue.
 */
export function createScheduleTicker(deps: ScheduleTickerDeps) {
  const leaseMs = deps.leaseMs ?? DEFAULT_LEASE_MS;

  async function runDueSchedules(at: Date = deps.now()): Promise<TickReport> {
    // One owner per tick: two ticks of the same process must not share a claim either.
    const owner = deps.newId();
    const now = at.toISOString();
    await endStoppedRuns(now);
    const lease = new Date(at.getTime() + leaseMs).toISOString();
    const orphaned = await deps.repo.claimInterrupted(owner, now, lease);
    const claimed = await deps.repo.claimDue(owner, now, lease);
    const interrupted = [...orphaned, ...claimed.filter((schedule) => schedule.interruptedAt)];
    const due = claimed.filter((schedule) => !schedule.interruptedAt);

    for (const schedule of interrupted) await settleInterrupted(schedule, owner);

    const ran: string[] = [];
    const skipped: string[] = [];
    await Promise.all(
      due.map(async (schedule) => {
        if (!(await allowed(schedule.userId)) || (await refusedByPlan(schedule))) {
          await release(schedule, owner, null);
          skipped.push(schedule._id);
          return;
        }
        await noticeDue(schedule, at);
        if (await queueRun(schedule, owner)) ran.push(schedule._id);
      }),
    );
    try {
      await deps.runQueuedJobs();
    } catch (error) {
      deps.log(`tick: queued jobs not run: ${describeError(error)}`);
    }
    return { ran, interrupted: interrupted.map((s) => s._id), skipped };
  }

  /** Any run (manual, job, scheduled) whose process stopped: its entry's lease ran out. */
  async function endStoppedRuns(now: string): Promise<void> {
    try {
      const ended = await deps.history.failExpired(now, { endDate: now, error: RUN_STOPPED });
      if (ended > 0) deps.log(`tick: ${ended} history entries ended: ${RUN_STOPPED}`);
    } catch (error) {
      deps.log(`tick: stopped runs not ended: ${describeError(error)}`);
    }
  }

  async function noticeDue(schedule: ClaimedSchedule, at: Date): Promise<void> {
    try {
      await deps.onDue?.(schedule, at);
    } catch (error) {
      deps.log(`schedule ${schedule._id}: missed run not noticed: ${describeError(error)}`);
    }
  }

  async function allowed(userId: string): Promise<boolean> {
    if (!deps.hasAccess) return true;
    try {
      return await deps.hasAccess(userId);
    } catch (error) {
      // Access that cannot be checked (Stripe unreachable) must not stop a paying user's sync.
      deps.log(`schedule tick: access of ${userId} not checked: ${describeError(error)}`);
      return true;
    }
  }

  async function refusedByPlan(schedule: ClaimedSchedule): Promise<boolean> {
    if (!deps.planRefusal) return false;
    try {
      const refusal = await deps.planRefusal(schedule.userId, schedule);
      if (refusal) deps.log(`schedule ${schedule._id}: not run: ${refusal}`);
      return refusal !== null;
    } catch (error) {
      // A plan that cannot be read must not stop a paying user's sync (as with access above).
      deps.log(`schedule ${schedule._id}: plan not checked: ${describeError(error)}`);
      return false;
    }
  }

  /** Queues the schedule's run and moves the schedule on; false when its previous run still goes. */
  async function queueRun(schedule: ClaimedSchedule, owner: string): Promise<boolean> {
    const startedAt = deps.now().toISOString();
    let jobId: string | null;
    try {
      jobId = await deps.enqueueRun(schedule);
    } catch (error) {
      // Not queued: the claim's lease runs out and the next tick records the run as interrupted.
      deps.log(`schedule ${schedule._id}: run not queued: ${describeError(error)}`);
      return false;
    }
    if (!jobId) deps.log(`schedule ${schedule._id}: previous run still in progress; this one skipped`);
    await release(schedule, owner, jobId ? startedAt : null);
    return jobId !== null;
  }

  async function settleInterrupted(schedule: ClaimedSchedule, owner: string): Promise<void> {
    const since = schedule.interruptedAt ?? schedule.lastRun ?? deps.now().toISOString();
    const endDate = deps.now().toISOString();
    // The tick that claimed it stopped after queueing its run: the job runs (or resumes) on its own.
    if (await queuedSince(schedule, since)) {
      await release(schedule, owner, since);
      return;
    }
    deps.log(`schedule ${schedule._id}: ${RUN_STOPPED}`);
    try {
      const entries = await deps.history.failOfSchedule(
        schedule.userId,
        { id: schedule._id, since },
        { endDate, error: RUN_STOPPED },
      );
      if (entries === 0) {
        // The process stopped before the engine opened an entry: the run still gets one, listing
        // every mapping the schedule covers.
        const id = deps.newId();
        await deps.history.start({
          id,
          userId: schedule.userId,
          trigger: "schedule",
          scheduleId: schedule._id,
          scheduleName: schedule.name,
          startDate: since,
          leaseUntil: endDate,
          scope: schedule.isFullSync ? "all" : { mappingIds: schedule.mappingIds },
          syncOptions: schedule.syncOptions,
          checkOnly: schedule.checkOnly,
        });
        await deps.history.failRun({ id, userId: schedule.userId }, { endDate, error: RUN_STOPPED });
      }
    } catch (error) {
      deps.log(`schedule ${schedule._id}: interrupted run not recorded: ${describeError(error)}`);
    }
    await release(schedule, owner, since);
  }

  async function queuedSince(schedule: ClaimedSchedule, since: string): Promise<boolean> {
    try {
      return await deps.runQueuedSince(schedule._id, since);
    } catch (error) {
      deps.log(`schedule ${schedule._id}: queued run not checked: ${describeError(error)}`);
      return false;
    }
  }

  async function release(schedule: ClaimedSchedule, owner: string, lastRun: string | null): Promise<void> {
    // A busy database is a moment: the release is tried again rather than left to the claim's lease
    // (minutes, during which the schedule shows a next run in the past).
    for (let attempt = 1; ; attempt += 1) {
      try {
        const next = nextRun(schedule.schedule, schedule.timezone, deps.now()).toISOString();
        await deps.repo.release(schedule._id, owner, { lastRun, nextRun: next });
        return;
      } catch (error) {
        if (error instanceof DatabaseBusyError && attempt < RELEASE_ATTEMPTS) continue;
        // The lease expires on its own; the next tick then settles the schedule (its run is queued).
        deps.log(`schedule ${schedule._id}: not released: ${describeError(error)}`);
        return;
      }
    }
  }

  return {
    runDueSchedules,
    /** What Deno.cron calls every minute: stopped jobs first, then due schedules. */
    async tick(): Promise<TickReport> {
      try {
        await deps.sweepJobs();
      } catch (error) {
        deps.log(`tick: stopped jobs not swept: ${describeError(error)}`);
      }
      return runDueSchedules(deps.now());
    },
  };
}

export type ScheduleTicker = ReturnType<typeof createScheduleTicker>;
