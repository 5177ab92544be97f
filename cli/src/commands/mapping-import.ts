import type { Mapping } from "@stockbridge/shared";
import { ApiError } from "@stockbridge/shared";
import type { CommandContext } from "../context.ts";
import { CliError, usageError } from "../errors.ts";
import { everyPage } from "../options.ts";
import { parseCsv } from "../output/csv.ts";
import { plural } from "../output/format.ts";
import { printJson } from "../output/json.ts";
import { findBySku } from "../sku-lookup.ts";

/** The one header `mappings export` writes and `mappings import` expects. */
export const CSV_HEADER = ["shopifySku", "acumaticaSku"] as const;

type Outcome = "created" | "unchanged" | "failed";

interface RowReport {
  line: number;
  shopifySku: string;
  acumaticaSku: string;
  outcome: Outcome;
  mappingId: string | null;
  error: string | null;
}

/**
 * `mappings import`: each row becomes a mapping unless that exact pair is already mapped
 * ("unchanged"), so running the same file again changes nothing. A row the server refuses (the
 * variant is mapped elsewhere, a SKU is unknown or duplicated) fails alone with the reason; the
 * command then exits 1 after reporting every row.
 */
export async function importMappings(context: CommandContext, text: string): Promise<void> {
  const [header, ...records] = parseCsv(text.replace(/^\uFEFF/, ""));
  if (!header || header.fields.map((field) => field.trim()).join(",") !== CSV_HEADER.join(",")) {
    throw usageError(`The first line must be the header ${CSV_HEADER.join(",")}.`);
  }
  context.requireSignedIn();
  const mapped = new Set((await allMappings(context)).map(pairKey));
  const reports: RowReport[] = [];
  for (const { line, fields } of records) {
    const [shopifySku = "", acumaticaSku = ""] = fields.map((field) => field.trim());
    const report = await importRow(context, mapped, {
      line,
      shopifySku,
      acumaticaSku,
      extra: fields.length > 2,
    });
    reports.push(report);
    if (!context.json) context.out(rowLine(report));
  }
  const count = (outcome: Outcome) => reports.filter((report) => report.outcome === outcome).length;
  const summary = { created: count("created"), unchanged: count("unchanged"), failed: count("failed") };
  if (context.json) printJson(context.io.stdout, { rows: reports, ...summary });
  else {
    context.out(
      `${plural(reports.length, "row")}: ${summary.created} created, ${summary.unchanged} unchanged, ${summary.failed} failed`,
    );
  }
  if (summary.failed > 0) {
    throw new CliError(
      `${summary.failed} of ${plural(reports.length, "row")} failed; fix them and import again`,
      {
        code: "ROWS_FAILED",
      },
    );
  }
}

async function importRow(
  context: CommandContext,
  mapped: Set<string>,
  row: { line: number; shopifySku: string; acumaticaSku: string; extra: boolean },
): Promise<RowReport> {
  const { line, shopifySku, acumaticaSku } = row;
  const report = (outcome: Outcome, details: { mappingId?: string; error?: string } = {}): RowReport => ({
    line,
    shopifySku,
    acumaticaSku,
    outcome,
    mappingId: details.mappingId ?? null,
    error: details.error ?? null,
  });
  if (!shopifySku || !acumaticaSku || row.extra) {
    return report("failed", { error: `needs exactly two fields: ${CSV_HEADER.join(",")}` });
  }
  if (mapped.has(pairKey({ shopifySku, acumaticaSku }))) return report("unchanged");
  try {
    const [shopifyVariantId, acumaticaProductId] = await Promise.all([
      findBySku(context, "shopify", shopifySku),
      findBySku(context, "acumatica", acumaticaSku),
    ]);
    const mapping = await context.api.call("manualMap", { body: { shopifyVariantId, acumaticaProductId } });
    mapped.add(pairKey({ shopifySku, acumaticaSku }));
    return report("created", { mappingId: mapping._id });
  } catch (error) {
    // A refusal belongs to this row; an unreachable server or a lost session ends the import.
    if (error instanceof CliError && error.exitCode === 1) return report("failed", { error: error.message });
    if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 401) {
      return report("failed", { error: error.message });
    }
    throw error;
  }
}

async function allMappings(context: CommandContext): Promise<Mapping[]> {
  const { rows } = await everyPage({}, async (page) => {
    const data = await context.api.call("mappingHistory", { query: page });
    return { rows: data.mappings, total: data.total, totalPages: data.totalPages };
  });
  return rows;
}

function pairKey(pair: Mapping | { shopifySku: string; acumaticaSku: string }): string {
  return "_id" in pair
    ? JSON.stringify([pair.shopifyDetails.sku, pair.acumaticaDetails.sku])
    : JSON.stringify([pair.shopifySku, pair.acumaticaSku]);
}

function rowLine(report: RowReport): string {
  const pair = `${report.shopifySku || "?"} → ${report.acumaticaSku || "?"}`;
  if (report.outcome === "created") return `line ${report.line}: ${pair}: created (${report.mappingId})`;
  if (report.outcome === "unchanged") return `line ${report.line}: ${pair}: already mapped`;
  return `line ${report.line}: ${pair}: failed: ${report.error}`;
}
