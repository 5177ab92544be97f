import { readFile } from "node:fs/promises";
import { type Mapping, MESSAGES } from "@stockbridge/shared";
import type { Command } from "commander";
import { type CommandContext, runCommand } from "../context.ts";
import { CliError, usageError } from "../errors.ts";
import { type CliIo, readAll } from "../io.ts";
import { everyPage } from "../options.ts";
import { formatCsvLine } from "../output/csv.ts";
import { printJson } from "../output/json.ts";
import { findBySku } from "../sku-lookup.ts";
import { CSV_HEADER, importMappings } from "./mapping-import.ts";

interface EditOptions {
  shopifySku?: string;
  acumaticaSku?: string;
}

/** `mappings create|edit|delete|export|import`: the Mapping screen's manual actions, by SKU. */
export function registerMappingEditCommands(mappings: Command, io: CliIo): void {
  mappings
    .command("create")
    .description("map a Shopify variant to an ERP item, both named by their SKU")
    .argument("<shopifySku>", "the variant's SKU")
    .argument("<acumaticaSku>", "the ERP item's SKU")
    .action((shopifySku: string, acumaticaSku: string, _options: object, command: Command) =>
      runCommand(io, command, (context) => create(context, shopifySku, acumaticaSku)),
    );

  mappings
    .command("edit")
    .description("point a mapping at another variant and/or ERP item")
    .argument("<id>", "mapping id (from `mappings list`)")
    .option("--shopify-sku <sku>", "the new variant's SKU")
    .option("--acumatica-sku <sku>", "the new ERP item's SKU")
    .action((id: string, options: EditOptions, command: Command) =>
      runCommand(io, command, (context) => edit(context, id, options)),
    );

  mappings
    .command("delete")
    .description("delete mappings")
    .argument("<id...>", "mapping ids (from `mappings list`)")
    .action((ids: string[], _options: object, command: Command) =>
      runCommand(io, command, (context) => remove(context, ids)),
    );

  mappings
    .command("export")
    .description(`every mapping as CSV on stdout (header ${CSV_HEADER.join(",")})`)
    .action((_options: object, command: Command) => runCommand(io, command, exportCsv));

  mappings
    .command("import")
    .description("create the mappings of a CSV file (- for stdin); reports each row; safe to run again")
    .argument("<file>", `CSV with the header ${CSV_HEADER.join(",")}`)
    .action((file: string, _options: object, command: Command) =>
      runCommand(io, command, async (context) =>
        importMappings(context, file === "-" ? await readAll(context.io.stdin) : await readText(file)),
      ),
    );
}

async function create(context: CommandContext, shopifySku: string, acumaticaSku: string): Promise<void> {
  context.requireSignedIn();
  const [shopifyVariantId, acumaticaProductId] = await Promise.all([
    findBySku(context, "shopify", shopifySku),
    findBySku(context, "acumatica", acumaticaSku),
  ]);
  const mapping = await context.api.call("manualMap", { body: { shopifyVariantId, acumaticaProductId } });
  if (context.json) return printJson(context.io.stdout, mapping);
  context.out(MESSAGES.mapping.manualMapped);
  context.out(`${mapping._id}: ${mapping.shopifyDetails.sku} → ${mapping.acumaticaDetails.sku}`);
}

async function edit(context: CommandContext, id: string, options: EditOptions): Promise<void> {
  if (options.shopifySku === undefined && options.acumaticaSku === undefined) {
    throw usageError("Nothing to change: use --shopify-sku and/or --acumatica-sku.");
  }
  context.requireSignedIn();
  const current = await mappingById(context, id);
  const mapping = await context.api.call("updateMapping", {
    params: { id },
    body: {
      shopifyVariantId:
        options.shopifySku === undefined
          ? current.shopifyDetails.variantId
          : await findBySku(context, "shopify", options.shopifySku),
      acumaticaProductId:
        options.acumaticaSku === undefined
          ? current.acumaticaDetails.acumaticaId
          : await findBySku(context, "acumatica", options.acumaticaSku),
    },
  });
  if (context.json) return printJson(context.io.stdout, mapping);
  context.out(MESSAGES.mapping.updated);
  context.out(`${mapping._id}: ${mapping.shopifyDetails.sku} → ${mapping.acumaticaDetails.sku}`);
}

async function remove(context: CommandContext, ids: string[]): Promise<void> {
  context.requireSignedIn();
  const deleted: string[] = [];
  for (const id of new Set(ids)) {
    await context.api.call("deleteMapping", { params: { id } });
    deleted.push(id);
    if (!context.json) context.out(`${MESSAGES.mapping.deleted}: ${id}`);
  }
  if (context.json) printJson(context.io.stdout, { deleted });
}

async function exportCsv(context: CommandContext): Promise<void> {
  context.requireSignedIn();
  const { rows, total } = await everyPage({}, async (page) => {
    const data = await context.api.call("mappingHistory", { query: page });
    return { rows: data.mappings, total: data.total, totalPages: data.totalPages };
  });
  if (context.json) return printJson(context.io.stdout, { mappings: rows, total });
  context.out(formatCsvLine(CSV_HEADER));
  for (const mapping of rows) {
    context.out(formatCsvLine([mapping.shopifyDetails.sku, mapping.acumaticaDetails.sku]));
  }
}

/** One mapping by id (the by-ids endpoint answers only the caller's own). */
async function mappingById(context: CommandContext, id: string): Promise<Mapping> {
  const { mappings } = await context.api.call("mappingsByIds", { body: { mappingIds: [id] } });
  const found = mappings.find((mapping) => mapping._id === id);
  if (!found)
    throw new CliError(`No mapping ${id} (see \`stockbridge mappings list\`).`, { code: "NOT_FOUND" });
  return found;
}

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    throw usageError(`Cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
