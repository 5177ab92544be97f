import { type Job, MESSAGES } from "@stockbridge/shared";
import type { Command } from "commander";
import { type CommandContext, runCommand } from "../context.ts";
import type { CliIo } from "../io.ts";
import { endJob, followJob, type JobTexts } from "../jobs.ts";
import { formatDateTime } from "../output/format.ts";
import { printJson } from "../output/json.ts";
import { countsText } from "../output/progress-state.ts";
import { printPullSummary } from "./products.ts";
import { reportSync, syncTexts } from "./sync.ts";

/** `jobs show <id>` and `jobs wait <id>` for long work started elsewhere (`--no-wait`, the web app). */
export function registerJobCommands(program: Command, io: CliIo): void {
  const jobs = program.command("jobs").description("long-running work: catalog pulls, auto mapping, syncs");

  jobs
    .command("show")
    .description("a job's state and progress now")
    .argument("<id>", "job id")
    .action((id: string, _options: object, command: Command) =>
      runCommand(io, command, (context) => show(context, id)),
    );

  jobs
    .command("wait")
    .description("follow a job until it ends; exit 1 if it failed (or, for a sync, if any item failed)")
    .argument("<id>", "job id")
    .action((id: string, _options: object, command: Command) =>
      runCommand(io, command, (context) => wait(context, id)),
    );
}

async function show(context: CommandContext, id: string): Promise<void> {
  context.requireSignedIn();
  const job = await context.api.call("job", { params: { id } });
  if (context.json) return printJson(context.io.stdout, job);
  printJob(context, job);
}

async function wait(context: CommandContext, id: string): Promise<void> {
  context.requireSignedIn();
  const job = await context.api.call("job", { params: { id } });
  const texts = jobTexts(job);
  const finished = await followJob(context, job, texts);
  if (finished.kind === "sync") return reportSync(context, finished);
  endJob(context, finished, texts);
  if (!context.json && (finished.kind === "shopify-pull" || finished.kind === "acumatica-pull")) {
    printPullSummary(context, finished);
  }
}

function printJob(context: CommandContext, job: Job): void {
  const counts = countsText(job.progress);
  context.out(`Job ${job._id} (${job.kind})`);
  context.out(`  Status:   ${job.status}`);
  context.out(`  Phase:    ${job.progress.phase}${counts ? ` (${counts})` : ""}`);
  context.out(`  Started:  ${formatDateTime(job.createdAt, { seconds: true })}`);
  context.out(`  Finished: ${formatDateTime(job.finishedAt, { seconds: true })}`);
  if (job.message) context.out(`  Message:  ${job.message}`);
  for (const [key, value] of Object.entries(job.result ?? {})) {
    context.out(`  ${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`);
  }
}

/** The spec's texts for each kind of job, for the progress view and when a job carries no message. */
function jobTexts(job: Job): JobTexts {
  switch (job.kind) {
    case "shopify-pull":
      return {
        label: "Pulling Shopify products",
        succeeded: MESSAGES.products.synchronized,
        failed: MESSAGES.products.syncShopifyFailed,
      };
    case "acumatica-pull":
      return {
        label: "Pulling Acumatica products",
        succeeded: MESSAGES.products.synchronized,
        failed: MESSAGES.products.syncAcumaticaFailed,
      };
    case "auto-map":
      return {
        label: "Auto mapping",
        succeeded: MESSAGES.mapping.autoMapped,
        failed: MESSAGES.mapping.autoMapFailed,
      };
    case "sync":
      return syncTexts(false);
  }
}
