import {
  type AlertDelivery,
  MAX_PAGE_SIZE,
  NOTIFICATIONS_PAGE_SIZE,
  type Notification,
} from "@stockbridge/shared";
import type { Command } from "commander";
import { type CommandContext, runCommand } from "../context.ts";
import { usageError } from "../errors.ts";
import type { CliIo } from "../io.ts";
import { addAllOption, addPageOptions, type ListPageOptions, queryText } from "../options.ts";
import { formatDateTime, plural } from "../output/format.ts";
import { printJson } from "../output/json.ts";
import { type Column, printTable } from "../output/table.ts";

/** `notifications list|read|read-all|deliveries`: the bell's alerts and where email and webhooks went. */
export function registerNotificationCommands(program: Command, io: CliIo): void {
  const notifications = program
    .command("notifications")
    .description("alerts: failed, partial, held and missed runs, and their email and webhook deliveries");

  addPageOptions(
    addAllOption(
      notifications.command("list").description(`alerts, newest first (${NOTIFICATIONS_PAGE_SIZE} per page)`),
    ),
  ).action((options: ListPageOptions, command: Command) =>
    runCommand(io, command, (context) => list(context, options)),
  );

  notifications
    .command("read")
    .description("mark alerts read")
    .argument("<id...>", "notification ids (from `notifications list`)")
    .action((ids: string[], _options: object, command: Command) =>
      runCommand(io, command, (context) => read(context, ids)),
    );

  notifications
    .command("read-all")
    .description("mark every alert read")
    .action((_options: object, command: Command) => runCommand(io, command, readAll));

  notifications
    .command("deliveries")
    .description("the 50 newest email and webhook deliveries with their status and attempts")
    .action((_options: object, command: Command) => runCommand(io, command, deliveries));
}

/**
 * The list answers no page count: `--all` reads pages of the largest size until one comes back
 * short. The unread count is every unread alert's, whatever the page.
 */
async function list(context: CommandContext, options: ListPageOptions): Promise<void> {
  context.requireSignedIn();
  if (options.all) {
    if (options.page !== undefined) throw usageError("Use either --all or --page, not both.");
    const limit = options.limit ?? MAX_PAGE_SIZE;
    const rows: Notification[] = [];
    let unread = 0;
    for (let page = 1; ; page += 1) {
      const data = await context.api.call("listNotifications", {
        query: { page: String(page), limit: String(limit) },
      });
      rows.push(...data.notifications);
      unread = data.unread;
      if (data.notifications.length < limit) break;
    }
    if (context.json) return printJson(context.io.stdout, { notifications: rows, unread });
    return printNotifications(context, rows, unread);
  }
  const query = { page: queryText(options.page), limit: queryText(options.limit) };
  const data = await context.api.call("listNotifications", { query });
  if (context.json) return printJson(context.io.stdout, data);
  await printNotifications(context, data.notifications, data.unread);
}

async function printNotifications(
  context: CommandContext,
  rows: readonly Notification[],
  unread: number,
): Promise<void> {
  if (rows.length === 0) {
    context.out("No notifications.");
    return;
  }
  await printTable(context, NOTIFICATION_COLUMNS, rows);
  context.out();
  context.out(formatUnread(unread));
}

/** One `POST /notifications/:id/read` per id, in order; a repeated id is read once. */
async function read(context: CommandContext, ids: string[]): Promise<void> {
  context.requireSignedIn();
  const read: Notification[] = [];
  let unread = 0;
  for (const id of new Set(ids)) {
    const answer = await context.api.call("readNotification", { params: { id } });
    read.push(answer.notification);
    unread = answer.unread;
    if (!context.json) context.out(`Read: ${answer.notification.title} (${id})`);
  }
  if (context.json) return printJson(context.io.stdout, { notifications: read, unread });
  context.out(formatUnread(unread));
}

async function readAll(context: CommandContext): Promise<void> {
  context.requireSignedIn();
  const answer = await context.api.call("readAllNotifications");
  if (context.json) return printJson(context.io.stdout, answer);
  context.out(`Every notification is read. ${formatUnread(answer.unread)}`);
}

async function deliveries(context: CommandContext): Promise<void> {
  context.requireSignedIn();
  const data = await context.api.call("alertDeliveries");
  if (context.json) return printJson(context.io.stdout, data);
  if (data.deliveries.length === 0) {
    context.out("No email or webhook deliveries yet.");
    return;
  }
  await printTable(context, DELIVERY_COLUMNS, data.deliveries);
}

function formatUnread(unread: number): string {
  return unread === 0 ? "No unread notifications." : `${plural(unread, "unread notification")}.`;
}

const NOTIFICATION_COLUMNS: ReadonlyArray<Column<Notification>> = [
  { header: "ID", value: (row) => row._id },
  { header: "When", value: (row) => formatDateTime(row.createdAt, { seconds: true }) },
  { header: "Kind", value: (row) => row.kind },
  { header: "", value: (row) => (row.readAt ? "" : "unread") },
  { header: "Title", value: (row) => row.title },
  { header: "Run", value: (row) => row.historyId },
];

/** The last attempt: the receiver's status code or the error, whichever it gave. */
function lastAttempt(row: AlertDelivery): string | null {
  if (row.lastError) return row.lastStatusCode ? `${row.lastStatusCode} ${row.lastError}` : row.lastError;
  return row.lastStatusCode === null ? null : String(row.lastStatusCode);
}

const DELIVERY_COLUMNS: ReadonlyArray<Column<AlertDelivery>> = [
  { header: "When", value: (row) => formatDateTime(row.createdAt, { seconds: true }) },
  { header: "Channel", value: (row) => row.channel },
  { header: "To", value: (row) => row.target },
  { header: "Alert", value: (row) => row.title },
  { header: "Status", value: (row) => row.status },
  { header: "Attempts", value: (row) => row.attempts, align: "right" },
  { header: "Last answer", value: lastAttempt },
  { header: "Next attempt", value: (row) => (row.nextAttemptAt ? formatDateTime(row.nextAttemptAt) : null) },
];
