import { writeFile } from "node:fs/promises";
import { type DriftItem, type DriftSummary, formatMoney } from "@stockbridge/shared";
import type { Command } from "commander";
import { type CommandContext, runCommand } from "../context.ts";
import { CliError, usageError } from "../errors.ts";
import type { CliIo } from "../io.ts";
import { followJob, startOwnJob } from "../jobs.ts";
import { formatDateTime, plural } from "../output/format.ts";
import { printJson } from "../output/json.ts";
import { type Column, printTable } from "../output/table.ts";
import { reportSync, syncTexts } from "./sync.ts";

/** How many differing fields `drift show` lists; `drift export` has them all. */
const SHOWN_ITEMS = 20;

/** `drift show|export|fix`: the dashboard's drift card, its CSV and its "Fix these". */
export function registerDriftCommands(program: Command, io: CliIo): void {
  const drift = program
    .command("drift")
    .description("which mappings differ between Shopify and the ERP, as the latest check found");

  drift
    .command("show")
    .description(`when the latest check ran, counts by field and the first ${SHOWN_ITEMS} differing fields`)
    .action((_options: object, command: Command) => runCommand(io, command, show));

  drift
    .command("export")
    .description("every differing field as CSV, to a file or stdout (- or nothing)")
    .argument("[file]", "where to write the CSV (- or left out: stdout)")
    .action((file: string | undefined, _options: object, command: Command) =>
      runCommand(io, command, (context) => exportCsv(context, file)),
    );

  drift
    .command("fix")
    .description("sync exactly the drifted mappings (a job, followed like `sync`); exit 1 if any item fails")
    .action((_options: object, command: Command) => runCommand(io, command, fix));
}

async function show(context: CommandContext): Promise<void> {
  context.requireSignedIn();
  const drift = await context.api.call("drift");
  if (context.json) return printJson(context.io.stdout, drift);
  if (!drift.checkedAt) {
    context.out("Not checked yet: a full sync, a full dry run or a check-only schedule records the drift.");
    return;
  }
  context.out(
    `Checked ${formatDateTime(drift.checkedAt, { seconds: true })} (${sourceText(drift)}): ${plural(drift.mappings, "mapping")} compared, ${drift.drifted} differ`,
  );
  context.out(
    `  Price: ${drift.byField.price}  Compare-at price: ${drift.byField.compareAtPrice}  Quantity: ${drift.byField.quantity}`,
  );
  if (drift.items.length === 0) return;
  context.out();
  const shown = drift.items.slice(0, SHOWN_ITEMS);
  await printTable(context, DRIFT_COLUMNS, shown);
  const fields = drift.byField.price + drift.byField.compareAtPrice + drift.byField.quantity;
  if (fields > shown.length) {
    context.out(`… and ${plural(fields - shown.length, "more field")}: stockbridge drift export`);
  }
  context.out("Sync them: stockbridge drift fix");
}

/**
 * The server's CSV as it sent it. With `--json` (to a file only: stdout is the CSV) a line says
 * where it went and how many rows it holds.
 */
async function exportCsv(context: CommandContext, file: string | undefined): Promise<void> {
  const toStdout = file === undefined || file === "-";
  if (toStdout && context.json)
    throw usageError("drift export writes CSV to stdout: give a file to use --json.");
  context.requireSignedIn();
  const csv = await context.api.call("driftCsv");
  if (toStdout) {
    context.io.stdout.write(csv);
    return;
  }
  try {
    await writeFile(file, csv, "utf8");
  } catch (error) {
    throw new CliError(`Cannot write ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const rows = Math.max(0, csv.split("\r\n").filter((line) => line !== "").length - 1);
  if (context.json) return printJson(context.io.stdout, { file, rows });
  context.out(`Wrote ${plural(rows, "differing field")} to ${file}`);
}

/** `POST /drift/fix`: one sync job of the drifted mappings, followed to its end as `sync` follows its job. */
async function fix(context: CommandContext): Promise<void> {
  context.requireSignedIn();
  const job = await startOwnJob(() => context.api.call("fixDrift"));
  const finished = await followJob(context, job, { ...syncTexts(false), label: "Fix drift" });
  await reportSync(context, finished);
}

function sourceText(drift: DriftSummary): string {
  if (drift.source === "dry-run") return "a dry run";
  if (drift.source === "check") return "a check-only schedule";
  return "a sync";
}

function driftValue(item: DriftItem, amount: number | null): string {
  return item.field === "quantity" ? (amount === null ? "-" : String(amount)) : formatMoney(amount);
}

const DRIFT_COLUMNS: ReadonlyArray<Column<DriftItem>> = [
  { header: "Shopify SKU", value: (row) => row.shopifySku },
  { header: "Acumatica SKU", value: (row) => row.acumaticaSku },
  { header: "Field", value: (row) => row.field },
  { header: "Location", value: (row) => row.location },
  { header: "Shopify", value: (row) => driftValue(row, row.shopify), align: "right" },
  { header: "ERP", value: (row) => driftValue(row, row.erp), align: "right" },
];
