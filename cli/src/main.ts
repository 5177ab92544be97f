import { Command, CommanderError, Option } from "commander";
import { registerAuthCommands } from "./commands/auth.ts";
import { registerCompletionCommands } from "./commands/completion.ts";
import { registerConnectionCommands } from "./commands/connections.ts";
import { registerDriftCommands } from "./commands/drift.ts";
import { registerHistoryCommands } from "./commands/history.ts";
import { registerJobCommands } from "./commands/jobs.ts";
import { registerMappingEditCommands } from "./commands/mapping-edits.ts";
import { registerMappingCommands } from "./commands/mappings.ts";
import { registerNotificationCommands } from "./commands/notifications.ts";
import { registerProductCommands } from "./commands/products.ts";
import { registerScheduleCommands } from "./commands/schedules.ts";
import { registerSettingsCommands } from "./commands/settings.ts";
import { registerStatusCommand } from "./commands/status.ts";
import { registerSubscriptionCommands } from "./commands/subscription.ts";
import { registerSyncCommand } from "./commands/sync.ts";
import { registerTokenCommands } from "./commands/tokens.ts";
import { applyEnvFlags, jsonRequested } from "./env-flags.ts";
import { CliError, EXIT, type ExitCode, errorJson, toCliError } from "./errors.ts";
import type { CliIo } from "./io.ts";
import { apiUrlOption } from "./options.ts";
import { DEFAULT_API_URL } from "./session.ts";
import { cliVersion } from "./version.ts";

const EXIT_CODES_HELP = `
Every flag can also come from the environment as STOCKBRIDGE_<FLAG> (--dry-run: STOCKBRIDGE_DRY_RUN=1,
--limit 50: STOCKBRIDGE_LIMIT=50); the command line wins. NO_COLOR turns colours off like --no-color.

Exit codes:
  0  ok
  1  the server refused (its message is printed) or a run had failed items
  2  usage error (bad command, flag or value)
  3  not signed in, or the session expired: run \`stockbridge login\`; or STOCKBRIDGE_TOKEN was refused
  130  Ctrl+C while following a job (the job keeps running)`;

/** The whole command tree, writing through `io`; `run` parses with it (tests may too, in-process). */
export function buildProgram(io: CliIo, options: { json?: boolean } = {}): Command {
  // With --json, commander's own error text is held back: `run` prints the error as JSON instead.
  const writeErr = (text: string) => (options.json ? undefined : io.stderr.write(text));
  const program = new Command("stockbridge")
    .description("Stockbridge from a terminal: pull catalogs, map, sync and check runs through the API.")
    .version(cliVersion(), "-V, --version", "print the CLI's version")
    .addOption(
      new Option("--api <url>", `API origin (env STOCKBRIDGE_API_URL; default ${DEFAULT_API_URL})`).argParser(
        apiUrlOption,
      ),
    )
    .option("--json", "print the API's data as JSON on stdout (nothing else there); errors as JSON on stderr")
    .option("--verbose", "print each request's method, path, status and request id on stderr")
    .option("--no-color", "no colours in terminal output (also NO_COLOR)")
    // Settings below are inherited by every subcommand added after them.
    .configureHelp({ showGlobalOptions: true })
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr })
    .exitOverride()
    .showHelpAfterError("(add --help for usage)")
    .addHelpText("after", EXIT_CODES_HELP)
    .hook("preAction", (_program, action) => applyEnvFlags(io, action));

  registerAuthCommands(program, io);
  registerConnectionCommands(program, io);
  registerProductCommands(program, io);
  registerMappingCommands(program, io);
  registerMappingEditCommands(commandNamed(program, "mappings"), io);
  registerSyncCommand(program, io);
  registerHistoryCommands(program, io);
  registerScheduleCommands(program, io);
  registerJobCommands(program, io);
  registerDriftCommands(program, io);
  registerNotificationCommands(program, io);
  registerStatusCommand(program, io);
  registerSettingsCommands(program, io);
  registerSubscriptionCommands(program, io);
  registerTokenCommands(program, io);
  registerCompletionCommands(program, io);
  return program;
}

function commandNamed(program: Command, name: string): Command {
  const found = program.commands.find((command) => command.name() === name);
  if (!found) throw new Error(`No ${name} command to add to`);
  return found;
}

/** Runs one command line (without `node` and the script) and answers the exit code. */
export async function run(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const json = jsonRequested(io, argv);
  const program = buildProgram(io, { json });
  try {
    await program.parseAsync([...argv], { from: "user" });
    return EXIT.ok;
  } catch (error) {
    const failure = error instanceof CommanderError ? commanderFailure(error) : toCliError(error, null);
    if (!failure) return EXIT.ok;
    if (json) {
      io.stderr.write(errorJson(failure));
      return failure.exitCode;
    }
    if (failure.shown || error instanceof CommanderError) return failure.exitCode;
    io.stderr.write(`${failure.message}\n`);
    for (const detail of failure.details) io.stderr.write(`  ${detail}\n`);
    if (failure.requestId && program.opts().verbose) io.stderr.write(`  request id: ${failure.requestId}\n`);
    return failure.exitCode;
  }
}

/** Help and version are successes; anything else commander refused is a usage error (it printed it already). */
function commanderFailure(error: CommanderError): CliError | null {
  if (error.code === "commander.helpDisplayed" || error.code === "commander.version") return null;
  return new CliError(error.message.replace(/^error: /, ""), { exitCode: EXIT.usage });
}
