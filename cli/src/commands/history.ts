import {
  EXECUTION_HISTORY_PAGE_SIZE,
  type ExecutionHistory,
  type ExecutionHistorySummary,
  formatMoney,
  type HeldChange,
  type HeldPlan,
  MESSAGES,
} from "@stockbridge/shared";
import type { Command } from "commander";
import { type CommandContext, runCommand } from "../context.ts";
import type { CliIo } from "../io.ts";
import { followJob, startOwnJob } from "../jobs.ts";
import { addAllOption, addPageOptions, everyPage, type ListPageOptions, queryText } from "../options.ts";
import { formatCount, formatDateTime, plural } from "../output/format.ts";
import { printJson } from "../output/json.ts";
import { type Column, printTable } from "../output/table.ts";
import { reportSync, syncTexts } from "./sync.ts";

/**
 * `history list` (fixed page size 10, as the spec's screen), `history show <id>`, `history retry <id>`
 * and, for a run the safety limits held, `history plan|approve|discard <id>`.
 */
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

  addPageOptions(
    addAllOption(
      history
        .command("plan")
        .description("the changes a held run would write (and, once approved, what was done with each)")
        .argument("<id>", "run id of a held run"),
    ),
  ).action((id: string, options: ListPageOptions, command: Command) =>
    runCommand(io, command, (context) => plan(context, id, options)),
  );

  history
    .command("approve")
    .description("write a held run's plan (a job, followed like `sync`); exit 1 if any item fails")
    .argument("<id>", "run id of a held run")
    .action((id: string, _options: object, command: Command) =>
      runCommand(io, command, (context) => approve(context, id)),
    );

  history
    .command("discard")
    .description("drop a held run without writing anything (it stays in history as discarded)")
    .argument("<id>", "run id of a held run")
    .action((id: string, _options: object, command: Command) =>
      runCommand(io, command, (context) => discard(context, id)),
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
  if (entry.changesSince) {
    const read = entry.successCount + entry.failureCount + entry.skippedCount;
    context.out(
      `  Read:    only what changed since ${formatDateTime(entry.changesSince.since, { seconds: true })} (${formatCount(read)} of ${plural(entry.changesSince.mappings, "mapping")})`,
    );
  }
  if (entry.error) context.out(`  Error:   ${entry.error}`);
  if (entry.review) await printReview(context, entry);
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
  const job = await startOwnJob(() => context.api.call("retryExecutionHistory", { params: { id } }));
  const finished = await followJob(context, job, { ...syncTexts(false), label: "Retry failed" });
  await reportSync(context, finished);
}

/** A held run's reasons and the first page of its plan, with what to do next while it waits. */
async function printReview(context: CommandContext, entry: ExecutionHistory): Promise<void> {
  const review = entry.review;
  if (!review) return;
  context.out();
  const decided = review.decision
    ? `, ${review.decision} ${formatDateTime(review.decidedAt, { seconds: true })}`
    : "";
  context.out(`Held for review ${formatDateTime(review.heldAt, { seconds: true })}${decided}`);
  for (const reason of review.reasons) context.out(`  ! ${reason}`);
  const firstPage = await context.api.call("executionPlan", { params: { id: entry._id } });
  context.out();
  await printPlan(context, entry._id, firstPage);
  if (entry.status === "held") {
    context.out(`Approve: stockbridge history approve ${entry._id}`);
    context.out(`Discard: stockbridge history discard ${entry._id}`);
  }
}

async function plan(context: CommandContext, id: string, options: ListPageOptions): Promise<void> {
  context.requireSignedIn();
  if (options.all) {
    const { rows, total } = await everyPage(options, async (query) => {
      const data = await context.api.call("executionPlan", { params: { id }, query });
      return { rows: data.changes, total: data.total, totalPages: data.totalPages };
    });
    if (context.json) return printJson(context.io.stdout, { changes: rows, total });
    return printPlan(context, id, { changes: rows, total, page: 1, totalPages: 1 });
  }
  const query = { page: queryText(options.page), limit: queryText(options.limit) };
  const data = await context.api.call("executionPlan", { params: { id }, query });
  if (context.json) return printJson(context.io.stdout, data);
  await printPlan(context, id, data);
}

async function printPlan(context: CommandContext, id: string, data: HeldPlan): Promise<void> {
  if (data.changes.length === 0) {
    context.out(data.total === 0 ? "The plan has no changes." : "No changes on this page.");
    return;
  }
  await printTable(context, PLAN_COLUMNS, data.changes);
  context.out(`Plan page ${data.page} of ${data.totalPages} (${plural(data.total, "change")})`);
  if (data.totalPages > data.page) {
    context.out(`More: stockbridge history plan ${id} --page ${data.page + 1} (or --all)`);
  }
}

/** `POST /execution-history/:id/approve`: the held plan's job, followed to its end as `sync` follows its job. */
async function approve(context: CommandContext, id: string): Promise<void> {
  context.requireSignedIn();
  const job = await startOwnJob(() => context.api.call("approveExecution", { params: { id } }));
  if (!context.json && !context.interactive) context.out(MESSAGES.history.approved);
  const finished = await followJob(context, job, { ...syncTexts(false), label: "Approve held run" });
  await reportSync(context, finished);
}

async function discard(context: CommandContext, id: string): Promise<void> {
  context.requireSignedIn();
  const entry = await context.api.call("discardExecution", { params: { id } });
  if (context.json) return printJson(context.io.stdout, entry);
  context.out(MESSAGES.history.discarded);
  context.out(`Run ${entry._id}: ${entry.status}`);
}

/** A plan's value: dollars for prices, units for quantities; '-' for none. */
function planValue(change: HeldChange, amount: number | null): string {
  return change.field === "quantity" ? (amount === null ? "-" : String(amount)) : formatMoney(amount);
}

const PLAN_COLUMNS: ReadonlyArray<Column<HeldChange>> = [
  { header: "Shopify SKU", value: (row) => row.shopifySku },
  { header: "Acumatica SKU", value: (row) => row.acumaticaSku },
  { header: "Field", value: (row) => row.field },
  { header: "Location", value: (row) => row.location },
  { header: "From", value: (row) => planValue(row, row.from), align: "right" },
  { header: "To", value: (row) => planValue(row, row.to), align: "right" },
  { header: "Result", value: (row) => (row.note ? `${row.result ?? "-"}: ${row.note}` : row.result) },
];

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
