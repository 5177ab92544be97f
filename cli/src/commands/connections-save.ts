import { ACUMATICA_API_VERSIONS, MESSAGES, SHOPIFY_API_VERSIONS } from "@stockbridge/shared";
import { type Command, Option } from "commander";
import { type CommandContext, runCommand } from "../context.ts";
import { usageError } from "../errors.ts";
import { type CliIo, readAll } from "../io.ts";
import { printJson } from "../output/json.ts";

interface ShopifyOptions {
  name?: string;
  apiVersion?: (typeof SHOPIFY_API_VERSIONS)[number];
  store?: string;
  accessTokenStdin?: boolean;
}

interface AcumaticaOptions {
  name?: string;
  apiVersion?: (typeof ACUMATICA_API_VERSIONS)[number];
  instanceUrl?: string;
  endpoint?: string;
  username?: string;
  company?: string;
  passwordStdin?: boolean;
}

const SHOPIFY_SECRET = "STOCKBRIDGE_SHOPIFY_ACCESS_TOKEN";
const ACUMATICA_SECRET = "STOCKBRIDGE_ACUMATICA_PASSWORD";

/**
 * `connections save shopify|acumatica`. Flags left out keep the saved connection's values; secrets
 * come only from stdin or the environment (a flag would show in `ps` and shell history), and left
 * out they keep the saved secret. The server validates and answers which field is wrong.
 */
export function registerConnectionSaveCommands(connections: Command, io: CliIo): void {
  const save = connections.command("save").description("save a connection (secrets from stdin or env only)");

  save
    .command("shopify")
    .description(`save the Shopify connection (access token: --access-token-stdin or ${SHOPIFY_SECRET})`)
    .option("--name <name>", "connection name")
    .addOption(new Option("--api-version <version>", "Admin API version").choices(SHOPIFY_API_VERSIONS))
    .option("--store <name>", "store name (the part before .myshopify.com)")
    .option("--access-token-stdin", "read the Admin API access token from stdin")
    .action((options: ShopifyOptions, command: Command) =>
      runCommand(io, command, (context) => saveShopify(context, options)),
    );

  save
    .command("acumatica")
    .description(`save the Acumatica connection (password: --password-stdin or ${ACUMATICA_SECRET})`)
    .option("--name <name>", "connection name")
    .addOption(new Option("--api-version <version>", "endpoint version").choices(ACUMATICA_API_VERSIONS))
    .option("--instance-url <url>", "instance URL (https://...)")
    .option("--endpoint <name>", "web service endpoint name")
    .option("--username <name>", "user name")
    .option("--company <name>", "company (tenant)")
    .option("--password-stdin", "read the password from stdin")
    .action((options: AcumaticaOptions, command: Command) =>
      runCommand(io, command, (context) => saveAcumatica(context, options)),
    );
}

async function saveShopify(context: CommandContext, options: ShopifyOptions): Promise<void> {
  const accessToken = await readSecret(context, {
    fromStdin: options.accessTokenStdin,
    variable: SHOPIFY_SECRET,
    flag: "--access-token-stdin",
  });
  context.requireSignedIn();
  const saved = (await context.api.call("getConnections")).shopifyConnection;
  const connection = await context.api.call("saveShopify", {
    body: {
      name: options.name ?? saved?.name ?? "",
      apiVersion: options.apiVersion ?? versionOf(SHOPIFY_API_VERSIONS, saved?.apiVersion),
      storeName: options.store ?? saved?.storeName ?? "",
      accessToken,
    },
  });
  if (context.json) return printJson(context.io.stdout, connection);
  context.out(MESSAGES.connections.shopifyUpdated);
  context.out("Test it with `stockbridge connections test shopify`.");
}

async function saveAcumatica(context: CommandContext, options: AcumaticaOptions): Promise<void> {
  const password = await readSecret(context, {
    fromStdin: options.passwordStdin,
    variable: ACUMATICA_SECRET,
    flag: "--password-stdin",
  });
  context.requireSignedIn();
  const saved = (await context.api.call("getConnections")).acumaticaConnection;
  const connection = await context.api.call("saveAcumatica", {
    body: {
      name: options.name ?? saved?.name ?? "",
      apiVersion: options.apiVersion ?? versionOf(ACUMATICA_API_VERSIONS, saved?.apiVersion),
      instanceUri: options.instanceUrl ?? saved?.instanceUri ?? "",
      endpointName: options.endpoint ?? saved?.endpointName ?? "",
      username: options.username ?? saved?.username ?? "",
      company: options.company ?? saved?.company ?? "",
      password,
    },
  });
  if (context.json) return printJson(context.io.stdout, connection);
  context.out(MESSAGES.connections.acumaticaUpdated);
  context.out("Test it with `stockbridge connections test acumatica`.");
}

/** The secret from stdin (final line break dropped), else the variable, else "" (keep the saved one). */
async function readSecret(
  context: CommandContext,
  { fromStdin, variable, flag }: { fromStdin: boolean | undefined; variable: string; flag: string },
): Promise<string> {
  if (fromStdin) {
    const secret = (await readAll(context.io.stdin)).replace(/\r?\n$/, "");
    if (!secret) throw usageError(`${flag} read an empty secret.`);
    return secret;
  }
  return context.io.env[variable] ?? "";
}

/** `--api-version`, else the saved connection's while it is still on offer. */
function versionOf<T extends string>(choices: readonly T[], saved: string | undefined): T {
  const found = choices.find((choice) => choice === saved);
  if (found) return found;
  throw usageError(
    saved
      ? `--api-version is required: the saved version ${saved} is not one of ${choices.join(", ")}.`
      : `--api-version is required for a new connection (one of ${choices.join(", ")}).`,
  );
}
