import { MESSAGES, type PersonalToken, TOKEN_MAX_EXPIRY_DAYS } from "@stockbridge/shared";
import type { Command } from "commander";
import { type CommandContext, runCommand } from "../context.ts";
import type { CliIo } from "../io.ts";
import { wholeNumber } from "../options.ts";
import { formatDateTime } from "../output/format.ts";
import { printJson } from "../output/json.ts";
import { type Column, printTable } from "../output/table.ts";

interface CreateOptions {
  name: string;
  expiresInDays?: number;
}

/**
 * `tokens create|list|revoke`: personal API tokens for scripts and cron (STOCKBRIDGE_TOKEN). The
 * server refuses these to a personal token itself, so they need a signed-in session.
 */
export function registerTokenCommands(program: Command, io: CliIo): void {
  const tokens = program.command("tokens").description("personal API tokens for scripts and cron");

  tokens
    .command("create")
    .description("create a token and print it once (it is never shown again)")
    .requiredOption("--name <name>", "what the token is for (1 to 100 characters)")
    .option(
      "--expires-in-days <days>",
      `days until it expires, 1 to ${TOKEN_MAX_EXPIRY_DAYS} (default: never)`,
      wholeNumber("--expires-in-days", 1, TOKEN_MAX_EXPIRY_DAYS),
    )
    .action((options: CreateOptions, command: Command) =>
      runCommand(io, command, (context) => create(context, options)),
    );

  tokens
    .command("list")
    .description("list tokens with their prefix, last use and expiry (never the secret)")
    .action((_options: object, command: Command) => runCommand(io, command, list));

  tokens
    .command("revoke")
    .description("revoke a token: it stops working at once")
    .argument("<id>", "token id (from `tokens list`)")
    .action((id: string, _options: object, command: Command) =>
      runCommand(io, command, (context) => revoke(context, id)),
    );
}

/** The token alone on stdout (so `$(stockbridge tokens create ...)` captures it); notes on stderr. */
async function create(context: CommandContext, options: CreateOptions): Promise<void> {
  context.requireSignedIn();
  const created = await context.api.call("createToken", {
    body: { name: options.name, expiresInDays: options.expiresInDays },
  });
  if (context.json) return printJson(context.io.stdout, created);
  context.err(MESSAGES.tokens.created);
  context.err(
    `${created.name} (${created._id}), ${created.expiresAt ? `expires ${formatDateTime(created.expiresAt)}` : "never expires"}`,
  );
  context.out(created.token);
}

async function list(context: CommandContext): Promise<void> {
  context.requireSignedIn();
  const tokens = await context.api.call("listTokens");
  if (context.json) return printJson(context.io.stdout, tokens);
  if (tokens.length === 0) {
    context.out("No API tokens (create one with `stockbridge tokens create --name <name>`).");
    return;
  }
  await printTable(context, TOKEN_COLUMNS, tokens);
}

async function revoke(context: CommandContext, id: string): Promise<void> {
  context.requireSignedIn();
  const result = await context.api.call("revokeToken", { params: { id } });
  if (context.json) return printJson(context.io.stdout, result);
  context.out(MESSAGES.tokens.revoked);
}

const TOKEN_COLUMNS: ReadonlyArray<Column<PersonalToken>> = [
  { header: "ID", value: (row) => row._id },
  { header: "Name", value: (row) => row.name },
  { header: "Prefix", value: (row) => `${row.prefix}…` },
  { header: "Created", value: (row) => formatDateTime(row.createdAt) },
  { header: "Last used", value: (row) => (row.lastUsedAt ? formatDateTime(row.lastUsedAt) : "Never") },
  { header: "Expires", value: (row) => (row.expiresAt ? formatDateTime(row.expiresAt) : "Never") },
];
