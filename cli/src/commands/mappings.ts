import {
  type AutoMapResult,
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  type Mapping,
  MESSAGES,
  type Unmapped,
} from "@stockbridge/shared";
import { type Command, Option } from "commander";
import { type CommandContext, runCommand } from "../context.ts";
import type { CliIo } from "../io.ts";
import { endJob, followJob, type JobTexts } from "../jobs.ts";
import { addAllOption, addPageOptions, everyPage, type PageOptions, queryText } from "../options.ts";
import { formatCount, formatShortDate, plural } from "../output/format.ts";
import { printJson } from "../output/json.ts";
import { type Column, printTable } from "../output/table.ts";

interface ListOptions extends PageOptions {
  search?: string;
  all?: boolean;
}

type UnmappedOptions = ListOptions;

/** `mappings list`, `mappings auto` (exact-SKU auto mapping, a job, with its report), `mappings unmapped`. */
export function registerMappingCommands(program: Command, io: CliIo): void {
  const mappings = program.command("mappings").description("list and create Shopify ↔ Acumatica mappings");

  addPageOptions(
    addAllOption(mappings.command("list"))
      .description("list mappings (their ids are what `sync --mapping` takes; --all: every page)")
      .option("--search <text>", "SKU contains"),
  ).action((options: ListOptions, command: Command) =>
    runCommand(io, command, (context) => list(context, options)),
  );

  mappings
    .command("auto")
    .description("map every identical SKU (a job) and report what was created and skipped")
    .action((_options: object, command: Command) => runCommand(io, command, autoMap));

  addPageOptions(
    mappings
      .command("unmapped")
      .description("list the variants and ERP items that no mapping uses yet, a page of each")
      .option("--search <text>", "SKU contains"),
  )
    .addOption(
      new Option("--all", "every page of both lists (100 rows a request)").conflicts(["page", "limit"]),
    )
    .action((options: UnmappedOptions, command: Command) =>
      runCommand(io, command, (context) => unmapped(context, options)),
    );
}

const AUTO_MAP_TEXTS: JobTexts = {
  label: "Auto mapping",
  succeeded: MESSAGES.mapping.autoMapped,
  failed: MESSAGES.mapping.autoMapFailed,
};

async function list(context: CommandContext, options: ListOptions): Promise<void> {
  context.requireSignedIn();
  const read = (page: { page?: string; limit?: string }) =>
    context.api.call("mappingHistory", { query: { search: options.search, ...page } });
  if (options.all) {
    const { rows, total } = await everyPage(options, async (page) => {
      const data = await read(page);
      return { rows: data.mappings, total: data.total, totalPages: data.totalPages };
    });
    if (context.json) return printJson(context.io.stdout, { mappings: rows, total });
    if (rows.length === 0) return context.out("No mappings (create them with `stockbridge mappings auto`).");
    await printTable(context, MAPPING_COLUMNS, rows);
    context.out();
    context.out(plural(total, "mapping"));
    return;
  }
  const data = await read({ page: queryText(options.page), limit: queryText(options.limit) });
  if (context.json) return printJson(context.io.stdout, data);
  if (data.mappings.length === 0) {
    context.out(
      data.total === 0
        ? "No mappings (create them with `stockbridge mappings auto`)."
        : "No mappings on this page.",
    );
    return;
  }
  await printTable(context, MAPPING_COLUMNS, data.mappings);
  context.out();
  context.out(`Page ${data.page} of ${data.totalPages} (${plural(data.total, "mapping")})`);
}

async function autoMap(context: CommandContext): Promise<void> {
  context.requireSignedIn();
  const { job } = await context.api.call("autoMap");
  const finished = await followJob(context, job, AUTO_MAP_TEXTS);
  endJob(context, finished, AUTO_MAP_TEXTS);
  if (context.json) return;
  const report = autoMapReport(finished.result);
  if (report) printAutoMapReport(context, report);
}

/**
 * The job's result as an AutoMapResult. Checked by hand: the CLI does not depend on valibot itself
 * (shared's AutoMapResultSchema would need it); a result of another shape is simply not reported.
 */
function autoMapReport(result: Record<string, unknown> | null): AutoMapResult | null {
  const duplicates = result?.duplicateSkus;
  if (!result || typeof result.created !== "number" || typeof result.alreadyMapped !== "number") return null;
  if (typeof duplicates !== "object" || duplicates === null) return null;
  const list = (value: unknown) =>
    Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
  const sides = duplicates as Record<string, unknown>;
  return {
    created: result.created,
    alreadyMapped: result.alreadyMapped,
    duplicateSkus: { shopify: list(sides.shopify), acumatica: list(sides.acumatica) },
    overPlanLimit: typeof result.overPlanLimit === "number" ? result.overPlanLimit : 0,
    planLimit: typeof result.planLimit === "string" ? result.planLimit : null,
  };
}

function printAutoMapReport(context: CommandContext, report: AutoMapResult): void {
  const { shopify, acumatica } = report.duplicateSkus;
  context.out(`Mappings created:       ${report.created}`);
  context.out(`Already mapped:         ${report.alreadyMapped}`);
  context.out(`Duplicate SKUs skipped: ${shopify.length + acumatica.length}`);
  if (report.overPlanLimit > 0)
    context.out(
      `Not mapped (plan):      ${report.overPlanLimit}${report.planLimit ? `  ${report.planLimit}` : ""}`,
    );
  if (shopify.length + acumatica.length === 0) return;
  context.out(
    "A SKU that appears more than once in a system is never matched automatically; map these by hand.",
  );
  if (shopify.length > 0) context.out(`  Duplicate in Shopify:   ${shopify.join(", ")}`);
  if (acumatica.length > 0) context.out(`  Duplicate in Acumatica: ${acumatica.join(", ")}`);
}

async function unmapped(context: CommandContext, options: UnmappedOptions): Promise<void> {
  context.requireSignedIn();
  const data = options.all
    ? await allUnmapped(context, options.search)
    : await unmappedPage(context, options);
  if (context.json) return printJson(context.io.stdout, data);
  const where = options.all ? "" : ` (${pageText(data.shopifyOffset, data.limit, data.shopifyTotal)})`;
  context.out(`Shopify variants without a mapping: ${formatCount(data.shopifyTotal)}${where}`);
  if (data.shopify.length > 0) {
    await printTable(
      context,
      [
        { header: "SKU", value: (row: (typeof data.shopify)[number]) => row.sku },
        { header: "Variant ID", value: (row) => row.variantId },
      ],
      data.shopify,
    );
  }
  context.out();
  const erpWhere = options.all ? "" : ` (${pageText(data.acumaticaOffset, data.limit, data.acumaticaTotal)})`;
  context.out(`Acumatica items without a mapping: ${formatCount(data.acumaticaTotal)}${erpWhere}`);
  if (data.acumatica.length > 0) {
    await printTable(
      context,
      [
        { header: "SKU", value: (row: (typeof data.acumatica)[number]) => row.sku },
        { header: "Acumatica ID", value: (row) => row.acumaticaId },
      ],
      data.acumatica,
    );
  }
}

/** One page of each list: `--page` counts in `--limit` rows, the same page of both. */
function unmappedPage(context: CommandContext, options: UnmappedOptions): Promise<Unmapped> {
  const limit = options.limit ?? DEFAULT_PAGE_SIZE;
  const offset = String(((options.page ?? 1) - 1) * limit);
  return context.api.call("unmapped", {
    query: { search: options.search, limit: String(limit), shopifyOffset: offset, acumaticaOffset: offset },
  });
}

/** Both lists whole, a page of each per request, until neither has more rows. */
async function allUnmapped(context: CommandContext, search: string | undefined): Promise<Unmapped> {
  const all: Unmapped = {
    shopify: [],
    acumatica: [],
    shopifyTotal: 0,
    acumaticaTotal: 0,
    shopifyOffset: 0,
    acumaticaOffset: 0,
    limit: MAX_PAGE_SIZE,
  };
  for (let offset = 0; ; offset += MAX_PAGE_SIZE) {
    const page = await context.api.call("unmapped", {
      query: {
        search,
        limit: String(MAX_PAGE_SIZE),
        shopifyOffset: String(offset),
        acumaticaOffset: String(offset),
      },
    });
    all.shopify.push(...page.shopify);
    all.acumatica.push(...page.acumatica);
    all.shopifyTotal = page.shopifyTotal;
    all.acumaticaTotal = page.acumaticaTotal;
    if (page.shopify.length < MAX_PAGE_SIZE && page.acumatica.length < MAX_PAGE_SIZE) break;
  }
  all.limit = Math.max(all.shopify.length, all.acumatica.length);
  return all;
}

/** "page 2 of 7" for the page starting at `offset`. */
function pageText(offset: number, limit: number, total: number): string {
  return `page ${Math.floor(offset / limit) + 1} of ${Math.max(1, Math.ceil(total / limit))}`;
}

/** A side whose item the last pull no longer found is marked, as the web shows a broken mapping. */
function sku(details: { sku: string; missing: boolean }): string {
  return details.missing ? `${details.sku} (missing)` : details.sku;
}

const MAPPING_COLUMNS: ReadonlyArray<Column<Mapping>> = [
  { header: "ID", value: (row) => row._id },
  { header: "Shopify SKU", value: (row) => sku(row.shopifyDetails) },
  { header: "Acumatica SKU", value: (row) => sku(row.acumaticaDetails) },
  { header: "Mapping Type", value: (row) => row.mappingType },
  { header: "Last Updated", value: (row) => formatShortDate(row.updatedAt) },
  { header: "Last Synced", value: (row) => formatShortDate(row.lastSyncedAt) },
];
