// `npm test`: every check and test — lint and format, types (tsc and deno check), then one vitest
// run over unit, API, Deno-server, sandbox-conformance and Chromium tests. Installs what it needs.
// Ends with `N passed, N failed` summed over every runner, and exits non-zero on any failure.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DENO, ensureCliBuild, ensureDependencies, ensureWebBuild, ROOT } from "./lib.mjs";

const ARTIFACTS = join(ROOT, ".test-artifacts");
mkdirSync(ARTIFACTS, { recursive: true });
let passed = 0;
let failed = 0;

ensureDependencies();
ensureChromium();

check("lint and format (biome)", "npx", ["biome", "check", "."]);
for (const pkg of ["shared", "edge", "sandbox", "web", "e2e", "cli"]) {
  check(`types: ${pkg} (tsc)`, "npx", ["tsc", "-p", `${pkg}/tsconfig.json`]);
}
for (const entry of ["edge/main.ts", "sandbox/main.ts", "scripts/openapi.ts", "bench/*.ts"]) {
  const files = entry.includes("*")
    ? readdirSync(join(ROOT, "bench"))
        .filter((file) => file.endsWith(".ts"))
        .map((file) => `bench/${file}`)
    : [entry];
  check(`types: ${entry} (deno check)`, DENO, ["check", "--config", "deno.json", ...files]);
}
// The OpenAPI document, generated from the contract, must pass Redocly's recommended rules
// (redocly.yaml; .redocly.lint-ignore.yaml names each skipped problem with its reason).
const openApiFile = join(".test-artifacts", "openapi.json");
check("API document: generate", DENO, [
  "run",
  "--config",
  "deno.json",
  "--allow-read",
  `--allow-write=${openApiFile}`,
  "scripts/openapi.ts",
  openApiFile,
]);
check("API document: redocly lint", "npx", ["redocly", "lint", openApiFile], {
  REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
});
ensureWebBuild();
ensureCliBuild();

const report = join(ARTIFACTS, "vitest.json");
const vitest = spawnSync(
  "npx",
  [
    "vitest",
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${report}`,
    ...process.argv.slice(2),
  ],
  {
    cwd: ROOT,
    stdio: "inherit",
  },
);
if (existsSync(report)) {
  const results = JSON.parse(readFileSync(report, "utf8"));
  passed += results.numPassedTests;
  failed += results.numFailedTests;
  // A file that failed to load has no failed tests but must still fail the run.
  if (vitest.status !== 0 && results.numFailedTests === 0) failed += Math.max(1, results.numFailedTestSuites);
} else {
  failed += 1;
}

const summary = `${passed} passed, ${failed} failed`;
writeFileSync(join(ARTIFACTS, "summary.txt"), `${summary}\n`);
console.log(`\n${summary}`);
process.exit(failed > 0 || vitest.status !== 0 ? 1 : 0);

function check(name, command, args, env = {}) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: "inherit", env: { ...process.env, ...env } });
  if (result.status === 0) {
    passed += 1;
    console.log(`ok   ${name}`);
  } else {
    failed += 1;
    console.log(`FAIL ${name}`);
  }
}

/** Browser tests need Debian's Chromium: installed here when we are root, otherwise we say how. */
function ensureChromium() {
  const path = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (existsSync(path)) return;
  if (process.getuid?.() !== 0) {
    console.error(
      `Chromium is missing at ${path}. Install it with:\n\n  sudo apt-get update && sudo apt-get install -y chromium\n`,
    );
    process.exit(1);
  }
  console.log("Installing Chromium (apt-get install chromium)...");
  for (const args of [["update"], ["install", "-y", "--no-install-recommends", "chromium"]]) {
    const result = spawnSync("apt-get", args, {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
    if (result.status !== 0) {
      console.error("Installing Chromium failed; see the apt-get output above.");
      process.exit(1);
    }
  }
}
