import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

/**
 * The JavaScript a first visit loads before anything can run: the scripts index.html names (entry
 * and modulepreloads) and every module they import statically, each with its gzip size (level 9,
 * as a server's precompressed copy). Chunks loaded by a dynamic import() are not in it.
 */
export function initialScripts(dist: string): { files: string[]; gzipBytes: number } {
  const html = readFileSync(join(dist, "index.html"), "utf8");
  const queue = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((match) => match[1]!);
  const seen = new Set<string>();
  let gzipBytes = 0;
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(join(dist, file));
    gzipBytes += gzipSync(code, { level: 9 }).length;
    // Static imports between chunks: `import{a as b}from"./x.js"` or `import"./x.js"`.
    for (const match of code
      .toString("utf8")
      .matchAll(/\bimport\s*(?:[\w$*{}\s,]*?from\s*)?["']\.\/([^"']+\.js)["']/g))
      queue.push(`assets/${match[1]}`);
  }
  return { files: [...seen], gzipBytes };
}
