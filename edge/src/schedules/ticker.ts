import { nextRun } from "@stockbridge/shared";
import type { HistoryRepo } from "../history/repo.ts";
import { RUN_STOPPED } from "../history/run-lease.ts";
import { describeError } from "../http/errors.ts";
import type { RunSyncInput, RunSyncResult } from "../sync/engine.ts";
import type { ClaimedSchedule, SchedulesRepo } from "./repo.ts";

export interface ScheduleTickerDeps {
  repo: SchedulesRepo;
  history: HistoryRepo;
  runSync(input: RunSyncInput): Promise<RunSyncResult>;
  /** Whether the user's subscription still grants access; runs of users without one are skipped. */
  hasAccess?(userId: string): Promise<boolean>;
  /**
   * Why the user's plan does not allow this schedule to run (a downgrade left it more frequent than
   * the plan includes), or null. Such a run is skipped; the schedule list says why.
   */
  planRefusal?(userId: string, schedule: ClaimedSchedule): Promise<string | null>;
  /** Jobs whose process died are failed on each tick too (the jobs runner's recoverStale). */
  recoverStaleJobs(): Promise<unknown>;
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
  /** Schedules whose sync ran in this tick. */
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

/**
 * The cron side of schedules (ARCHITECTURE "Many instances"). Each tick claims due schedules with
 * one atomic UPDATE, so any number of instances tick without running a schedule twice; runs them;
 * then sets lastRun and the next run computed from the time the run ended, so runs missed while
 * the server was down are not replayed in a burst.
 */
export function createScheduleTicker(deps: ScheduleTickerDeps) {
  const leaseMs = deps.leaseMs ?? DEFAULT_LEASE_MS;
  const leaseUntil = () => new Date(deps.now().getTime() + leaseMs).toISOString();

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

    // Different users' runs go side by side; one user's schedules run one after another, as they
    // share that user's Shopify bucket and Acumatica sessions.
    const byUser = new Map<string, ClaimedSchedule[]>();
    for (const schedule of due)
      byUser.set(schedule.userId, [...(byUser.get(schedule.userId) ?? []), schedule]);
    const ran: string[] = [];
    const skipped: string[] = [];
    await Promise.all(
      [...byUser.values()].map(async (schedules) => {
        for (const schedule of schedules) {
          if (!(await allowed(schedule.userId)) || (await refusedByPlan(schedule))) {
            await release(schedule, owner, null);
            skipped.push(schedule._id);
          } else {
            await noticeDue(schedule, at);
            await runOne(schedule, owner);
            ran.push(schedule._id);
          }
        }
      }),
    );
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

  async function runOne(schedule: ClaimedSchedule, owner: string): Promise<void> {
    const startedAt = deps.now().toISOString();
    const heartbeat = setInterval(() => {
      deps.repo
        .renewLease(schedule._id, owner, leaseUntil())
        .catch((error: unknown) =>
          deps.log(`schedule ${schedule._id}: lease not renewed: ${describeError(error)}`),
        );
    }, leaseMs / 3);
    // A heartbeat must not keep a process (or a test run) alive on its own.
    (heartbeat as { unref?: () => void }).unref?.();
    try {
      const result = await deps.runSync({
        userId: schedule.userId,
        scope: schedule.isFullSync ? "all" : { mappingIds: schedule.mappingIds },
        syncOptions: schedule.syncOptions,
        trigger: "schedule",
        scheduleId: schedule._id,
        scheduleName: schedule.name,
        checkOnly: schedule.checkOnly,
      });
      if (result.status === "failed") deps.log(`schedule ${schedule._id}: run failed: ${result.error}`);
    } catch (error) {
      // The engine has recorded the failed run in execution history; the schedule still moves on.
      deps.log(`schedule ${schedule._id}: run failed: ${describeError(error)}`);
    } finally {
      clearInterval(heartbeat);
    }
    await release(schedule, owner, startedAt);
  }

  async function settleInterrupted(schedule: ClaimedSchedule, owner: string): Promise<void> {
    const since = schedule.interruptedAt ?? schedule.lastRun ?? deps.now().toISOString();
    const endDate = deps.now().toISOString();
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

  async function release(schedule: ClaimedSchedule, owner: string, lastRun: string | null): Promise<void> {
    try {
      const next = nextRun(schedule.schedule, schedule.timezone, deps.now()).toISOString();
      await deps.repo.release(schedule._id, owner, { lastRun, nextRun: next });
    } catch (error) {
      // The lease expires on its own; the next tick then records this run as interrupted.
      deps.log(`schedule ${schedule._id}: not released: ${describeError(error)}`);
    }
  }

  return {
    runDueSchedules,
    /** What Deno.cron calls every minute: stale jobs first, then due schedules. */
    async tick(): Promise<TickReport> {
      try {
        await deps.recoverStaleJobs();
      } catch (error) {
        deps.log(`tick: stale jobs not recovered: ${describeError(error)}`);
      }
      return runDueSchedules(deps.now());
    },
  };
}

export type ScheduleTicker = ReturnType<typeof createScheduleTicker>;
