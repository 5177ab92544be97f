import { formatMoney, type Plan } from "@stockbridge/shared";
import type { Command } from "commander";
import { type CommandContext, runCommand } from "../context.ts";
import { CliError } from "../errors.ts";
import type { CliIo } from "../io.ts";
import { describeSubscription } from "../output/describe.ts";
import { printJson } from "../output/json.ts";
import { type Column, printTable } from "../output/table.ts";

/** `subscription status|plans|checkout`: the subscription screens; paying happens on the checkout page. */
export function registerSubscriptionCommands(program: Command, io: CliIo): void {
  const subscription = program
    .command("subscription")
    .description("the plan this account is on, and subscribing");

  subscription
    .command("status")
    .description("the current subscription and whether it gives access")
    .action((_options: object, command: Command) => runCommand(io, command, status));

  subscription
    .command("plans")
    .description("the plans on offer")
    .action((_options: object, command: Command) => runCommand(io, command, plans));

  subscription
    .command("checkout")
    .description("start a checkout for a plan and print the page to pay on")
    .argument("<plan>", "plan name (e.g. Starter) or its price id (from `subscription plans`)")
    .action((plan: string, _options: object, command: Command) =>
      runCommand(io, command, (context) => checkout(context, plan)),
    );
}

async function status(context: CommandContext): Promise<void> {
  context.requireSignedIn();
  const data = await context.api.call("subscriptionStatus");
  if (context.json) return printJson(context.io.stdout, data);
  context.out(`Subscription: ${describeSubscription(data.subscription)}`);
  context.out(`Access:       ${data.hasAccess ? "yes" : "no"}`);
}

async function plans(context: CommandContext): Promise<void> {
  context.requireSignedIn();
  const data = await context.api.call("plans");
  if (context.json) return printJson(context.io.stdout, data);
  await printTable(context, PLAN_COLUMNS, data);
}

/** The checkout page's URL on stdout (`{ url }` with --json), to open in a browser. */
async function checkout(context: CommandContext, wanted: string): Promise<void> {
  context.requireSignedIn();
  const offered = await context.api.call("plans");
  const plan = offered.find(
    (candidate) =>
      candidate.stripePriceId === wanted || candidate.name.toLowerCase() === wanted.trim().toLowerCase(),
  );
  if (!plan) {
    throw new CliError(`No plan "${wanted}": choose one of ${offered.map((p) => p.name).join(", ")}.`, {
      code: "NOT_FOUND",
    });
  }
  const session = await context.api.call("createCheckoutSession", { body: { priceId: plan.stripePriceId } });
  if (context.json) return printJson(context.io.stdout, session);
  context.err(`Open this page to pay for ${plan.name} (${priceText(plan)}):`);
  context.out(session.url);
}

function priceText(plan: Plan): string {
  return `$${formatMoney(plan.price)} per ${plan.interval}`;
}

const PLAN_COLUMNS: ReadonlyArray<Column<Plan>> = [
  { header: "Name", value: (row) => row.name },
  { header: "Price", value: priceText },
  { header: "Features", value: (row) => row.features.join(", ") },
  { header: "Price ID", value: (row) => row.stripePriceId },
];
