// `npm run bench -- cli-startup`: how long the installed CLI takes to print `--help` (target: under
// 300 ms), beside the floor of any Node program (`node -e ""`, nothing loaded) and the CLI's
// `--version`. Spawns real processes of the built CLI (cli/dist, built first if missing) one after
// the other; prints medians of 15 runs and the machine's load. Nothing is asserted.
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { ROOT } from "./bench-support.ts";

const RUNS = 15;
const CLI = `${ROOT}cli/bin/stockbridge.mjs`;

if (!existsSync(`${ROOT}cli/dist`)) {
  const built = await new Deno.Command("npm", {
    args: ["run", "build", "--workspace", "cli"],
    cwd: ROOT,
  }).output();
  if (!built.success) throw new Error("building the CLI failed");
}

async function timeOf(args: string[]): Promise<number> {
  const started = performance.now();
  const run = await new Deno.Command("node", {
    args,
    cwd: ROOT,
    // An empty config dir: no saved session is read, as on a fresh install.
    env: { STOCKBRIDGE_CONFIG_DIR: await Deno.makeTempDir(), NO_COLOR: "1" },
    stdout: "null",
    stderr: "null",
  }).output();
  const elapsed = performance.now() - started;
  if (!run.success) throw new Error(`node ${args.join(" ")} exited ${run.code}`);
  return elapsed;
}

async function median(args: string[]): Promise<{ median: number; all: number[] }> {
  await timeOf(args); // warm the file cache, as a second call of the day would be
  const all: number[] = [];
  for (let run = 0; run < RUNS; run += 1) all.push(await timeOf(args));
  const sorted = [...all].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)]!, all };
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(", ");
console.log(`machine load (1, 5, 15 min) at start: ${load()}`);
const floor = await median(["-e", ""]);
const help = await median([CLI, "--help"]);
const version = await median([CLI, "--version"]);
const line = (label: string, figure: { median: number }) =>
  console.log(
    `  ${label.padEnd(28)} median ${figure.median.toFixed(0).padStart(4)} ms (${(figure.median - floor.median).toFixed(0)} ms above the floor)`,
  );
console.log(`CLI start-up, ${RUNS} runs each (target: --help under 300 ms)`);
line('floor: node -e ""', floor);
line("stockbridge --help", help);
line("stockbridge --version", version);
console.log(`machine load (1, 5, 15 min) at end: ${load()}`);
