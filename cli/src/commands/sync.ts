import {
  ApiError,
  type FieldChange,
  formatMoney,
  MAX_PAGE_SIZE,
  type MappingSyncResult,
  MESSAGES,
  type SyncOptions,
  type SyncRun,
} from "@stockbridge/shared";
import type { Command } from "commander";
import { type CommandContext, runCommand } from "../context.ts";
import { CliError, usageError } from "../errors.ts";
import type { CliIo } from "../io.ts";
import { plural } from "../output/format.ts";
import { printJson } from "../output/json.ts";
import type { ProgressHandle } from "../output/progress.tsx";
import type { ProgressState } from "../output/progress-state.ts";

interface SyncCommandOptions {
  all?: boolean;
  mapping?: string[];
  price?: boolean;
  quantity?: boolean;
  dryRun?: boolean;
}

/** `sync`: ERP values to Shopify for some or all mappings; exit 1 when any item failed. */
export function registerSyncCommand(program: Command, io: CliIo): void {
  program
    .command("sync")
    .description("sync price and/or quantity from Acumatica to Shopify and wait for the result")
    .option("--all", "every mapping")
    .option("--mapping <id...>", "these mappings (ids from `stockbridge mappings list`)")
    .option("--price", "sync prices (default: price and quantity)")
    .option("--quantity", "sync quantities (default: price and quantity)")
    .option("--dry-run", "show the plan, write nothing")
    .action((options: SyncCommandOptions, command: Command) =>
      runCommand(io, command, (context) => sync(context, options)),
    );
}

type Counts = Record<MappingSyncResult["outcome"], number>;

/** What `sync --json` prints: the counts, then each answer of `POST /mapping/:id/sync` as it came. */
export interface SyncReport {
  dryRun: boolean;
  counts: Counts;
  runs: SyncRun[];
}

async function sync(context: CommandContext, options: SyncCommandOptions): Promise<void> {
  if (options.all && options.mapping) throw usageError("Use either --all or --mapping <id...>, not both.");
  if (!options.all && !options.mapping) throw usageError("Choose what to sync: --all or --mapping <id...>.");
  // Neither flag means both, so `stockbridge sync --all` does the whole job.
  const both = !options.price && !options.quantity;
  const syncOptions: SyncOptions = {
    price: both || options.price === true,
    quantity: both || options.quantity === true,
  };
  const dryRun = options.dryRun === true;
  context.requireSignedIn();

  const ids = options.mapping ?? (await allMappingIds(context));
  if (ids.length === 0) {
    if (context.json) return printJson(context.io.stdout, { dryRun, counts: countResults([]), runs: [] });
    context.out("No mappings to sync (create them with `stockbridge mappings auto`).");
    return;
  }
  const report = await syncEach(context, [...new Set(ids)], { syncOptions, dryRun });
  if (context.json) printJson(context.io.stdout, report);
  else printReport(context, report);
  if (report.counts.failed > 0) {
    throw new CliError(failureMessage(report), { shown: context.interactive });
  }
}

/** Every mapping id, page by page (the largest page the API allows). */
async function allMappingIds(context: CommandContext): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page += 1) {
    const data = await context.api.call("mappingHistory", {
      query: { page: String(page), limit: String(MAX_PAGE_SIZE) },
    });
    ids.push(...data.mappings.map((mapping) => mapping._id));
    if (page >= data.totalPages || data.mappings.length === 0) return ids;
  }
}

/**
 * One `POST /mapping/:id/sync` per mapping, in turn: the contract has no multi-mapping sync
 * endpoint, so each mapping is its own run (and its own execution-history entry). A mapping the
 * server cannot find or whose outside system fails is a failed item; any other refusal stops the run.
 */
async function syncEach(
  context: CommandContext,
  ids: readonly string[],
  input: { syncOptions: SyncOptions; dryRun: boolean },
): Promise<SyncReport> {
  const state: ProgressState = {
    phase: input.dryRun ? "Planning" : "Syncing",
    done: 0,
    total: ids.length,
    status: "running",
    message: null,
  };
  const label = input.dryRun ? "Dry run" : "Sync";
  const view: ProgressHandle | null = context.interactive
    ? (await import("../output/progress.tsx")).renderProgress(context.io, label, state)
    : null;
  const runs: SyncRun[] = [];
  try {
    for (const id of ids) {
      runs.push(await syncOne(context, id, input));
      state.done += 1;
      state.phase = `${input.dryRun ? "Planned" : "Synced"} ${runs.at(-1)?.results[0]?.shopifySku ?? id}`;
      view?.update({ ...state });
    }
  } catch (error) {
    await view?.close();
    throw error;
  }
  const report: SyncReport = { dryRun: input.dryRun, counts: countResults(runs), runs };
  const failed = report.counts.failed > 0;
  await view?.finish({
    ...state,
    status: failed ? "failed" : "succeeded",
    message: failed
      ? failureMessage(report)
      : input.dryRun
        ? "Plan ready; nothing was written"
        : MESSAGES.mapping.synchronized,
  });
  return report;
}

async function syncOne(
  context: CommandContext,
  id: string,
  input: { syncOptions: SyncOptions; dryRun: boolean },
): Promise<SyncRun> {
  try {
    return await context.api.call("syncMapping", { params: { id }, body: input });
  } catch (error) {
    if (!(error instanceof ApiError) || (error.status !== 404 && error.status !== 502)) throw error;
    // Shaped as the API's own answer so the report and --json treat every item alike.
    const failed: MappingSyncResult = {
      mappingId: id,
      shopifySku: "",
      acumaticaSku: "",
      outcome: "failed",
      changes: [],
      reason: error.message,
    };
    return { dryRun: input.dryRun, historyId: null, results: [failed] };
  }
}

function countResults(runs: readonly SyncRun[]): Counts {
  const counts: Counts = { succeeded: 0, unchanged: 0, skipped: 0, failed: 0, planned: 0 };
  for (const run of runs) for (const result of run.results) counts[result.outcome] += 1;
  return counts;
}

function failureMessage(report: SyncReport): string {
  const total = report.runs.reduce((sum, run) => sum + run.results.length, 0);
  return `${report.counts.failed} of ${plural(total, "mapping")} failed; see Execution History`;
}

function printReport(context: CommandContext, report: SyncReport): void {
  const results = report.runs.flatMap((run) => run.results);
  for (const result of results) {
    const line = resultLine(result, report.dryRun);
    if (line) context.out(line);
  }
  const { counts } = report;
  if (report.dryRun) {
    context.out(
      `Dry run of ${plural(results.length, "mapping")}: ${counts.planned} would change, ${counts.unchanged} unchanged, ${counts.skipped} skipped, ${counts.failed} failed. Nothing was written.`,
    );
    return;
  }
  context.out(
    `Synced ${plural(results.length, "mapping")}: ${counts.succeeded} succeeded, ${counts.unchanged} unchanged, ${counts.skipped} skipped, ${counts.failed} failed.`,
  );
  const histories = report.runs.map((run) => run.historyId).filter((id): id is string => id !== null);
  if (histories.length === 1) context.out(`Execution history: stockbridge history show ${histories[0]}`);
  else if (histories.length > 1) context.out(`Recorded as ${histories.length} runs in execution history.`);
  if (counts.failed === 0 && !context.interactive) context.out(MESSAGES.mapping.synchronized);
}

/** A line per item worth reading: failures with the outside system's error; in a dry run, the plan. */
function resultLine(result: MappingSyncResult, dryRun: boolean): string | null {
  const name = result.shopifySku ? `${result.shopifySku} → ${result.acumaticaSku}` : result.mappingId;
  if (result.outcome === "failed") return `✖ ${name}: ${result.reason ?? "failed without a reason"}`;
  if (!dryRun) return null;
  if (result.outcome === "planned") return `~ ${name}: ${result.changes.map(changeText).join(", ")}`;
  if (result.outcome === "skipped") return `- ${name}: skipped${result.reason ? ` (${result.reason})` : ""}`;
  return null;
}

function changeText(change: FieldChange): string {
  const value = (amount: number | null) =>
    change.field === "quantity" ? String(amount ?? "-") : formatMoney(amount);
  const field = change.field === "compareAtPrice" ? "compare-at price" : change.field;
  return `${field} ${value(change.from)} → ${value(change.to)}`;
}
