import { MAX_PAGE_SIZE } from "@stockbridge/shared";
import { Argument, type Command, InvalidArgumentError } from "commander";
import { CliError, usageError } from "./errors.ts";
import { parseApiUrl } from "./session.ts";

const SYSTEMS = ["shopify", "acumatica"] as const;
export type System = (typeof SYSTEMS)[number];

export const SYSTEM_NAMES: Record<System, string> = { shopify: "Shopify", acumatica: "Acumatica" };

/** `<system>`: shopify or acumatica, checked by commander (a usage error names the choices). */
export function systemArgument(): Argument {
  return new Argument("<system>", "shopify or acumatica").choices(SYSTEMS);
}

/** A flag value parser for whole numbers in a range; commander reports the rule with the flag. */
export function wholeNumber(flag: string, min: number, max: number): (text: string) => number {
  return (text) => {
    const value = Number(text.trim());
    if (text.trim() === "" || !Number.isInteger(value) || value < min || value > max) {
      throw new InvalidArgumentError(`${flag} must be a whole number from ${min} to ${max}.`);
    }
    return value;
  };
}

/** The flags of a paged list: which page, and how many rows on it. */
export interface PageOptions {
  page?: number;
  limit?: number;
}

/** A paged list's flags with `--all` (every page). */
export interface ListPageOptions extends PageOptions {
  all?: boolean;
}

/** `--all`: a list read page after page (at the largest page size unless `--limit` says otherwise). */
export function addAllOption(command: Command): Command {
  return command.option("--all", "every page: all rows in one table (or one JSON list)");
}

/**
 * `--all`: every page's rows in order, read at the largest page size unless `--limit` says otherwise
 * (`pageSize` for a list whose size is fixed); the total is the server's count at the last page.
 */
export async function everyPage<Row>(
  options: ListPageOptions,
  read: (query: {
    page: string;
    limit: string;
  }) => Promise<{ rows: Row[]; total: number; totalPages: number }>,
  pageSize = MAX_PAGE_SIZE,
): Promise<{ rows: Row[]; total: number }> {
  if (options.page !== undefined) throw usageError("Use either --all or --page, not both.");
  const limit = String(options.limit ?? pageSize);
  const rows: Row[] = [];
  let total = 0;
  for (let page = 1, pages = 1; page <= pages; page += 1) {
    const answer = await read({ page: String(page), limit });
    rows.push(...answer.rows);
    total = answer.total;
    pages = answer.totalPages;
  }
  return { rows, total };
}

/** `--page <n>`, and `--limit <n>` unless the list's page size is fixed (execution history). */
export function addPageOptions(command: Command, { limit = true } = {}): Command {
  command.option("--page <n>", "page number", wholeNumber("--page", 1, 1_000_000));
  if (limit)
    command.option(
      "--limit <n>",
      `rows per page (at most ${MAX_PAGE_SIZE})`,
      wholeNumber("--limit", 1, MAX_PAGE_SIZE),
    );
  return command;
}

/** `--api <url>`: http or https only. */
export function apiUrlOption(text: string): string {
  try {
    return parseApiUrl(text);
  } catch (error) {
    throw new InvalidArgumentError(error instanceof CliError ? error.message : String(error));
  }
}

/** Query values travel as text (the contract parses them on the server). */
export function queryText(value: number | string | undefined): string | undefined {
  return value === undefined ? undefined : String(value);
}
