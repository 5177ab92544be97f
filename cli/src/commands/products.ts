import {
  ACUMATICA_SORT_FIELDS,
  type AcumaticaProduct,
  formatMoney,
  type Job,
  MESSAGES,
  SHOPIFY_SORT_FIELDS,
  type ShopifyProduct,
} from "@stockbridge/shared";
import { type Command, Option } from "commander";
import { type CommandContext, runCommand } from "../context.ts";
import { usageError } from "../errors.ts";
import type { CliIo } from "../io.ts";
import { endJob, followJob, type JobTexts, startJob } from "../jobs.ts";
import {
  addAllOption,
  addPageOptions,
  everyPage,
  type ListPageOptions,
  queryText,
  SYSTEM_NAMES,
  type System,
  systemArgument,
} from "../options.ts";
import { formatCount, formatDateTime, plural } from "../output/format.ts";
import { printJson } from "../output/json.ts";
import { type Column, printTable } from "../output/table.ts";

interface PullOptions {
  wait: boolean;
}

interface ListOptions extends ListPageOptions {
  search?: string;
  sort?: string;
  direction?: "asc" | "desc";
}

/** `products pull <system>` (a job) and `products list <system>` (a server-paged table). */
export function registerProductCommands(program: Command, io: CliIo): void {
  const products = program.command("products").description("pull and list the product catalogs");

  products
    .command("pull")
    .description("fetch the catalog from Shopify or Acumatica (a job; waits for it unless --no-wait)")
    .addArgument(systemArgument())
    .option("--no-wait", "print the started job and return at once")
    .action((system: System, options: PullOptions, command: Command) =>
      runCommand(io, command, (context) => pull(context, system, options)),
    );

  addPageOptions(
    addAllOption(products.command("list"))
      .description("list the pulled products of one system (--all: every page)")
      .addArgument(systemArgument())
      .option("--search <text>", "SKU contains")
      .option(
        "--sort <field>",
        `sort field (shopify: ${SHOPIFY_SORT_FIELDS.join(", ")}; acumatica: ${ACUMATICA_SORT_FIELDS.join(", ")})`,
      )
      .addOption(new Option("--direction <direction>", "sort direction").choices(["asc", "desc"])),
  ).action((system: System, options: ListOptions, command: Command) =>
    runCommand(io, command, (context) => list(context, system, options)),
  );
}

async function pull(context: CommandContext, system: System, options: PullOptions): Promise<void> {
  context.requireSignedIn();
  const texts: JobTexts = {
    label: `Pulling ${SYSTEM_NAMES[system]} products`,
    succeeded: MESSAGES.products.synchronized,
    failed:
      system === "shopify" ? MESSAGES.products.syncShopifyFailed : MESSAGES.products.syncAcumaticaFailed,
  };
  const { job, started } = await startJob(context, () =>
    context.api.call(system === "shopify" ? "syncShopifyProducts" : "syncAcumaticaProducts"),
  );
  if (!options.wait) {
    if (context.json) return printJson(context.io.stdout, job);
    const what = started ? `Started job ${job._id}` : `Job ${job._id} is already running`;
    context.out(`${what}; follow it with \`stockbridge jobs wait ${job._id}\``);
    return;
  }
  const finished = await followJob(context, job, texts);
  endJob(context, finished, texts);
  if (!context.json) printPullSummary(context, finished);
}

/** "288 products: 288 added, 0 updated, 0 unchanged, 0 removed" from the pull job's counts. */
export function printPullSummary(context: CommandContext, job: Job): void {
  const result = job.result ?? {};
  const count = (key: string) => (typeof result[key] === "number" ? result[key] : null);
  const total = count("total");
  if (total === null) return;
  const parts = ["added", "updated", "unchanged", "removed"]
    .map((key) => [key, count(key)] as const)
    .filter(([, value]) => value !== null)
    .map(([key, value]) => `${formatCount(value ?? 0)} ${key}`);
  context.out(`${plural(total, "product")}${parts.length > 0 ? `: ${parts.join(", ")}` : ""}`);
}

async function list(context: CommandContext, system: System, options: ListOptions): Promise<void> {
  const query = { search: options.search, sortDirection: options.direction };
  if (system === "shopify") {
    const sortBy = sortField(SHOPIFY_SORT_FIELDS, options.sort, system);
    context.requireSignedIn();
    await showProducts(context, options, {
      columns: SHOPIFY_COLUMNS,
      read: (page) => context.api.call("shopifyProducts", { query: { ...query, ...page, sortBy } }),
    });
  } else {
    const sortBy = sortField(ACUMATICA_SORT_FIELDS, options.sort, system);
    context.requireSignedIn();
    await showProducts(context, options, {
      columns: ACUMATICA_COLUMNS,
      read: (page) => context.api.call("acumaticaProducts", { query: { ...query, ...page, sortBy } }),
    });
  }
}

type ProductPage<Row> = { products: Row[]; total: number; page: number; totalPages: number };

/** One page as the API answers it, or with `--all` every page: `{ products, total }` with `--json`. */
async function showProducts<Row extends { lastSynced: string }>(
  context: CommandContext,
  options: ListOptions,
  {
    columns,
    read,
  }: {
    columns: ReadonlyArray<Column<Row>>;
    read: (page: { page?: string; limit?: string }) => Promise<ProductPage<Row>>;
  },
): Promise<void> {
  if (options.all) {
    const { rows, total } = await everyPage(options, async (page) => {
      const data = await read(page);
      return { rows: data.products, total: data.total, totalPages: data.totalPages };
    });
    if (context.json) return printJson(context.io.stdout, { products: rows, total });
    return printProducts(context, columns, { products: rows, total, page: 1, totalPages: 1 });
  }
  const data = await read({ page: queryText(options.page), limit: queryText(options.limit) });
  if (context.json) return printJson(context.io.stdout, data);
  await printProducts(context, columns, data);
}

/** `--sort`: the fields differ per system, so it is checked here rather than by commander. */
function sortField<F extends string>(
  fields: readonly F[],
  value: string | undefined,
  system: System,
): F | undefined {
  if (value === undefined) return undefined;
  const found = fields.find((field) => field === value);
  if (!found) throw usageError(`--sort must be one of ${fields.join(", ")} for ${system} (got "${value}").`);
  return found;
}

async function printProducts<Row extends { lastSynced: string }>(
  context: CommandContext,
  columns: ReadonlyArray<Column<Row>>,
  data: { products: Row[]; total: number; page: number; totalPages: number },
): Promise<void> {
  if (data.products.length === 0) {
    context.out(
      data.total === 0
        ? "No products (pull them with `stockbridge products pull`)."
        : "No products on this page.",
    );
    return;
  }
  await printTable(context, columns, data.products);
  context.out();
  context.out(
    `Page ${data.page} of ${data.totalPages} (${plural(data.total, "product")}); last synced ${formatDateTime(data.products[0]?.lastSynced)}`,
  );
}

/** As the web's Shopify Products table: quantities of the first location, money with two decimals. */
const SHOPIFY_COLUMNS: ReadonlyArray<Column<ShopifyProduct>> = [
  { header: "SKU", value: (row) => row.sku },
  { header: "Title", value: (row) => row.title },
  { header: "Price", value: (row) => formatMoney(row.price), align: "right" },
  { header: "Compare At Price", value: (row) => formatMoney(row.compareAtPrice), align: "right" },
  { header: "Available", value: (row) => row.inventoryLocations[0]?.available, align: "right" },
  { header: "On Hand", value: (row) => row.inventoryLocations[0]?.onHandInventory, align: "right" },
  { header: "Type", value: (row) => (row.isPhysicalProduct ? "Physical" : "Service") },
  // The spec's columns are the first location's; the others a variant is stocked at follow.
  { header: "Other Locations", value: (row) => otherLocations(row) },
];

const ACUMATICA_COLUMNS: ReadonlyArray<Column<AcumaticaProduct>> = [
  { header: "SKU", value: (row) => row.sku },
  { header: "Description", value: (row) => row.description },
  { header: "Price", value: (row) => formatMoney(row.defaultPrice), align: "right" },
  { header: "MSRP", value: (row) => formatMoney(row.msrp), align: "right" },
  { header: "Available", value: (row) => row.available, align: "right" },
  { header: "On Hand", value: (row) => row.onHandInventory, align: "right" },
  { header: "Available for Shipping", value: (row) => row.availableForShipping, align: "right" },
  { header: "Type", value: (row) => (row.isStockItem ? "Stock Item" : "Non-Stock") },
];

/** `Downtown Store 12/15` (available / on hand) for each location after the first. */
function otherLocations(row: ShopifyProduct): string {
  return row.inventoryLocations
    .slice(1)
    .map(
      (level) =>
        `${level.name || level.locationId} ${level.available ?? "-"}/${level.onHandInventory ?? "-"}`,
    )
    .join(", ");
}
