import type { Dashboard, DashboardRun } from "@stockbridge/shared";
import type { Command } from "commander";
import { type CommandContext, runCommand } from "../context.ts";
import type { CliIo } from "../io.ts";
import { formatCount, formatDateTime, plural } from "../output/format.ts";
import { printJson } from "../output/json.ts";

/** `status`: the dashboard's "is my store in sync?" in a few lines. */
export function registerStatusCommand(program: Command, io: CliIo): void {
  program
    .command("status")
    .alias("dashboard")
    .description("the dashboard: last and next run, recent failures, drift, unread alerts and counts")
    .action((_options: object, command: Command) => runCommand(io, command, status));
}

async function status(context: CommandContext): Promise<void> {
  context.requireSignedIn();
  // The chart's days (in --json) are this machine's calendar days, as the web app uses the browser's.
  const timezone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const data = await context.api.call("dashboard", { query: { timezone } });
  if (context.json) return printJson(context.io.stdout, data);
  printDashboard(context, data);
}

function printDashboard(context: CommandContext, data: Dashboard): void {
  const { failures, catalog, mappings, limits } = data;
  context.out(`Last run:  ${data.lastRun ? lastRunText(data.lastRun) : "none yet"}`);
  context.out(
    `Next run:  ${data.nextRun ? `${data.nextRun.scheduleName}, ${formatDateTime(data.nextRun.at)}` : "none scheduled"}`,
  );
  context.out(
    `Failures:  last 24 h ${failureText(failures.last24Hours)}; last 7 days ${failureText(failures.last7Days)}`,
  );
  context.out(`Drift:     ${driftText(data.drift)}`);
  context.out(
    `Alerts:    ${data.unreadAlerts === 0 ? "none unread" : `${formatCount(data.unreadAlerts)} unread`}`,
  );
  context.out(
    `Catalog:   Shopify ${plural(catalog.shopifyProducts, "product")} (${plural(catalog.shopifyVariants, "variant")}), Acumatica ${plural(catalog.acumaticaItems, "item")}`,
  );
  const cap = limits.maxMappings === null ? "" : ` of ${formatCount(limits.maxMappings)} the plan allows`;
  context.out(
    `Mappings:  ${formatCount(mappings.mapped)} mapped${cap}; unmapped: ${formatCount(mappings.unmappedShopify)} Shopify, ${formatCount(mappings.unmappedAcumatica)} Acumatica`,
  );
}

function lastRunText(run: DashboardRun): string {
  const name = run.schedule?.name ?? (run.trigger === "manual" ? "Manual sync" : "Unknown Schedule");
  const counts = `${run.successCount} succeeded, ${run.failureCount} failed, ${run.skippedCount} skipped`;
  return `${name}, ${run.status}, ${formatDateTime(run.startDate, { seconds: true })} (${counts}) — stockbridge history show ${run._id}`;
}

function failureText(window: { runs: number; items: number }): string {
  if (window.runs === 0) return "none";
  return `${plural(window.runs, "run")} (${plural(window.items, "item")} failed)`;
}

function driftText(drift: Dashboard["drift"]): string {
  if (!drift.checkedAt) return "not checked yet";
  return `${formatCount(drift.drifted)} of ${plural(drift.mappings, "mapping")} differ (checked ${formatDateTime(drift.checkedAt)})`;
}
