import {
  type ExecutionHistory,
  type FieldChange,
  formatMoney,
  heldForReview,
  type Job,
  type MappingSyncResult,
  MESSAGES,
  readSyncJobResult,
  type SyncJobResult,
  type SyncOptions,
} from "@stockbridge/shared";
import type { Command } from "commander";
import { type CommandContext, runCommand } from "../context.ts";
import { CliError, usageError } from "../errors.ts";
import type { CliIo } from "../io.ts";
import { endJob, followJob, type JobTexts, startJob } from "../jobs.ts";
import { formatCount, plural } from "../output/format.ts";
import { printJson } from "../output/json.ts";

interface SyncCommandOptions {
  all?: boolean;
  mapping?: string[];
  price?: boolean;
  quantity?: boolean;
  dryRun?: boolean;
  reconcile?: boolean;
}

/** `sync`: ERP values to Shopify for some or all mappings, as one job; exit 1 when any item failed. */
export function registerSyncCommand(program: Command, io: CliIo): void {
  program
    .command("sync")
    .description("sync price and/or quantity from Acumatica to Shopify (a job) and wait for the result")
    .option("--all", "every mapping")
    .option("--mapping <id...>", "these mappings (ids from `stockbridge mappings list`)")
    .option("--price", "sync prices (default: price and quantity)")
    .option("--quantity", "sync quantities (default: price and quantity)")
    .option("--dry-run", "show the plan, write nothing")
    .option(
      "--reconcile",
      "with --all: read every mapping, not only those changed since the last sync (done daily anyway)",
    )
    .action((options: SyncCommandOptions, command: Command) =>
      runCommand(io, command, (context) => sync(context, options)),
    );
}

type FailedItem = ExecutionHistory["failedMappings"][number];

/**
 * One `POST /mapping/sync` (one job, one execution-history run), followed to its end. A sync already
 * running is followed instead of starting another. `--json` prints the finished job.
 */
async function sync(context: CommandContext, options: SyncCommandOptions): Promise<void> {
  if (options.all && options.mapping) throw usageError("Use either --all or --mapping <id...>, not both.");
  if (!options.all && !options.mapping) throw usageError("Choose what to sync: --all or --mapping <id...>.");
  if (options.reconcile && !options.all)
    throw usageError("--reconcile goes with --all: a sync of chosen mappings always reads them.");
  // Neither flag means both, so `stockbridge sync --all` does the whole job.
  const both = !options.price && !options.quantity;
  const syncOptions: SyncOptions = {
    price: both || options.price === true,
    quantity: both || options.quantity === true,
  };
  const dryRun = options.dryRun === true;
  context.requireSignedIn();

  const mappingIds = options.mapping ? [...new Set(options.mapping)] : undefined;
  const { job } = await startJob(context, () =>
    context.api.call("syncMappings", {
      body: { mappingIds, syncOptions, dryRun, reconcile: options.reconcile === true },
    }),
  );
  await reportSync(context, await followJob(context, job, syncTexts(dryRun)), { syncOptions });
}

/**
 * How a finished sync job ends the command, for `sync` and `jobs wait` alike: the report (or the
 * job with `--json`), then exit 1 with each failed item when any failed.
 */
export async function reportSync(
  context: CommandContext,
  finished: Job,
  asked: { syncOptions?: SyncOptions } = {},
): Promise<void> {
  const result = readSyncJobResult(finished.result);
  if (finished.status === "failed" || !result) return endJob(context, finished, syncTexts(false));

  if (heldRun(result)) {
    // Nothing was written: an unattended script must not read this as a sync done.
    if (context.json) printJson(context.io.stdout, finished);
    else printHeld(context, result);
    throw new CliError(finished.message ?? heldForReview(result.holdReasons ?? []), {
      shown: context.interactive,
    });
  }
  const failed = result.failure > 0 ? await failedItems(context, result) : [];
  if (context.json) printJson(context.io.stdout, finished);
  else printReport(context, { job: finished, result, failed });
  if (result.skipped > 0) await explainSkips(context, result, asked);
  if (result.failure > 0) {
    throw new CliError(finished.message ?? failureMessage(result), {
      shown: context.interactive,
      // With --json, stdout holds the job alone: the failed items go to stderr.
      details: context.json ? failed.map(failedLine) : [],
    });
  }
}

/** Reasons listed one line each; the rest are counted and left to `history show`. */
const SKIP_REASONS_SHOWN = 5;

/**
 * Why items were skipped: each reason the run's history entry records, with how many mappings it
 * skipped, most first; and for a price sync with both price fields off in Settings (new accounts
 * start so), the command that turns them on. With --json these lines go to stderr.
 */
async function explainSkips(
  context: CommandContext,
  result: SyncJobResult,
  asked: { syncOptions?: SyncOptions },
): Promise<void> {
  const lines: string[] = [];
  if (result.historyId) {
    const entry = await context.api.call("executionHistoryEntry", { params: { id: result.historyId } });
    const counts = new Map<string, number>();
    for (const skip of entry.skippedMappings) counts.set(skip.reason, (counts.get(skip.reason) ?? 0) + 1);
    const reasons = [...counts].sort((a, b) => b[1] - a[1]);
    for (const [reason, count] of reasons.slice(0, SKIP_REASONS_SHOWN))
      lines.push(`Skipped ${count}: ${reason}`);
    if (reasons.length > SKIP_REASONS_SHOWN)
      lines.push(
        `Skipped for ${reasons.length - SKIP_REASONS_SHOWN} more reasons: stockbridge history show ${result.historyId}`,
      );
  }
  if (asked.syncOptions?.price) {
    const { priceMapping } = await context.api.call("settings");
    if (!priceMapping.syncPrice && !priceMapping.syncMsrp)
      lines.push(
        "Skipped: price sync is off in Settings: stockbridge settings set --sync-price (and/or --sync-msrp)",
      );
  }
  for (const line of lines) {
    if (context.json) context.err(line);
    else context.out(line);
  }
}

export function syncTexts(dryRun: boolean): JobTexts {
  return {
    label: dryRun ? "Dry run" : "Sync",
    succeeded: dryRun ? "Plan ready; nothing was written" : MESSAGES.mapping.synchronized,
    failed: MESSAGES.mapping.syncFailed,
    itemsFailed: (job) => {
      const result = readSyncJobResult(job.result);
      return result !== null && (result.failure > 0 || heldRun(result));
    },
  };
}

/** A real run the safety limits held for review (a dry run only says it would be). */
function heldRun(result: SyncJobResult): boolean {
  return !result.dryRun && (result.holdReasons?.length ?? 0) > 0;
}

function printHeld(context: CommandContext, result: SyncJobResult): void {
  for (const reason of result.holdReasons ?? []) context.out(`! ${reason}`);
  context.out(
    `Held for review: ${plural(result.planned, "mapping")} would change; nothing was written. Approve or discard it in Execution History.`,
  );
  if (result.historyId) context.out(`Execution history: stockbridge history show ${result.historyId}`);
}

/** Each failed item with the outside system's own error, from the run's execution-history entry. */
async function failedItems(context: CommandContext, result: SyncJobResult): Promise<FailedItem[]> {
  if (!result.historyId) return [];
  const entry = await context.api.call("executionHistoryEntry", { params: { id: result.historyId } });
  return entry.failedMappings;
}

function failureMessage(result: SyncJobResult): string {
  return `${result.failure} of ${plural(result.total, "mapping")} failed; see Execution History`;
}

function printReport(
  context: CommandContext,
  { job, result, failed }: { job: Job; result: SyncJobResult; failed: readonly FailedItem[] },
): void {
  for (const item of failed) context.out(failedLine(item));
  if (result.dryRun) {
    for (const change of result.changes) context.out(plannedLine(change));
    for (const reason of result.holdReasons ?? [])
      context.out(`! A real run would be held for review: ${reason}`);
    if (result.truncated) {
      const more = result.planned - result.changes.length;
      context.out(
        `… and ${plural(more, "more change")} (a dry run lists the first ${formatCount(result.changes.length)})`,
      );
    }
    context.out(
      `Dry run of ${plural(result.total, "mapping")}: ${result.planned} would change, ${result.unchanged} unchanged, ${result.skipped} skipped, ${result.failure} failed. Nothing was written.`,
    );
    return;
  }
  const changes = result.changesSince;
  if (result.total === 0 && !changes) {
    context.out("No mappings to sync (create them with `stockbridge mappings auto`).");
    return;
  }
  if (changes) {
    // Read only what changed: say so, so a short run is not mistaken for one that skipped work.
    const since = new Date(changes.since).toLocaleString();
    context.out(
      `Read only what changed since ${since}: ${formatCount(result.total)} of ${plural(changes.mappings, "mapping")} (--reconcile reads every one).`,
    );
  }
  if (result.total > 0)
    context.out(
      `Synced ${plural(result.total, "mapping")}: ${result.success - result.unchanged} succeeded, ${result.unchanged} unchanged, ${result.skipped} skipped, ${result.failure} failed.`,
    );
  if (result.historyId) context.out(`Execution history: stockbridge history show ${result.historyId}`);
  if (result.failure === 0 && !context.interactive) context.out(job.message ?? MESSAGES.mapping.synchronized);
}

function failedLine(item: FailedItem): string {
  const name = item.shopifySku ? `${item.shopifySku} → ${item.acumaticaSku}` : (item.mappingId ?? "?");
  return `✖ ${name}: ${item.error}`;
}

/** A dry run's planned change: `~ SKU → SKU: price $10.00 → $12.00, quantity 3 → 5`. */
function plannedLine(result: MappingSyncResult): string {
  const name = result.shopifySku ? `${result.shopifySku} → ${result.acumaticaSku}` : result.mappingId;
  const note = result.reason ? ` (${result.reason})` : "";
  return `~ ${name}: ${result.changes.map(changeText).join(", ")}${note}`;
}

function changeText(change: FieldChange): string {
  const value = (amount: number | null) =>
    change.field === "quantity" ? String(amount ?? "-") : formatMoney(amount);
  const field = change.field === "compareAtPrice" ? "compare-at price" : change.field;
  // A saved location mapping writes several locations: each quantity says where.
  const where = change.location ? ` at ${change.location}` : "";
  return `${field}${where} ${value(change.from)} → ${value(change.to)}`;
}
