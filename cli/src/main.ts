import { Command, CommanderError, Option } from "commander";
import { registerAuthCommands } from "./commands/auth.ts";
import { registerConnectionCommands } from "./commands/connections.ts";
import { registerHistoryCommands } from "./commands/history.ts";
import { registerJobCommands } from "./commands/jobs.ts";
import { registerMappingCommands } from "./commands/mappings.ts";
import { registerProductCommands } from "./commands/products.ts";
import { registerScheduleCommands } from "./commands/schedules.ts";
import { registerSyncCommand } from "./commands/sync.ts";
import { EXIT, type ExitCode, toCliError } from "./errors.ts";
import type { CliIo } from "./io.ts";
import { apiUrlOption } from "./options.ts";
import { DEFAULT_API_URL } from "./session.ts";

const EXIT_CODES_HELP = `
Exit codes:
  0  ok
  1  the server refused (its message is printed) or a run had failed items
  2  usage error (bad command, flag or value)
  3  not signed in, or the session expired: run \`stockbridge login\``;

/** The whole command tree, writing through `io`; `run` parses with it (tests may too, in-process). */
export function buildProgram(io: CliIo): Command {
  const program = new Command("stockbridge")
    .description("Stockbridge from a terminal: pull catalogs, map, sync and check runs through the API.")
    .addOption(
      new Option("--api <url>", `API origin (env STOCKBRIDGE_API_URL; default ${DEFAULT_API_URL})`).argParser(
        apiUrlOption,
      ),
    )
    .option("--json", "print the API's data as JSON on stdout (nothing else there)")
    // Settings below are inherited by every subcommand added after them.
    .configureHelp({ showGlobalOptions: true })
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .exitOverride()
    .showHelpAfterError("(add --help for usage)")
    .addHelpText("after", EXIT_CODES_HELP);

  registerAuthCommands(program, io);
  registerConnectionCommands(program, io);
  registerProductCommands(program, io);
  registerMappingCommands(program, io);
  registerSyncCommand(program, io);
  registerHistoryCommands(program, io);
  registerScheduleCommands(program, io);
  registerJobCommands(program, io);
  return program;
}

/** Runs one command line (without `node` and the script) and answers the exit code. */
export async function run(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const program = buildProgram(io);
  try {
    await program.parseAsync([...argv], { from: "user" });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) return commanderExit(error);
    const failure = toCliError(error, null);
    if (!failure.shown) io.stderr.write(`${failure.message}\n`);
    for (const detail of failure.details) io.stderr.write(`  ${detail}\n`);
    return failure.exitCode;
  }
}

/** Commander already printed its message; help and version are successes, anything else usage. */
function commanderExit(error: CommanderError): ExitCode {
  if (error.code === "commander.helpDisplayed" || error.code === "commander.version") return EXIT.ok;
  return EXIT.usage;
}
