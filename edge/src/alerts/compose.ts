import type { NotificationKind } from "@stockbridge/shared";
import type { RunOutcome } from "../history/repo.ts";

/** What the webhook receives (its JSON body, fixed when the alert is recorded). */
export interface WebhookPayload {
  type: string;
  historyId: string | null;
  scheduleName: string | null;
  status: string | null;
  successCount: number;
  failureCount: number;
  skippedCount: number;
  startDate: string | null;
  endDate: string | null;
  url: string;
}

/** One alert in every form it takes: the in-app title and body, the webhook's JSON, a link. */
export interface AlertContent {
  kind: NotificationKind;
  title: string;
  body: string;
  historyId: string | null;
  url: string;
  payload: WebhookPayload;
}

const WEBHOOK_TYPES: Record<NotificationKind, string> = {
  failed: "run.failed",
  partial: "run.partial",
  held: "run.held",
  missed: "schedule.missed",
  connection: "connection.failed",
};

/** The link to a run in the app: Execution History opens its details from `?entry=`. */
function historyEntryUrl(appOrigin: string, historyId: string): string {
  return `${appOrigin}/execution-history?entry=${encodeURIComponent(historyId)}`;
}

function runName(run: RunOutcome): string {
  return run.schedule?.name ?? "Manual sync";
}

function mappings(count: number): string {
  return `${count} ${count === 1 ? "mapping" : "mappings"}`;
}

/**
 * The alert for a finished run. `refusedBy` names the system that turned the connection away when
 * that is why the run stopped (a connection alert instead of a plain failure).
 */
export function runAlert(
  run: RunOutcome,
  kind: NotificationKind,
  options: { appOrigin: string; refusedBy?: "Shopify" | "Acumatica" | null },
): AlertContent {
  const name = runName(run);
  const total = run.successCount + run.failureCount + run.skippedCount;
  let title: string;
  let body: string;
  if (kind === "connection" && options.refusedBy) {
    title = `Connection to ${options.refusedBy} failed`;
    body = `${name} could not run: ${run.error ?? `${options.refusedBy} refused the connection`}. Test the connection in Settings > Connections.`;
  } else if (kind === "held") {
    title = `Sync held for review: ${name}`;
    body = `A safety limit stopped this run before it wrote anything${run.error ? `: ${run.error}` : ""}. Approve or discard it in Execution History.`;
  } else if (kind === "partial") {
    title = `Sync completed with failures: ${name}`;
    body = `${run.failureCount} of ${mappings(total)} failed; ${run.successCount} succeeded.`;
  } else {
    title = `Sync failed: ${name}`;
    body = run.error
      ? `The run failed: ${run.error}`
      : `${run.failureCount} of ${mappings(total)} failed; none succeeded.`;
  }
  const url = historyEntryUrl(options.appOrigin, run._id);
  return {
    kind,
    title,
    body,
    historyId: run._id,
    url,
    payload: {
      type: WEBHOOK_TYPES[kind],
      historyId: run._id,
      scheduleName: run.schedule?.name ?? null,
      status: run.status,
      successCount: run.successCount,
      failureCount: run.failureCount,
      skippedCount: run.skippedCount,
      startDate: run.startDate,
      endDate: run.endDate,
      url,
    },
  };
}

/** The alert for a schedule the cron did not start within the grace period of its time. */
export function missedScheduleAlert(
  schedule: { name: string; timezone: string; dueAt: string },
  options: { appOrigin: string; startedAt: Date },
): AlertContent {
  const due = new Date(schedule.dueAt);
  const lateMinutes = Math.round((options.startedAt.getTime() - due.getTime()) / 60_000);
  const url = `${options.appOrigin}/mapping-schedule`;
  return {
    kind: "missed",
    title: `Scheduled sync missed: ${schedule.name}`,
    body: `${schedule.name} was due at ${wallClock(due, schedule.timezone)} and started ${lateMinutes} minutes late: the scheduler did not run in time.`,
    historyId: null,
    url,
    payload: {
      type: WEBHOOK_TYPES.missed,
      historyId: null,
      scheduleName: schedule.name,
      status: null,
      successCount: 0,
      failureCount: 0,
      skippedCount: 0,
      startDate: schedule.dueAt,
      endDate: null,
      url,
    },
  };
}

/** The email of an alert: its title as subject, its body, the link and where to change alerts. */
export function alertEmail(content: AlertContent, appOrigin: string): { subject: string; text: string } {
  return {
    subject: content.title,
    text: [
      content.body,
      "",
      `Open in Stockbridge: ${content.url}`,
      "",
      `Choose which alerts you get in Settings > Notifications: ${appOrigin}/settings`,
    ].join("\n"),
  };
}

/** "Nov 21, 2026, 10:15 (Europe/Berlin)": the schedule's own wall-clock time. */
function wallClock(date: Date, timezone: string): string {
  try {
    const text = new Intl.DateTimeFormat("en-US", {
      timeZone: timezone,
      dateStyle: "medium",
      timeStyle: "short",
      hourCycle: "h23",
    }).format(date);
    return `${text} (${timezone})`;
  } catch {
    return date.toISOString();
  }
}
