// `npm run bench`: runs every benchmark in bench/ under Deno, one after the other, and prints their
// figures. A benchmark is a bench/*.ts file that exports nothing (files that export are helpers).
// Nothing is asserted; the exit code is non-zero only when a benchmark crashes.
// Pass file names to run only those: `npm run bench -- catalog-list`; options (`--quick`, `--sizes 10,500`)
// go to the benchmarks run: `npm run bench -- sync --quick`.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DENO, ensureDependencies, ROOT } from "./lib.mjs";

ensureDependencies();
const args = process.argv.slice(2);
const optionAt = args.findIndex((arg) => arg.startsWith("--"));
const only = optionAt < 0 ? args : args.slice(0, optionAt);
const options = optionAt < 0 ? [] : args.slice(optionAt);
const benches = readdirSync(join(ROOT, "bench"))
  .filter((file) => file.endsWith(".ts"))
  .filter((file) => !/^\s*export\s/m.test(readFileSync(join(ROOT, "bench", file), "utf8")))
  .filter((file) => only.length === 0 || only.some((name) => file.includes(name)))
  .sort();

let failed = 0;
for (const file of benches) {
  console.log(`\n=== bench/${file} ===`);
  const started = Date.now();
  const result = spawnSync(
    DENO,
    ["run", "--config", join(ROOT, "deno.json"), "-A", join("bench", file), ...options],
    {
      cwd: ROOT,
      stdio: "inherit",
    },
  );
  console.log(
    `=== bench/${file}: ${result.status === 0 ? "done" : `exit ${result.status ?? result.signal}`} in ${((Date.now() - started) / 1000).toFixed(0)} s ===`,
  );
  if (result.status !== 0) failed += 1;
}
if (benches.length === 0) console.log("No benchmarks matched.");
process.exit(failed > 0 ? 1 : 0);
