import type { AlertDelivery, Notification } from "@stockbridge/shared";

/** The bell's badge: the count, or 99+ past that. */
export function unreadBadge(unread: number): string {
  return unread > 99 ? "99+" : String(unread);
}

/** The bell's accessible name, which says the count the badge shows. */
export function bellLabel(unread: number): string {
  if (unread === 0) return "Notifications";
  return `Notifications, ${unread} unread`;
}

/** Where a notification leads: its run in Execution History, or the schedules for a missed one. */
export function notificationTarget(
  notification: Pick<Notification, "historyId">,
): { to: "/execution-history"; search: { entry: string } } | { to: "/mapping-schedule" } {
  return notification.historyId
    ? { to: "/execution-history", search: { entry: notification.historyId } }
    : { to: "/mapping-schedule" };
}

/** 'just now', '5 min ago', '3 h ago', then the date: how long ago an alert came. */
export function timeAgo(iso: string, now: Date): string {
  const then = new Date(iso);
  if (Number.isNaN(then.getTime())) return "";
  const minutes = Math.floor((now.getTime() - then.getTime()) / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return formatAlertDate(iso);
}

/** `Nov 21, 2026, 10:00 AM` in the browser's zone; '-' when unreadable. */
export function formatAlertDate(iso: string | null): string {
  if (!iso) return "-";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "-";
  return new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" }).format(date);
}

/**
 * What a delivery's last attempt came to, in a line: the error, else the answer's code (HTTP for a
 * webhook, SMTP for an email), or nothing yet.
 */
export function describeAttempt(
  delivery: Pick<AlertDelivery, "channel" | "attempts" | "lastStatusCode" | "lastError">,
): string {
  if (delivery.attempts === 0) return "Not tried yet";
  const tries = `${delivery.attempts} ${delivery.attempts === 1 ? "attempt" : "attempts"}`;
  if (delivery.lastError) return `${tries}: ${delivery.lastError}`;
  if (delivery.lastStatusCode === null) return tries;
  return `${tries}: ${delivery.channel === "email" ? "SMTP" : "HTTP"} ${delivery.lastStatusCode}`;
}

export const DELIVERY_STATUS_TEXT: Record<AlertDelivery["status"], string> = {
  pending: "Pending",
  delivered: "Delivered",
  failed: "Failed",
};
