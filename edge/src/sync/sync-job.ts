import type { Job, SyncJobResult } from "@stockbridge/shared";
import { heldForReview, MESSAGES, wouldBeHeld } from "@stockbridge/shared";
import { DomainError, UpstreamError } from "../errors.ts";
import type { HeldRepo } from "../history/held-repo.ts";
import { type JobRunner, NOT_RESUMABLE } from "../jobs/runner.ts";
import { record } from "../lib/json.ts";
import type { ClaimedSchedule } from "../schedules/repo.ts";
import type { RunSyncInput, RunSyncResult, SyncCheckpoint, SyncEngine, SyncProgress } from "./engine.ts";
import type { HeldApplier } from "./held-apply.ts";

/** The most planned changes a dry-run job keeps in its result row; the counts cover the rest. */
export const DRY_RUN_CHANGES_LIMIT = 1_000;

export const SYNC_BUSY = "A sync is already running; wait for it to finish.";

/** What a sync job's row holds to run (or resume) it on any instance. */
export type SyncJobInput =
  | ({ mode: "run" } & Omit<RunSyncInput, "onProgress" | "jobId" | "onCheckpoint" | "resumeEntry" | "userId">)
  | { mode: "approve"; historyId: string };

export interface SyncJobDeps {
  jobs: JobRunner;
  engine: SyncEngine;
  /** Applies a stored plan: an approved held run, or a run resumed after its plan was stored. */
  applier: HeldApplier;
  held: Pick<HeldRepo, "dropPlan">;
}

/**
 * Sync jobs, on whichever instance claims them: a multi-mapping (or full) sync reports the engine's
 * phases as progress and ends with the run's counts and history id as the job result. The run is
 * recorded in execution history like every other; a dry run writes nothing (no Shopify write, no
 * history) and ends with its planned changes instead. A run the safety limits hold ends the job
 * successfully too: its work (planning, and recording it for review) is done.
 *
 * Resuming on another instance: before its entry opens the run simply starts again; after, it
 * continues that entry (reading and planning again); once its plan is stored (before the first
 * write), it applies exactly that plan, where each change already written reads as in line and is
 * not sent again. So a run whose instance died ends once, with one coherent outcome.
 */
export function handleSyncJobs(deps: SyncJobDeps): void {
  deps.jobs.handle("sync", async (context) => {
    const input = syncJobInputOf(context.input);
    const onProgress = ({ phase, done, total }: SyncProgress) => context.progress({ phase, done, total });
    if (input.mode === "approve") {
      const result = await deps.applier.applyHeld({
        userId: context.userId,
        historyId: input.historyId,
        jobId: context.jobId,
        onProgress,
      });
      return { message: closingMessage(result), result };
    }
    const { mode: _mode, ...run } = input;
    const resumeFrom = checkpointOf(context.resumeFrom);
    if (resumeFrom?.planStored) {
      const result = await deps.applier.applyHeld({
        userId: context.userId,
        historyId: resumeFrom.historyId,
        jobId: context.jobId,
        onProgress,
      });
      await deps.held.dropPlan(resumeFrom.historyId);
      return { message: closingMessage(result), result };
    }
    const durable = !run.dryRun && !run.checkOnly;
    const outcome = await deps.engine.runSync({
      ...run,
      userId: context.userId,
      jobId: context.jobId,
      onProgress,
      resumeEntry: resumeFrom?.historyId ?? null,
      onCheckpoint: durable ? (checkpoint) => context.checkpoint(checkpoint) : undefined,
      plannedKept: DRY_RUN_CHANGES_LIMIT,
    });
    if (outcome.status === "failed" && outcome.cause) throw jobFailure(outcome.cause, outcome.error);
    const result = syncJobResult(outcome);
    return { message: closingMessage(result), result };
  });
}

/** Starts a sync job for its user and answers it at once; 409 (naming it) while one of theirs runs. */
export function startSyncJob(
  deps: { jobs: JobRunner },
  input: Omit<RunSyncInput, "onProgress" | "jobId" | "onCheckpoint" | "resumeEntry">,
): Promise<Job> {
  const { userId, ...run } = input;
  const stored: SyncJobInput = { mode: "run", ...run };
  return deps.jobs.start(userId, { kind: "sync", input: stored, busyMessage: SYNC_BUSY, phase: "Starting" });
}

/** Queues a schedule's run (the tick's fan-out); null while that schedule's previous run is live. */
export function enqueueScheduledRun(
  deps: { jobs: JobRunner },
  schedule: ClaimedSchedule,
): Promise<string | null> {
  const stored: SyncJobInput = {
    mode: "run",
    scope: schedule.isFullSync ? "all" : { mappingIds: schedule.mappingIds },
    syncOptions: schedule.syncOptions,
    trigger: "schedule",
    scheduleId: schedule._id,
    scheduleName: schedule.name,
    checkOnly: schedule.checkOnly,
  };
  return deps.jobs.enqueue(schedule.userId, {
    kind: "sync",
    input: stored,
    scheduleId: schedule._id,
    phase: "Queued",
  });
}

/** Starts applying an approved held run as a sync job (the entry is already claimed for it). */
export function startApprovedRun(
  deps: { jobs: JobRunner },
  run: { userId: string; historyId: string },
): Promise<Job> {
  const stored: SyncJobInput = { mode: "approve", historyId: run.historyId };
  return deps.jobs.start(run.userId, {
    kind: "sync",
    input: stored,
    busyMessage: SYNC_BUSY,
    phase: "Starting",
  });
}

/** The stored input, checked: a row written by another version may not be one this code can run. */
function syncJobInputOf(value: unknown): SyncJobInput {
  const input = record(value);
  if (input?.mode === "approve" && typeof input.historyId === "string")
    return { mode: "approve", historyId: input.historyId };
  const options = record(input?.syncOptions);
  const scope = input?.scope === "all" ? "all" : record(input?.scope);
  const ids = scope !== "all" && Array.isArray(scope?.mappingIds) ? scope.mappingIds : null;
  if (
    input?.mode !== "run" ||
    !options ||
    typeof options.price !== "boolean" ||
    typeof options.quantity !== "boolean" ||
    (scope !== "all" && !ids?.every((id) => typeof id === "string")) ||
    (input.trigger !== "manual" && input.trigger !== "schedule")
  )
    throw new DomainError("JOB_INPUT", NOT_RESUMABLE);
  return input as SyncJobInput;
}

function checkpointOf(value: unknown): SyncCheckpoint | null {
  const checkpoint = record(value);
  if (typeof checkpoint?.historyId !== "string") return null;
  return { historyId: checkpoint.historyId, planStored: checkpoint.planStored === true };
}

/** The job row keeps counts, not every mapping's answer: a 10,000-mapping run stays a small row. */
export function syncJobResult(run: RunSyncResult): SyncJobResult {
  const summary = run.summary;
  // A job's run is asked for a summary (plannedKept below), so it never holds every result.
  if (!summary) throw new Error("a sync job's run answers a summary: run it with plannedKept");
  return {
    dryRun: run.dryRun,
    historyId: run.historyId,
    total: summary.total,
    ...run.counts,
    unchanged: summary.unchanged,
    planned: summary.planned,
    changes: summary.firstPlanned.slice(0, DRY_RUN_CHANGES_LIMIT),
    truncated: summary.planned > DRY_RUN_CHANGES_LIMIT,
    holdReasons: run.holdReasons ?? [],
    ...(run.changesSince ? { changesSince: run.changesSince } : {}),
  };
}

/** The job's message names the outside system that stopped the run, as its history entry does. */
function jobFailure(cause: unknown, described: string | null): unknown {
  if (cause instanceof UpstreamError && described) return new UpstreamError(cause.system, described);
  return cause;
}

function closingMessage(result: SyncJobResult): string {
  const holdReasons = result.holdReasons ?? [];
  if (result.dryRun) {
    const plan = `Plan ready: ${result.planned} of ${result.total} mappings would change; nothing was written`;
    return holdReasons.length > 0 ? `${plan}. ${wouldBeHeld(holdReasons)}` : plan;
  }
  if (holdReasons.length > 0) return heldForReview(holdReasons);
  if (result.failure === 0) return MESSAGES.mapping.synchronized;
  return `${result.failure} of ${result.total} ${result.total === 1 ? "mapping" : "mappings"} failed; see Execution History`;
}
