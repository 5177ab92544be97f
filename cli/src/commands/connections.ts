import {
  type AcumaticaConnection,
  type Connections,
  MESSAGES,
  type ShopifyConnection,
} from "@stockbridge/shared";
import type { Command } from "commander";
import { type CommandContext, runCommand } from "../context.ts";
import type { CliIo } from "../io.ts";
import { type System, systemArgument } from "../options.ts";
import { describeTestState } from "../output/describe.ts";
import { printJson } from "../output/json.ts";
import { registerConnectionSaveCommands } from "./connections-save.ts";

/** `connections` (both cards), `connections test <system>` and `connections save <system>`. Secrets are never shown. */
export function registerConnectionCommands(program: Command, io: CliIo): void {
  const connections = program
    .command("connections")
    .description("show the Shopify and Acumatica connections (secrets are never shown)")
    .action((_options: object, command: Command) => runCommand(io, command, showConnections));

  connections
    .command("test")
    .description("test a saved connection against the outside system")
    .addArgument(systemArgument())
    .action((system: System, _options: object, command: Command) =>
      runCommand(io, command, (context) => testConnection(context, system)),
    );

  registerConnectionSaveCommands(connections, io);
}

async function showConnections(context: CommandContext): Promise<void> {
  context.requireSignedIn();
  const data = await context.api.call("getConnections");
  if (context.json) return printJson(context.io.stdout, data);
  printCards(context, data);
}

async function testConnection(context: CommandContext, system: System): Promise<void> {
  context.requireSignedIn();
  // A failed test answers 502 with the system's own reason; it leaves as the command's error (exit 1).
  if (system === "shopify") {
    const connection = await context.api.call("testShopify");
    if (context.json) return printJson(context.io.stdout, connection);
    context.out(MESSAGES.connections.shopifyTestOk);
    printShopify(context, connection);
  } else {
    const connection = await context.api.call("testAcumatica");
    if (context.json) return printJson(context.io.stdout, connection);
    context.out(MESSAGES.connections.acumaticaTestOk);
    printAcumatica(context, connection);
  }
}

function printCards(context: CommandContext, data: Connections): void {
  if (data.shopifyConnection) printShopify(context, data.shopifyConnection);
  else context.out("Shopify: not connected (save it with `stockbridge connections save shopify`)");
  context.out();
  if (data.acumaticaConnection) printAcumatica(context, data.acumaticaConnection);
  else context.out("Acumatica: not connected (save it with `stockbridge connections save acumatica`)");
}

function printShopify(context: CommandContext, connection: ShopifyConnection): void {
  const served =
    connection.servedApiVersion && connection.servedApiVersion !== connection.apiVersion
      ? ` (Shopify serves ${connection.servedApiVersion})`
      : "";
  printCard(context, `Shopify: ${connection.name}`, [
    ["Store", connection.storeName],
    ["API version", `${connection.apiVersion}${served}`],
    ["Access token", connection.accessTokenSet ? "set" : "not set"],
    ["Status", describeTestState(connection)],
  ]);
}

function printAcumatica(context: CommandContext, connection: AcumaticaConnection): void {
  printCard(context, `Acumatica: ${connection.name}`, [
    ["Instance", connection.instanceUri],
    ["Endpoint", `${connection.endpointName} ${connection.apiVersion}`],
    ["Company", connection.company],
    ["Username", connection.username],
    ["Password", connection.passwordSet ? "set" : "not set"],
    ["Status", describeTestState(connection)],
  ]);
}

function printCard(context: CommandContext, title: string, fields: Array<[string, string]>): void {
  const width = Math.max(...fields.map(([label]) => label.length)) + 1;
  context.out(title);
  for (const [label, value] of fields) context.out(`  ${`${label}:`.padEnd(width + 1)}${value}`);
}
