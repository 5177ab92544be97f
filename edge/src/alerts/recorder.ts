import { MISSED_SCHEDULE_GRACE_MS } from "@stockbridge/shared";
import { describeError } from "../errors.ts";
import type { HistoryRepo } from "../history/repo.ts";
import type { RunSyncInput, RunSyncResult } from "../sync/engine.ts";
import type { HeldApplier } from "../sync/held-apply.ts";
import { alertKindForRun, refusedConnection } from "./alert-kind.ts";
import { type AlertContent, alertEmail, missedScheduleAlert, runAlert } from "./compose.ts";
import { effectiveSettings, sendsKind } from "./effective-settings.ts";
import { type AlertsRepo, runAlertKey } from "./repo.ts";

export interface AlertRecorderDeps {
  repo: AlertsRepo;
  history: Pick<HistoryRepo, "outcome">;
  appOrigin: string;
  /** Whether this server sends email (SMTP_URL is set): without it no email delivery is queued. */
  emailEnabled: boolean;
  now: () => Date;
  newId: () => string;
  log: (line: string) => void;
}

/** How far back the tick looks for ended runs that have no alert yet. */
const SWEEP_WINDOW_MS = 60 * 60_000;
const SWEEP_BATCH = 100;

/** A schedule as the tick claimed it, for the missed-run check. */
export interface DueSchedule {
  _id: string;
  userId: string;
  name: string;
  timezone: string;
  nextRun: string | null;
}

/**
 * Turns what happened into alerts: an in-app notification always, plus an email and a webhook
 * delivery when the user's settings ask for that kind. Each alert is recorded once, whichever
 * instance or path (the run's own report, the tick's sweep) gets there first.
 */
export function createAlertRecorder(deps: AlertRecorderDeps) {
  async function record(userId: string, content: AlertContent, dedupeKey: string): Promise<boolean> {
    const settings = await effectiveSettings(deps.repo, userId);
    const deliveries: { id: string; channel: "email" | "webhook"; target: string; payload: unknown }[] = [];
    if (sendsKind(settings, content.kind)) {
      if (settings.email && deps.emailEnabled) {
        deliveries.push({
          id: deps.newId(),
          channel: "email",
          target: settings.email,
          payload: alertEmail(content, deps.appOrigin),
        });
      }
      if (settings.webhookUrl) {
        deliveries.push({
          id: deps.newId(),
          channel: "webhook",
          target: settings.webhookUrl,
          payload: content.payload,
        });
      }
    }
    return deps.repo.record({
      id: deps.newId(),
      userId,
      kind: content.kind,
      title: content.title,
      body: content.body,
      historyId: content.historyId,
      dedupeKey,
      createdAt: deps.now().toISOString(),
      deliveries,
    });
  }

  /**
   * Records the alert a finished run deserves, if any; `cause` is what stopped a failed run.
   * `approved`: the end of a held run's approval, whose entry already has its 'held' alert.
   */
  async function runEnded(
    userId: string,
    historyId: string,
    options: { cause?: unknown; approved?: boolean } = {},
  ): Promise<boolean> {
    const run = await deps.history.outcome(userId, historyId);
    if (!run) return false;
    const kind = alertKindForRun(run.status, run);
    if (!kind) return false;
    const refusedBy = kind === "failed" ? refusedConnection(options.cause) : null;
    const content = runAlert(run, refusedBy ? "connection" : kind, { appOrigin: deps.appOrigin, refusedBy });
    return record(userId, content, `${runAlertKey(run._id)}${options.approved ? ":approved" : ""}`);
  }

  return {
    /**
     * Wraps the engine so every run it finishes reports its outcome. An alert that cannot be
     * recorded never fails the run: the tick's sweep records it from the history entry.
     */
    observeRuns<E extends { runSync(input: RunSyncInput): Promise<RunSyncResult> }>(engine: E): E {
      return {
        ...engine,
        async runSync(input: RunSyncInput): Promise<RunSyncResult> {
          const result = await engine.runSync(input);
          if (result.historyId) {
            await runEnded(input.userId, result.historyId, { cause: result.cause }).catch((error: unknown) =>
              deps.log(`alert for run ${result.historyId} not recorded: ${describeError(error)}`),
            );
          }
          return result;
        },
      };
    },

    /**
     * Wraps the held-run applier the same way: an approved plan that ends partial or failed is a
     * run ending like any other, alerted once more after its 'held' alert.
     */
    observeApprovals<A extends HeldApplier>(applier: A): A {
      return {
        ...applier,
        async applyHeld(input: Parameters<HeldApplier["applyHeld"]>[0]) {
          try {
            return await applier.applyHeld(input);
          } finally {
            await runEnded(input.userId, input.historyId, { approved: true }).catch((error: unknown) =>
              deps.log(`alert for approved run ${input.historyId} not recorded: ${describeError(error)}`),
            );
          }
        },
      };
    },

    /**
     * A due schedule whose time passed more than the grace period before a tick claimed it: the
     * cron did not run (the server was down or the cron stopped). One alert per missed time.
     */
    async scheduleMissed(schedule: DueSchedule, claimedAt: Date): Promise<boolean> {
      if (!schedule.nextRun) return false;
      const late = claimedAt.getTime() - new Date(schedule.nextRun).getTime();
      if (late <= MISSED_SCHEDULE_GRACE_MS) return false;
      const content = missedScheduleAlert(
        { name: schedule.name, timezone: schedule.timezone, dueAt: schedule.nextRun },
        { appOrigin: deps.appOrigin, startedAt: claimedAt },
      );
      return record(schedule.userId, content, `missed:${schedule._id}:${schedule.nextRun}`);
    },

    /**
     * Alerts for runs that ended in the last hour without one: a run whose process stopped (its
     * entry failed by a lease sweep) or whose report was lost. Answers how many it recorded.
     */
    async sweepEndedRuns(): Promise<number> {
      const since = new Date(deps.now().getTime() - SWEEP_WINDOW_MS).toISOString();
      const runs = await deps.repo.endedRunsWithoutAlert(since, SWEEP_BATCH);
      let recorded = 0;
      for (const run of runs) {
        try {
          if (await runEnded(run.userId, run.id)) recorded += 1;
        } catch (error) {
          deps.log(`alert for run ${run.id} not recorded: ${describeError(error)}`);
        }
      }
      return recorded;
    },
  };
}
