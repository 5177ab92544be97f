import { defineConfig } from "tsup";

// The CLI as plain JavaScript for Node 20: commander, ink and react stay dependencies; the workspace's
// own `@stockbridge/shared` (never published) and what it uses are bundled in. Ink loads in chunks of
// its own (the commands import it only for a terminal), so `--help` and scripts never pay for it.
export default defineConfig({
  entry: { index: "src/index.ts" },
  format: ["esm"],
  platform: "node",
  target: "node20",
  outDir: "dist",
  splitting: true,
  clean: true,
  noExternal: ["@stockbridge/shared"],
  external: ["commander", "ink", "react"],
  tsconfig: "tsconfig.json",
});
