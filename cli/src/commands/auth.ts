import { ApiError, MESSAGES, type User } from "@stockbridge/shared";
import type { Command } from "commander";
import { type CommandContext, runCommand } from "../context.ts";
import { CliError, usageError } from "../errors.ts";
import { type CliIo, readAll } from "../io.ts";
import { describeSubscription } from "../output/describe.ts";
import { printJson } from "../output/json.ts";
import { apiClient, credentialsPath, removeCredentials, saveCredentials } from "../session.ts";

interface LoginOptions {
  email?: string;
  passwordStdin?: boolean;
}

/** `login`, `logout`, `whoami`. */
export function registerAuthCommands(program: Command, io: CliIo): void {
  program
    .command("login")
    .description("sign in and save the session token for this API")
    .option("--email <email>", "account email (asked for in a terminal when left out)")
    .option("--password-stdin", "read the password from stdin (else STOCKBRIDGE_PASSWORD, else asked for)")
    .action((options: LoginOptions, command: Command) =>
      runCommand(io, command, (context) => login(context, options)),
    );

  program
    .command("logout")
    .description("end the session on the server and forget the saved token")
    .action((_options: object, command: Command) => runCommand(io, command, logout));

  program
    .command("whoami")
    .description("show the signed-in user, subscription and connections")
    .action((_options: object, command: Command) => runCommand(io, command, whoami));
}

async function login(context: CommandContext, options: LoginOptions): Promise<void> {
  const email =
    options.email?.trim() || (await ask(context, { label: "Email", missing: "--email is required" }));
  const password = await readPassword(context, options);
  const { apiUrl } = context.session;
  let result: Awaited<ReturnType<typeof signIn>>;
  try {
    result = await signIn(apiUrl, email, password);
  } catch (error) {
    // A refused sign-in is the server saying no (exit 1), not a lost session (exit 3).
    if (error instanceof ApiError && error.status === 401) throw new CliError(error.message);
    throw error;
  }
  const path = saveCredentials(context.io, {
    apiUrl,
    token: result.token,
    email: result.user.email,
    savedAt: new Date().toISOString(),
  });
  if (context.io.env.STOCKBRIDGE_TOKEN?.trim()) {
    context.err("Note: STOCKBRIDGE_TOKEN is set and is used instead of the saved session.");
  }
  // The token stays in the credentials file: it is not printed, not even with --json.
  if (context.json) return printJson(context.io.stdout, { user: result.user });
  context.out(MESSAGES.auth.loginSuccess);
  context.out(`Signed in as ${result.user.name} <${result.user.email}> on ${apiUrl}`);
  context.out(`Session saved in ${path}`);
}

function signIn(apiUrl: string, email: string, password: string) {
  return apiClient(apiUrl, null).call("login", { body: { email, password } });
}

/** `--password-stdin`, then `STOCKBRIDGE_PASSWORD`, then a hidden prompt in a terminal. */
async function readPassword(context: CommandContext, options: LoginOptions): Promise<string> {
  if (options.passwordStdin) {
    // Only the final line break goes: a password may end in spaces.
    const password = (await readAll(context.io.stdin)).replace(/\r?\n$/, "");
    if (!password) throw usageError("--password-stdin read an empty password.");
    return password;
  }
  const fromEnv = context.io.env.STOCKBRIDGE_PASSWORD;
  if (fromEnv) return fromEnv;
  return ask(context, {
    label: "Password",
    missing: "No password: use --password-stdin or STOCKBRIDGE_PASSWORD",
    mask: "*",
  });
}

/** Asks in a terminal (drawn on stderr, so stdout stays clean); without one, a usage error. */
async function ask(
  context: CommandContext,
  { label, missing, mask }: { label: string; missing: string; mask?: string },
): Promise<string> {
  const { stdin, stderr } = context.io;
  if (!stdin.isTTY || !stderr.isTTY) throw usageError(`${missing} when stdin is not a terminal.`);
  const { askLine } = await import("../output/prompt.tsx");
  const answer = (await askLine(context.io, label, { mask })).trim();
  if (!answer) throw usageError(`${label} is required.`);
  return answer;
}

async function logout(context: CommandContext): Promise<void> {
  const { session } = context;
  // A personal API token has no session to end (the server refuses it): revoking ends it.
  if (session.personalToken) {
    context.err(
      "STOCKBRIDGE_TOKEN is a personal API token: it stays valid until revoked (`stockbridge tokens revoke <id>`).",
    );
  } else if (session.hasToken) {
    try {
      await context.api.call("logout");
    } catch (error) {
      // Already over on the server (401) is what logout wants anyway; anything else is worth a word.
      if (!(error instanceof ApiError && error.status === 401)) {
        context.err(
          `The server did not confirm the sign-out (${errorText(error)}); the local session is removed.`,
        );
      }
    }
  }
  removeCredentials(context.io);
  if (context.json) return printJson(context.io.stdout, { ok: true });
  context.out(session.hasToken ? "Signed out." : "Not signed in; nothing to do.");
  if (session.tokenSource === "env") context.err("STOCKBRIDGE_TOKEN is still set in this environment.");
}

async function whoami(context: CommandContext): Promise<void> {
  context.requireSignedIn();
  const data = await context.api.call("me");
  if (context.json) return printJson(context.io.stdout, data);
  printUser(context, data.user);
}

function printUser(context: CommandContext, user: User): void {
  const shopify = user.shopifyConnection;
  const acumatica = user.acumaticaConnection;
  context.out(`${user.name} <${user.email}>`);
  context.out(`API:          ${context.session.apiUrl}`);
  context.out(
    `Session:      ${context.session.tokenSource === "env" ? "STOCKBRIDGE_TOKEN" : credentialsPath(context.io)}`,
  );
  context.out(`Subscription: ${describeSubscription(user.subscription)}`);
  context.out(`Shopify:      ${shopify ? `${shopify.name} (${shopify.storeName})` : "not connected"}`);
  context.out(`Acumatica:    ${acumatica ? `${acumatica.name} (${acumatica.company})` : "not connected"}`);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
