import {
  describeSchedule,
  HOUR_INTERVALS,
  MESSAGES,
  MINUTE_INTERVALS,
  SCHEDULE_TYPES,
  type Schedule,
  type ScheduleInput,
  type ScheduleSpec,
} from "@stockbridge/shared";
import { type Command, InvalidArgumentError, Option } from "commander";
import { type CommandContext, runCommand } from "../context.ts";
import { CliError, usageError } from "../errors.ts";
import type { CliIo } from "../io.ts";
import { everyPage, wholeNumber } from "../options.ts";
import { formatDateTime } from "../output/format.ts";
import { printJson } from "../output/json.ts";

interface ScheduleOptions {
  name?: string;
  type?: ScheduleSpec["type"];
  time?: string;
  day?: number;
  interval?: NonNullable<ScheduleSpec["interval"]>;
  minuteInterval?: NonNullable<ScheduleSpec["minuteInterval"]>;
  timezone?: string;
  all?: boolean;
  mapping?: string[];
  price?: boolean;
  quantity?: boolean;
  inactive?: boolean;
}

/** `schedules create|edit|delete` (enable/disable live beside `list`). The server checks every rule. */
export function registerScheduleEditCommands(schedules: Command, io: CliIo): void {
  const withScheduleFlags = (command: Command) =>
    command
      .option("--name <name>", "schedule name")
      .addOption(new Option("--type <type>", "how often").choices(SCHEDULE_TYPES))
      .option("--time <HH:MM>", "time of day, 24-hour (daily, weekly, monthly)")
      .option("--day <n>", "weekday 1-7 (1 = Monday) or day of month 1-31", wholeNumber("--day", 1, 31))
      .option(
        "--interval <hours>",
        `hours between runs (hourly: ${HOUR_INTERVALS.join(", ")})`,
        oneOf("--interval", HOUR_INTERVALS),
      )
      .option(
        "--minute-interval <minutes>",
        `minutes between runs (minutely: ${MINUTE_INTERVALS.join(", ")})`,
        oneOf("--minute-interval", MINUTE_INTERVALS),
      )
      .option("--timezone <zone>", "IANA time zone of the times (default: this machine's)")
      .option("--all", "sync every mapping (a full sync)")
      .option("--mapping <id...>", "sync these mappings")
      .option("--price", "sync prices (default: price and quantity)")
      .option("--quantity", "sync quantities (default: price and quantity)");

  withScheduleFlags(schedules.command("create").description("create a recurring sync"))
    .option("--inactive", "create it switched off")
    .action((options: ScheduleOptions, command: Command) =>
      runCommand(io, command, (context) => create(context, options)),
    );

  withScheduleFlags(
    schedules.command("edit").description("change a schedule (flags left out keep their value)"),
  )
    .argument("<id>", "schedule id (from `schedules list`)")
    .action((id: string, options: ScheduleOptions, command: Command) =>
      runCommand(io, command, (context) => edit(context, id, options)),
    );

  schedules
    .command("delete")
    .description("delete a schedule (its past runs stay in history)")
    .argument("<id>", "schedule id (from `schedules list`)")
    .action((id: string, _options: object, command: Command) =>
      runCommand(io, command, (context) => remove(context, id)),
    );
}

async function create(context: CommandContext, options: ScheduleOptions): Promise<void> {
  if (!options.name) throw usageError("--name is required.");
  if (!options.type) throw usageError(`--type is required (one of ${SCHEDULE_TYPES.join(", ")}).`);
  const scope = mappingScope(options);
  if (!scope) throw usageError("Choose what to sync: --all or --mapping <id...>.");
  context.requireSignedIn();
  const body: ScheduleInput = {
    name: options.name,
    schedule: spec(options, { type: options.type }),
    timezone: options.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
    ...scope,
    syncOptions: syncOptions(options) ?? { price: true, quantity: true },
    status: options.inactive ? "inactive" : "active",
  };
  const schedule = await context.api.call("createSchedule", { body });
  report(context, MESSAGES.schedules.created, schedule);
}

async function edit(context: CommandContext, id: string, options: ScheduleOptions): Promise<void> {
  context.requireSignedIn();
  const current = await scheduleById(context, id);
  // A new type starts its timing afresh; otherwise given fields change the current timing.
  const base = options.type ? { type: options.type } : current.schedule;
  const body: ScheduleInput = {
    name: options.name ?? current.name,
    schedule: spec(options, base),
    timezone: options.timezone ?? current.timezone,
    ...(mappingScope(options) ?? { isFullSync: current.isFullSync, mappingIds: current.mappingIds }),
    syncOptions: syncOptions(options) ?? current.syncOptions,
    status: current.status,
  };
  const schedule = await context.api.call("updateSchedule", { params: { id }, body });
  report(context, MESSAGES.schedules.updated, schedule);
}

async function remove(context: CommandContext, id: string): Promise<void> {
  context.requireSignedIn();
  await context.api.call("deleteSchedule", { params: { id } });
  if (context.json) return printJson(context.io.stdout, { deleted: id });
  context.out(MESSAGES.schedules.deleted);
}

function spec(
  options: ScheduleOptions,
  base: Partial<ScheduleSpec> & Pick<ScheduleSpec, "type">,
): ScheduleSpec {
  return {
    type: base.type,
    time: options.time ?? base.time ?? null,
    day: options.day ?? base.day ?? null,
    interval: options.interval ?? base.interval ?? null,
    minuteInterval: options.minuteInterval ?? base.minuteInterval ?? null,
  };
}

function mappingScope(options: ScheduleOptions): { isFullSync: boolean; mappingIds: string[] } | null {
  if (options.all && options.mapping) throw usageError("Use either --all or --mapping <id...>, not both.");
  if (options.all) return { isFullSync: true, mappingIds: [] };
  if (options.mapping) return { isFullSync: false, mappingIds: [...new Set(options.mapping)] };
  return null;
}

/** Neither flag means both, as `sync` reads them; null when neither was given (keep, on edit). */
function syncOptions(options: ScheduleOptions): { price: boolean; quantity: boolean } | null {
  if (!options.price && !options.quantity) return null;
  return { price: options.price === true, quantity: options.quantity === true };
}

/** A flag value parser for a fixed set of whole numbers; commander reports the rule with the flag. */
function oneOf<T extends number>(flag: string, choices: readonly T[]): (text: string) => T {
  return (text) => {
    const found = choices.find((choice) => String(choice) === text.trim());
    if (found === undefined) throw new InvalidArgumentError(`${flag} must be one of ${choices.join(", ")}.`);
    return found;
  };
}

/** There is no read-one endpoint: the schedule is found in the list. */
async function scheduleById(context: CommandContext, id: string): Promise<Schedule> {
  const { rows } = await everyPage({}, async (page) => {
    const data = await context.api.call("listSchedules", { query: page });
    return { rows: data.schedules, total: data.total, totalPages: data.totalPages };
  });
  const found = rows.find((schedule) => schedule._id === id);
  if (!found)
    throw new CliError(`No schedule ${id} (see \`stockbridge schedules list\`).`, { code: "NOT_FOUND" });
  return found;
}

function report(context: CommandContext, message: string, schedule: Schedule): void {
  if (context.json) {
    printJson(context.io.stdout, schedule);
    return;
  }
  context.out(message);
  const next = schedule.nextRun ? formatDateTime(schedule.nextRun) : "Not scheduled";
  context.out(
    `${schedule._id}: ${schedule.name}, ${describeSchedule(schedule.schedule)} (${schedule.timezone}); next run ${next}`,
  );
}
