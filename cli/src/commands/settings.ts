import {
  ACUMATICA_QUANTITY_FIELDS,
  MESSAGES,
  type PriceMapping,
  type QuantityMapping,
  type Settings,
  SHOPIFY_QUANTITY_FIELDS,
} from "@stockbridge/shared";
import { type Command, Option } from "commander";
import { type CommandContext, runCommand } from "../context.ts";
import { usageError } from "../errors.ts";
import type { CliIo } from "../io.ts";
import { printJson } from "../output/json.ts";

interface SetOptions {
  syncPrice?: boolean;
  syncMsrp?: boolean;
  acumaticaQuantity?: QuantityMapping["acumaticaQuantity"];
  shopifyQuantity?: QuantityMapping["shopifyQuantity"];
}

/** `settings show` and `settings set`: the Mapping tab's Price Mapping and Quantity Mapping cards. */
export function registerSettingsCommands(program: Command, io: CliIo): void {
  const settings = program.command("settings").description("what a sync writes: price and quantity mapping");

  settings
    .command("show")
    .description("the price and quantity mapping settings")
    .action((_options: object, command: Command) => runCommand(io, command, show));

  settings
    .command("set")
    .description("change price and/or quantity mapping (flags left out keep their value)")
    .option("--sync-price", "sync the ERP default price to the Shopify price")
    .option("--no-sync-price", "leave Shopify prices alone")
    .option("--sync-msrp", "sync the ERP MSRP to the Shopify compare-at price")
    .option("--no-sync-msrp", "leave compare-at prices alone")
    .addOption(
      new Option("--acumatica-quantity <field>", "ERP quantity to send").choices(ACUMATICA_QUANTITY_FIELDS),
    )
    .addOption(
      new Option("--shopify-quantity <field>", "Shopify quantity to set").choices(SHOPIFY_QUANTITY_FIELDS),
    )
    .action((options: SetOptions, command: Command) =>
      runCommand(io, command, (context) => set(context, options)),
    );
}

async function show(context: CommandContext): Promise<void> {
  context.requireSignedIn();
  const data = await context.api.call("settings");
  if (context.json) return printJson(context.io.stdout, data);
  printSettings(context, data);
}

/** Each card is saved on its own (two endpoints), and only when one of its flags was given. */
async function set(context: CommandContext, options: SetOptions): Promise<void> {
  const priceChange = options.syncPrice !== undefined || options.syncMsrp !== undefined;
  const quantityChange = options.acumaticaQuantity !== undefined || options.shopifyQuantity !== undefined;
  if (!priceChange && !quantityChange) {
    throw usageError(
      "Nothing to set: use --sync-price, --sync-msrp (or their --no- forms), --acumatica-quantity or --shopify-quantity.",
    );
  }
  context.requireSignedIn();
  const current = await context.api.call("settings");
  const saved: string[] = [];
  let { priceMapping, quantityMapping } = current;
  if (priceChange) {
    const body: PriceMapping = {
      syncPrice: options.syncPrice ?? priceMapping.syncPrice,
      syncMsrp: options.syncMsrp ?? priceMapping.syncMsrp,
    };
    ({ priceMapping } = await context.api.call("savePriceMapping", { body }));
    saved.push(MESSAGES.settings.priceSaved);
  }
  if (quantityChange) {
    const body: QuantityMapping = {
      acumaticaQuantity: options.acumaticaQuantity ?? quantityMapping.acumaticaQuantity,
      shopifyQuantity: options.shopifyQuantity ?? quantityMapping.shopifyQuantity,
    };
    ({ quantityMapping } = await context.api.call("saveQuantityMapping", { body }));
    saved.push(MESSAGES.settings.quantitySaved);
  }
  if (context.json) return printJson(context.io.stdout, { priceMapping, quantityMapping });
  for (const line of saved) context.out(line);
  printSettings(context, { priceMapping, quantityMapping });
}

function printSettings(context: CommandContext, settings: Settings): void {
  const { priceMapping, quantityMapping } = settings;
  const onOff = (on: boolean) => (on ? "on" : "off");
  context.out("Price Mapping");
  context.out(`  Price (ERP default price → Shopify price):  ${onOff(priceMapping.syncPrice)}`);
  context.out(`  MSRP (ERP MSRP → Shopify compare-at price): ${onOff(priceMapping.syncMsrp)}`);
  context.out("Quantity Mapping");
  context.out(`  Acumatica quantity: ${quantityMapping.acumaticaQuantity}`);
  context.out(`  Shopify quantity:   ${quantityMapping.shopifyQuantity}`);
}
