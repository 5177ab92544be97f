import {
  ACUMATICA_QUANTITY_FIELDS,
  type LocationMapping,
  MESSAGES,
  type NotificationSettings,
  type NotificationSettingsInput,
  type PriceMapping,
  type QuantityMapping,
  type SafetyLimits,
  type Settings,
  SHOPIFY_QUANTITY_FIELDS,
  type ShopifyLocation,
} from "@stockbridge/shared";
import { type Command, InvalidArgumentError, Option } from "commander";
import { type CommandContext, runCommand } from "../context.ts";
import { usageError } from "../errors.ts";
import type { CliIo } from "../io.ts";
import { printJson } from "../output/json.ts";

interface SetOptions {
  syncPrice?: boolean;
  syncMsrp?: boolean;
  acumaticaQuantity?: QuantityMapping["acumaticaQuantity"];
  shopifyQuantity?: QuantityMapping["shopifyQuantity"];
  maxPriceChange?: number;
  maxZeroed?: number;
  email?: string;
  webhookUrl?: string;
  onFailed?: boolean;
  onPartial?: boolean;
  onMissed?: boolean;
  onHeld?: boolean;
  location?: LocationFeedOption[];
}

/** One `--location "<location>=<warehouse>,..."`: the location by id or name, as typed. */
interface LocationFeedOption {
  location: string;
  warehouseIds: string[];
}

/** Everything `settings show` reads: the Mapping tab's cards and Settings > Notifications. */
interface AllSettings extends Settings {
  safetyLimits: SafetyLimits;
  notifications: NotificationSettings;
}

/**
 * `settings show` and `settings set`: the Mapping tab's Price Mapping, Quantity Mapping and Safety
 * Limits cards, and Settings > Notifications (where alerts go and which kinds do).
 */
export function registerSettingsCommands(program: Command, io: CliIo): void {
  const settings = program
    .command("settings")
    .description("what a sync writes (price and quantity mapping), its safety limits, and alerts");

  settings
    .command("show")
    .description("the price and quantity mapping, the safety limits and the alert settings")
    .action((_options: object, command: Command) => runCommand(io, command, show));

  settings
    .command("set")
    .description("change mapping, safety limits and/or alerts (flags left out keep their value)")
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
    .option(
      "--max-price-change <percent>",
      "hold a run for review when a price moves by more than this (0 turns it off)",
      percentValue("--max-price-change"),
    )
    .option(
      "--max-zeroed <percent>",
      "hold a run for review when more than this share of its quantities go to 0 (0 turns it off)",
      percentValue("--max-zeroed"),
    )
    .option("--email <address>", 'where alert emails go ("" turns email alerts off)')
    .option("--webhook-url <url>", 'where alert webhooks go ("" turns webhook alerts off)')
    .option("--on-failed", "alert by email and webhook when a run fails")
    .option("--no-on-failed", "no email or webhook when a run fails")
    .option("--on-partial", "alert by email and webhook when a run has failed items")
    .option("--no-on-partial", "no email or webhook when a run has failed items")
    .option("--on-missed", "alert by email and webhook when a schedule is missed")
    .option("--no-on-missed", "no email or webhook when a schedule is missed")
    .option("--on-held", "alert by email and webhook when a run is held for review")
    .option("--no-on-held", "no email or webhook when a run is held for review")
    .option(
      "--location <location=warehouses>",
      'a Shopify location (id or name) and the ERP warehouses that feed it, e.g. "Main Warehouse=WHOLESALE,RETAIL"; repeat for each location (the given ones replace the location mapping)',
      locationFeed,
    )
    .action((options: SetOptions, command: Command) =>
      runCommand(io, command, (context) => set(context, options)),
    );
}

async function show(context: CommandContext): Promise<void> {
  context.requireSignedIn();
  const [mapping, safetyLimits, notifications] = await Promise.all([
    context.api.call("settings"),
    context.api.call("safetyLimits"),
    context.api.call("notificationSettings"),
  ]);
  const data: AllSettings = { ...mapping, safetyLimits, notifications };
  if (context.json) return printJson(context.io.stdout, data);
  printSettings(context, data, await locationsIfKnown(context));
}

/** Each card is saved on its own (its own endpoint), and only when one of its flags was given. */
async function set(context: CommandContext, options: SetOptions): Promise<void> {
  const priceChange = options.syncPrice !== undefined || options.syncMsrp !== undefined;
  const quantityChange = options.acumaticaQuantity !== undefined || options.shopifyQuantity !== undefined;
  const safetyChange = options.maxPriceChange !== undefined || options.maxZeroed !== undefined;
  const alertChange = NOTIFICATION_FLAGS.some((flag) => options[flag] !== undefined);
  const locationChange = options.location !== undefined;
  if (!priceChange && !quantityChange && !safetyChange && !alertChange && !locationChange) {
    throw usageError(
      "Nothing to set: use --sync-price, --sync-msrp (or their --no- forms), --acumatica-quantity, --shopify-quantity, --max-price-change, --max-zeroed, --email, --webhook-url, --[no-]on-failed|partial|missed|held or --location.",
    );
  }
  context.requireSignedIn();
  const [current, currentLimits, currentAlerts] = await Promise.all([
    context.api.call("settings"),
    context.api.call("safetyLimits"),
    context.api.call("notificationSettings"),
  ]);
  const saved: string[] = [];
  let { priceMapping, quantityMapping, locationMapping } = current;
  let safetyLimits = currentLimits;
  let notifications = currentAlerts;
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
  if (options.location) {
    const body = await locationMappingOf(context, options.location);
    ({ locationMapping } = await context.api.call("saveLocationMapping", { body }));
    saved.push(MESSAGES.settings.locationSaved);
  }
  if (safetyChange) {
    const body: SafetyLimits = {
      maxPriceChangePercent: options.maxPriceChange ?? safetyLimits.maxPriceChangePercent,
      maxZeroedPercent: options.maxZeroed ?? safetyLimits.maxZeroedPercent,
    };
    safetyLimits = await context.api.call("saveSafetyLimits", { body });
    saved.push(MESSAGES.settings.safetySaved);
  }
  if (alertChange) {
    // An empty --email or --webhook-url is sent as is: the server reads blank as "off".
    const body: NotificationSettingsInput = {
      email: options.email ?? notifications.email,
      webhookUrl: options.webhookUrl ?? notifications.webhookUrl,
      onFailed: options.onFailed ?? notifications.onFailed,
      onPartial: options.onPartial ?? notifications.onPartial,
      onMissed: options.onMissed ?? notifications.onMissed,
      onHeld: options.onHeld ?? notifications.onHeld,
    };
    notifications = await context.api.call("saveNotificationSettings", { body });
    saved.push(MESSAGES.notifications.settingsSaved);
  }
  const data: AllSettings = { priceMapping, quantityMapping, locationMapping, safetyLimits, notifications };
  if (context.json) return printJson(context.io.stdout, data);
  for (const line of saved) context.out(line);
  printSettings(context, data, await locationsIfKnown(context));
}

/** Parses one `--location`; repeated flags collect into a list. */
function locationFeed(text: string, previous: LocationFeedOption[] = []): LocationFeedOption[] {
  const at = text.lastIndexOf("=");
  const location = at < 0 ? "" : text.slice(0, at).trim();
  if (!location) {
    throw new InvalidArgumentError(
      '--location must be "<location>=<warehouse>,<warehouse>..." (the location by id or name).',
    );
  }
  const warehouseIds = text
    .slice(at + 1)
    .split(",")
    .map((id) => id.trim())
    .filter(Boolean);
  return [...previous, { location, warehouseIds }];
}

/**
 * The body to save: each location named by id or (case-insensitively) by name. An id or name the
 * store does not have is sent as typed, so the server's 400 names the rule it breaks.
 */
async function locationMappingOf(
  context: CommandContext,
  feeds: readonly LocationFeedOption[],
): Promise<LocationMapping> {
  const locations = await context.api.call("shopifyLocations");
  return {
    locations: feeds.map((feed) => {
      const named = locations.filter(
        (location) => location.name.toLowerCase() === feed.location.toLowerCase(),
      );
      const byId = locations.find((location) => location.id === feed.location);
      const id = byId?.id ?? (named.length === 1 ? named[0]!.id : feed.location);
      return { shopifyLocationId: id, warehouseIds: feed.warehouseIds };
    }),
  };
}

/** The store's locations for names, or none (no Shopify connection yet): ids are shown instead. */
async function locationsIfKnown(context: CommandContext): Promise<ShopifyLocation[]> {
  try {
    return await context.api.call("shopifyLocations");
  } catch {
    return [];
  }
}

/**
 * A limit's value must be a number; its range (whole, 0 to 1000 or 100) is the server's rule, so
 * the server's 400 names it rather than a second copy of it here.
 */
function percentValue(flag: string): (text: string) => number {
  return (text) => {
    const value = Number(text.trim());
    if (text.trim() === "" || !Number.isFinite(value)) {
      throw new InvalidArgumentError(`${flag} must be a number (a percentage; 0 turns the limit off).`);
    }
    return value;
  };
}

const NOTIFICATION_FLAGS = ["email", "webhookUrl", "onFailed", "onPartial", "onMissed", "onHeld"] as const;

function printSettings(context: CommandContext, settings: AllSettings, locations: ShopifyLocation[]): void {
  const { priceMapping, quantityMapping, locationMapping, safetyLimits, notifications } = settings;
  const onOff = (on: boolean) => (on ? "on" : "off");
  const limit = (percent: number) => (percent === 0 ? "off" : `${percent} %`);
  context.out("Price Mapping");
  context.out(`  Price (ERP default price → Shopify price):  ${onOff(priceMapping.syncPrice)}`);
  context.out(`  MSRP (ERP MSRP → Shopify compare-at price): ${onOff(priceMapping.syncMsrp)}`);
  context.out("Quantity Mapping");
  context.out(`  Acumatica quantity: ${quantityMapping.acumaticaQuantity}`);
  context.out(`  Shopify quantity:   ${quantityMapping.shopifyQuantity}`);
  context.out("Location Mapping");
  if (locationMapping.locations.length === 0)
    context.out("  The primary Shopify location, fed by every warehouse (the default)");
  const nameOf = (id: string) => locations.find((location) => location.id === id)?.name ?? id;
  for (const feed of locationMapping.locations)
    context.out(`  ${nameOf(feed.shopifyLocationId)} ← ${feed.warehouseIds.join(", ") || "no warehouse"}`);
  context.out("Safety Limits");
  context.out(`  Maximum price change:        ${limit(safetyLimits.maxPriceChangePercent)}`);
  context.out(`  Maximum quantities set to 0: ${limit(safetyLimits.maxZeroedPercent)}`);
  context.out("Notifications");
  const emailNote = notifications.emailEnabled ? "" : " (this server sends no email)";
  context.out(`  Email:   ${notifications.email ?? "off"}${notifications.email ? emailNote : ""}`);
  context.out(`  Webhook: ${notifications.webhookUrl ?? "off"}`);
  context.out(
    `  Signing secret: ${notifications.webhookSecretSet ? "set" : "none (create it in the web app)"}`,
  );
  context.out(
    `  Alert on: failed ${onOff(notifications.onFailed)}, partial ${onOff(notifications.onPartial)}, missed ${onOff(notifications.onMissed)}, held ${onOff(notifications.onHeld)}`,
  );
}
