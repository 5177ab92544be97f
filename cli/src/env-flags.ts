import type { Command, Option } from "commander";
import { usageError } from "./errors.ts";
import type { CliIo } from "./io.ts";

/** Flags with a variable of their own, older than the STOCKBRIDGE_<FLAG> rule (read by the session). */
const OWN_VARIABLES = new Set(["--api", "--version"]);

/** `--dry-run` → STOCKBRIDGE_DRY_RUN, `--no-wait` → STOCKBRIDGE_NO_WAIT. */
function envName(option: Pick<Option, "long">): string | null {
  if (!option.long || OWN_VARIABLES.has(option.long)) return null;
  return `STOCKBRIDGE_${option.long.slice(2).replace(/-/g, "_").toUpperCase()}`;
}

/**
 * Fills each flag the command line left out from its STOCKBRIDGE_<FLAG> variable, for the command
 * that runs and every parent (global flags). The command line wins; a value is checked by the
 * flag's own rules, and a bad one is a usage error naming the variable. Switches take 1/0,
 * true/false, yes/no or on/off. Commander's own `.env()` is not used: it reads process.env rather
 * than the run's environment, and turns a switch on for any value, "0" and "false" included.
 */
export function applyEnvFlags(io: Pick<CliIo, "env">, command: Command): void {
  for (let current: Command | null = command; current; current = current.parent) {
    for (const option of current.options) {
      const name = envName(option);
      const text = name ? io.env[name]?.trim() : undefined;
      if (!name || !text) continue;
      const key = option.attributeName();
      const source = current.getOptionValueSource(key);
      if (source !== undefined && source !== "default") continue;
      current.setOptionValueWithSource(key, envValue(option, name, text), "env");
    }
  }
}

function envValue(option: Option, name: string, text: string): unknown {
  if (!option.required && !option.optional) {
    const on = switchValue(name, text);
    // A variable for `--no-wait` says whether to leave out waiting: its value is the opposite.
    return option.negate ? !on : on;
  }
  const values = option.variadic ? text.split(/[\s,]+/).filter(Boolean) : [text];
  const parsed = values.map((value) => {
    if (option.argChoices && !option.argChoices.includes(value)) {
      throw usageError(`${name} must be one of ${option.argChoices.join(", ")} (got "${value}")`);
    }
    if (!option.parseArg) return value;
    try {
      return option.parseArg(value, undefined);
    } catch (error) {
      throw usageError(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  return option.variadic ? parsed : parsed[0];
}

function switchValue(name: string, text: string): boolean {
  const value = text.toLowerCase();
  if (["1", "true", "yes", "on"].includes(value)) return true;
  if (["0", "false", "no", "off"].includes(value)) return false;
  throw usageError(`${name} must be 1 or 0 (true or false) (got "${text}")`);
}

/** True when `--json` is on the command line or STOCKBRIDGE_JSON turns it on: read before parsing, for parse errors. */
export function jsonRequested(io: Pick<CliIo, "env">, argv: readonly string[]): boolean {
  if (argv.includes("--json")) return true;
  const text = io.env.STOCKBRIDGE_JSON?.trim();
  if (!text) return false;
  try {
    return switchValue("STOCKBRIDGE_JSON", text);
  } catch {
    return false;
  }
}
