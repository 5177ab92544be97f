import { readFileSync } from "node:fs";

/** The CLI's version, from its package.json: one level above both `src/` and the built `dist/`. */
export function cliVersion(): string {
  const manifest: unknown = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  const version =
    typeof manifest === "object" && manifest !== null && "version" in manifest ? manifest.version : null;
  return typeof version === "string" ? version : "unknown";
}
