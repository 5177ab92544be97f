// `npm run test:stress -- --runs 10`: the flake hunt of issue #19. Runs the browser and CLI projects
// and every edge test that starts a server process (Deno) N times, with two busy loops pinned to
// the first two cores (taskset, where present) so the product and the tests fight for CPU. Prints
// one line per run (passed, failed, load average, duration, the failed tests by name) and a tally,
// writes it to .test-artifacts/stress.json, and exits non-zero when any run failed. The busy loops
// are killed however the script ends.
import { spawn, spawnSync } from "node:child_process";
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ensureDependencies, ensureWebBuild, ROOT } from "./lib.mjs";

const { values: options } = parseArgs({
  options: {
    runs: { type: "string", default: "10" },
    busy: { type: "string", default: "2" },
  },
});
const runs = Number(options.runs);
const busyCount = Number(options.busy);
if (!Number.isInteger(runs) || runs < 1) fail("--runs must be a whole number of at least 1");
if (!Number.isInteger(busyCount) || busyCount < 0) fail("--busy must be a whole number (0 for none)");

const ARTIFACTS = join(ROOT, ".test-artifacts", "stress");
rmSync(ARTIFACTS, { recursive: true, force: true });
mkdirSync(ARTIFACTS, { recursive: true });

ensureDependencies();
ensureWebBuild();

// Edge tests that start the real server (or another process) are found by what they call, directly
// or through a harness in edge/testing/, so a new one joins the hunt without editing this list.
const EDGE_TESTING = join(ROOT, "edge", "testing");
const startsProcesses = (path) => /\b(startDeno|spawn|execFile)\(/.test(readFileSync(path, "utf8"));
const processHarnesses = readdirSync(EDGE_TESTING).filter(
  (file) => file.endsWith(".ts") && startsProcesses(join(EDGE_TESTING, file)),
);
const serverTests = readdirSync(join(ROOT, "edge", "src"), { recursive: true })
  .filter((file) => file.endsWith(".test.ts"))
  .filter((file) => {
    const path = join(ROOT, "edge", "src", file);
    const text = readFileSync(path, "utf8");
    return startsProcesses(path) || processHarnesses.some((harness) => text.includes(`testing/${harness}"`));
  })
  .map((file) => `edge/src/${file}`);
// Positional filters select files across the chosen projects: all of e2e/ and cli/src/, and only
// the server-process files of the edge project.
const vitestArgs = [
  "vitest",
  "run",
  "--project",
  "browser",
  "--project",
  "cli",
  "--project",
  "edge",
  "e2e/",
  "cli/src/",
  ...serverTests,
];

const busy = startBusyLoops(busyCount);
const stopBusy = () => {
  for (const child of busy) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
};
process.on("exit", stopBusy);
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    stopBusy();
    process.exit(130);
  });
}

console.log(
  `${runs} run(s) of: npx ${vitestArgs.join(" ")}\n` +
    `beside ${busy.length} busy loop(s)${hasTaskset() ? " pinned with taskset" : ""}; logs in ${ARTIFACTS}\n`,
);
const tally = [];
for (let run = 1; run <= runs; run += 1) {
  const result = await runOnce(run);
  tally.push(result);
  const names = result.failedTests.map((name) => `\n      ✗ ${name}`).join("");
  console.log(
    `run ${String(run).padStart(2)}: ${result.passed} passed, ${result.failed} failed, ` +
      `load ${result.loadBefore} -> ${result.loadAfter}, ${result.seconds} s${names}`,
  );
}
stopBusy();

const failedRuns = tally.filter((result) => result.failed > 0 || result.exitCode !== 0);
console.log(`\n${runs - failedRuns.length} of ${runs} runs passed`);
writeFileSync(join(ROOT, ".test-artifacts", "stress.json"), `${JSON.stringify(tally, null, 2)}\n`);
process.exit(failedRuns.length > 0 ? 1 : 0);

async function runOnce(run) {
  const report = join(ARTIFACTS, `run-${run}.json`);
  const log = join(ARTIFACTS, `run-${run}.log`);
  const loadBefore = loadavg()[0].toFixed(2);
  const started = Date.now();
  const exitCode = await new Promise((resolve) => {
    // The log is written as the run goes, so a slow run can be watched (tail -f).
    const output = openSync(log, "w");
    const child = spawn(
      "npx",
      [...vitestArgs, "--reporter=default", "--reporter=json", `--outputFile.json=${report}`],
      { cwd: ROOT, stdio: ["ignore", output, output], env: { ...process.env, FORCE_COLOR: "0" } },
    );
    child.on("close", (code) => {
      closeSync(output);
      resolve(code ?? 1);
    });
  });
  const seconds = Math.round((Date.now() - started) / 1000);
  const loadAfter = loadavg()[0].toFixed(2);
  if (!existsSync(report)) {
    return {
      run,
      passed: 0,
      failed: 1,
      failedTests: ["(no report: see the log)"],
      exitCode,
      loadBefore,
      loadAfter,
      seconds,
    };
  }
  const results = JSON.parse(readFileSync(report, "utf8"));
  const failedTests = [];
  for (const file of results.testResults) {
    const path = file.name.replace(`${ROOT}/`, "");
    const failures = file.assertionResults.filter((test) => test.status === "failed");
    for (const test of failures) failedTests.push(`${path} > ${test.fullName}`);
    // A file that failed outside its tests (a hook, an import) has no failed test to name.
    if (failures.length === 0 && file.status === "failed")
      failedTests.push(`${path} (${firstLine(file.message)})`);
  }
  return {
    run,
    passed: results.numPassedTests,
    failed: Math.max(results.numFailedTests, failedTests.length, exitCode === 0 ? 0 : 1),
    failedTests,
    exitCode,
    loadBefore,
    loadAfter,
    seconds,
  };
}

/** Busy loops pinned one per core with taskset where it exists, else left to the scheduler. */
function startBusyLoops(count) {
  const pin = hasTaskset();
  return Array.from({ length: count }, (_, core) => {
    const loop = [process.execPath, "-e", "for (;;) {}"];
    const cpu = String(core % availableParallelism());
    const [command, ...args] = pin ? ["taskset", "-c", cpu, ...loop] : loop;
    return spawn(command, args, { stdio: "ignore" });
  });
}

function hasTaskset() {
  return spawnSync("taskset", ["-c", "0", "true"], { stdio: "ignore" }).status === 0;
}

function firstLine(message) {
  return String(message ?? "failed")
    .split("\n")[0]
    .slice(0, 200);
}

function fail(message) {
  console.error(message);
  process.exit(2);
}
