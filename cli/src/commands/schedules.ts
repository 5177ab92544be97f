import { describeSchedule, MESSAGES, type Schedule } from "@stockbridge/shared";
import type { Command } from "commander";
import { type CommandContext, runCommand } from "../context.ts";
import type { CliIo } from "../io.ts";
import { addAllOption, addPageOptions, everyPage, type ListPageOptions, queryText } from "../options.ts";
import { formatDateTime, plural } from "../output/format.ts";
import { printJson } from "../output/json.ts";
import { type Column, printTable } from "../output/table.ts";
import { registerScheduleEditCommands } from "./schedule-edits.ts";

interface ListOptions extends ListPageOptions {
  search?: string;
}

/** `schedules list`, `schedules enable|disable <id>` (the status endpoint), and create/edit/delete. */
export function registerScheduleCommands(program: Command, io: CliIo): void {
  const schedules = program.command("schedules").description("recurring sync schedules");

  addPageOptions(
    addAllOption(schedules.command("list"))
      .description("list schedules with their next run")
      .option("--search <text>", "name contains"),
  ).action((options: ListOptions, command: Command) =>
    runCommand(io, command, (context) => list(context, options)),
  );

  for (const [name, status] of [
    ["enable", "active"],
    ["disable", "inactive"],
  ] as const) {
    schedules
      .command(name)
      .description(`${name} a schedule (status ${status})`)
      .argument("<id>", "schedule id (from `schedules list`)")
      .action((id: string, _options: object, command: Command) =>
        runCommand(io, command, (context) => setStatus(context, id, status)),
      );
  }
  registerScheduleEditCommands(schedules, io);
}

async function list(context: CommandContext, options: ListOptions): Promise<void> {
  context.requireSignedIn();
  const read = (page: { page?: string; limit?: string }) =>
    context.api.call("listSchedules", { query: { search: options.search, ...page } });
  if (options.all) {
    const { rows, total } = await everyPage(options, async (page) => {
      const data = await read(page);
      return { rows: data.schedules, total: data.total, totalPages: data.totalPages };
    });
    if (context.json) return printJson(context.io.stdout, { schedules: rows, total });
    return printSchedules(context, { schedules: rows, total, page: 1, totalPages: 1 });
  }
  const data = await read({ page: queryText(options.page), limit: queryText(options.limit) });
  if (context.json) return printJson(context.io.stdout, data);
  await printSchedules(context, data);
}

async function printSchedules(
  context: CommandContext,
  data: { schedules: Schedule[]; total: number; page: number; totalPages: number },
): Promise<void> {
  if (data.schedules.length === 0) {
    context.out(
      data.total === 0
        ? "No schedules (create one with `stockbridge schedules create`)."
        : "No schedules on this page.",
    );
    return;
  }
  await printTable(context, SCHEDULE_COLUMNS, data.schedules);
  context.out();
  context.out(`Page ${data.page} of ${data.totalPages} (${plural(data.total, "schedule")})`);
}

async function setStatus(context: CommandContext, id: string, status: "active" | "inactive"): Promise<void> {
  context.requireSignedIn();
  const schedule = await context.api.call("setScheduleStatus", { params: { id }, body: { status } });
  if (context.json) return printJson(context.io.stdout, schedule);
  context.out(status === "active" ? MESSAGES.schedules.activated : MESSAGES.schedules.deactivated);
  context.out(`${schedule.name}: ${describeSchedule(schedule.schedule)}; next run ${nextRun(schedule)}`);
}

function nextRun(schedule: Schedule): string {
  return schedule.nextRun ? formatDateTime(schedule.nextRun) : "Not scheduled";
}

function syncOptionsText(schedule: Schedule): string {
  const chosen = [
    schedule.syncOptions.price ? "Price" : null,
    schedule.syncOptions.quantity ? "Quantity" : null,
  ];
  return chosen.filter(Boolean).join(", ") || "None selected";
}

/** As the web's Mapping Schedules table, with the id first (what enable/disable take). */
const SCHEDULE_COLUMNS: ReadonlyArray<Column<Schedule>> = [
  { header: "ID", value: (row) => row._id },
  { header: "Name", value: (row) => row.name },
  { header: "Schedule", value: (row) => `${describeSchedule(row.schedule)} (${row.timezone})` },
  { header: "Mappings", value: (row) => (row.isFullSync ? "all" : row.mappingIds.length) },
  { header: "Last Run", value: (row) => (row.lastRun ? formatDateTime(row.lastRun) : "Never") },
  { header: "Next Run", value: nextRun },
  { header: "Status", value: (row) => row.status },
  { header: "Sync Options", value: syncOptionsText },
];
