#!/usr/bin/env node
// Runs the TypeScript sources on Node 20 through tsx, no build step. The CLI's own tsconfig is named
// explicitly: tsx would otherwise look for one in the caller's working directory.
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

// `stockbridge history list | head -3`: a reader that stopped reading is not an error worth a stack.
process.stdout.on("error", (error) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});

register({ tsconfig: fileURLToPath(new URL("../tsconfig.json", import.meta.url)) });
const { run } = await import("../src/main.ts");
const { nodeIo } = await import("../src/io.ts");
process.exitCode = await run(process.argv.slice(2), nodeIo());
