import {
  ApiError,
  EXECUTION_HISTORY_PAGE_SIZE,
  type ExecutionHistory,
  type ExecutionHistorySummary,
} from "@stockbridge/shared";
import type { Command } from "commander";
import { type CommandContext, runCommand } from "../context.ts";
import { CliError } from "../errors.ts";
import type { CliIo } from "../io.ts";
import { followJob } from "../jobs.ts";
import { addAllOption, addPageOptions, everyPage, type ListPageOptions } from "../options.ts";
import { formatDateTime, plural } from "../output/format.ts";
import { printJson } from "../output/json.ts";
import { type Column, printTable } from "../output/table.ts";
import { reportSync, syncTexts } from "./sync.ts";

/** `history list` (fixed page size 10, as the spec's screen), `history show <id>` and `history retry <id>`. */
export function registerHistoryCommands(program: Command, io: CliIo): void {
  const history = program.command("history").description("execution history of sync runs");

  addPageOptions(
    addAllOption(
      history
        .command("list")
        .description(`list sync runs, newest first (${EXECUTION_HISTORY_PAGE_SIZE} per page)`),
    ),
    { limit: false },
  ).action((options: ListPageOptions, command: Command) =>
    runCommand(io, command, (context) => list(context, options)),
  );

  history
    .command("show")
    .description("one run with its counts and each failed mapping's error")
    .argument("<id>", "run id (from `history list` or `sync`)")
    .action((id: string, _options: object, command: Command) =>
      runCommand(io, command, (context) => show(context, id)),
    );

  history
    .command("retry")
    .description(
      "sync again exactly the mappings a run failed, with its sync options (a job); exit 1 if any fails again",
    )
    .argument("<id>", "run id (from `history list` or `sync`)")
    .action((id: string, _options: object, command: Command) =>
      runCommand(io, command, (context) => retry(context, id)),
    );
}

async function list(context: CommandContext, options: ListPageOptions): Promise<void> {
  context.requireSignedIn();
  if (options.all) {
    // The page size is fixed at 10 (the spec's screen); `limit` is not sent.
    const { rows, total } = await everyPage(
      options,
      async ({ page }) => {
        const data = await context.api.call("executionHistory", { query: { page } });
        return { rows: data.histories, total: data.total, totalPages: data.totalPages };
      },
      EXECUTION_HISTORY_PAGE_SIZE,
    );
    if (context.json) return printJson(context.io.stdout, { histories: rows, total });
    return printRuns(context, { histories: rows, total, page: 1, totalPages: 1 });
  }
  const page = options.page === undefined ? undefined : String(options.page);
  const data = await context.api.call("executionHistory", { query: { page } });
  if (context.json) return printJson(context.io.stdout, data);
  await printRuns(context, data);
}

async function printRuns(
  context: CommandContext,
  data: { histories: ExecutionHistorySummary[]; total: number; page: number; totalPages: number },
): Promise<void> {
  if (data.histories.length === 0) {
    context.out(data.total === 0 ? "No sync runs yet." : "No runs on this page.");
    return;
  }
  await printTable(context, RUN_COLUMNS, data.histories);
  context.out();
  context.out(`Page ${data.page} of ${data.totalPages} (${plural(data.total, "run")})`);
}

async function show(context: CommandContext, id: string): Promise<void> {
  context.requireSignedIn();
  const entry = await context.api.call("executionHistoryEntry", { params: { id } });
  if (context.json) return printJson(context.io.stdout, entry);
  context.out(`Run ${entry._id}: ${runName(entry)}`);
  context.out(`  Status:  ${entry.status}`);
  context.out(`  Started: ${formatDateTime(entry.startDate, { seconds: true })}`);
  context.out(`  Ended:   ${formatDateTime(entry.endDate, { seconds: true })}`);
  context.out(`  Success: ${entry.successCount}`);
  context.out(`  Failure: ${entry.failureCount}`);
  context.out(`  Skipped: ${entry.skippedCount}`);
  if (entry.retryOf) context.out(`  Retry of: ${entry.retryOf}`);
  if (entry.error) context.out(`  Error:   ${entry.error}`);
  if (entry.failedMappings.length > 0) {
    context.out();
    context.out("Failed Mappings");
    await printTable(
      context,
      [
        { header: "Shopify SKU", value: (row: ExecutionHistory["failedMappings"][number]) => row.shopifySku },
        { header: "Acumatica SKU", value: (row) => row.acumaticaSku },
        { header: "Error", value: (row) => row.error },
      ],
      entry.failedMappings,
    );
    context.out(`Retry them: stockbridge history retry ${entry._id}`);
  }
  if (entry.skippedMappings.length > 0) {
    context.out();
    context.out("Skipped");
    await printTable(
      context,
      [
        {
          header: "Shopify SKU",
          value: (row: ExecutionHistory["skippedMappings"][number]) => row.shopifySku,
        },
        { header: "Acumatica SKU", value: (row) => row.acumaticaSku },
        { header: "Reason", value: (row) => row.reason },
      ],
      entry.skippedMappings,
    );
  }
}

/**
 * `POST /execution-history/:id/retry` (one sync job of the run's failed mappings), followed to its
 * end as `sync` follows its job. A sync already running is not followed: it is not this retry.
 */
async function retry(context: CommandContext, id: string): Promise<void> {
  context.requireSignedIn();
  const started = await context.api
    .call("retryExecutionHistory", { params: { id } })
    .catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 409 && error.jobId) {
        throw new CliError(`${error.message} Follow it with: stockbridge jobs wait ${error.jobId}`, {
          code: error.code,
        });
      }
      throw error;
    });
  const finished = await followJob(context, started.job, { ...syncTexts(false), label: "Retry failed" });
  await reportSync(context, finished);
}

/** The schedule's name; runs started by hand have none (as the web's history screen). */
function runName(entry: Pick<ExecutionHistorySummary, "schedule" | "trigger">): string {
  if (entry.schedule?.name) return entry.schedule.name;
  return entry.trigger === "manual" ? "Manual sync" : "Unknown Schedule";
}

const RUN_COLUMNS: ReadonlyArray<Column<ExecutionHistorySummary>> = [
  { header: "ID", value: (row) => row._id },
  { header: "Schedule", value: runName },
  { header: "Start", value: (row) => formatDateTime(row.startDate, { seconds: true }) },
  { header: "End", value: (row) => formatDateTime(row.endDate, { seconds: true }) },
  { header: "Success", value: (row) => row.successCount, align: "right" },
  { header: "Failure", value: (row) => row.failureCount, align: "right" },
  { header: "Skipped", value: (row) => row.skippedCount, align: "right" },
  { header: "Status", value: (row) => row.status },
];
