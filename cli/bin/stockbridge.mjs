#!/usr/bin/env node
// Runs the built CLI (`dist/`, plain JavaScript made by `npm run build --workspace cli`; `npm start`
// and `npm test` build it when its sources changed). The path is a URL so the type check of this
// file does not descend into the bundle.
const entry = new URL("../dist/index.js", import.meta.url);
let cli;
try {
  cli = await import(entry.href);
} catch (error) {
  const notBuilt = error instanceof Error && "code" in error && error.code === "ERR_MODULE_NOT_FOUND";
  if (!notBuilt || !error.message.includes(entry.pathname)) throw error;
  console.error("The Stockbridge CLI is not built yet: run `npm run build --workspace cli`.");
  process.exit(1);
}

// `stockbridge history list | head -3`: a reader that stopped reading is not an error worth a stack.
process.stdout.on("error", (error) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});

process.exitCode = await cli.run(process.argv.slice(2), cli.nodeIo());
