// Writes the OpenAPI document generated from the contract to a file, for `redocly lint` in `npm test`.
// Run with Deno (it reads the TypeScript sources as they are): `deno run --allow-read --allow-write scripts/openapi.ts <file>`.
import { openApiDocument } from "@stockbridge/shared";

const target = Deno.args[0];
if (!target) {
  console.error("Usage: deno run --allow-read --allow-write scripts/openapi.ts <output file>");
  Deno.exit(2);
}
const pkg = JSON.parse(await Deno.readTextFile(new URL("../package.json", import.meta.url)));
await Deno.writeTextFile(target, `${JSON.stringify(openApiDocument({ version: pkg.version }), null, 2)}\n`);
