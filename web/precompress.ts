import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Plugin } from "vite";

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text formats worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt)$/;
/** Below this a compressed copy saves less than its own headers. */
const MIN_BYTES = 1024;

/**
 * Writes `file.br` and `file.gz` beside every compressible file of the build, so the edge serves
 * them without compressing per request (brotli at its highest quality is too slow for that). Runs
 * after the PWA plugin has written the service worker, so that one gets copies too. A copy that is
 * not smaller than the file is not written.
 */
export function precompress(): Plugin {
  let outDir = "dist";
  return {
    name: "stockbridge-precompress",
    apply: "build",
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    closeBundle: {
      order: "post",
      sequential: true,
      async handler() {
        await compressFolder(outDir);
      },
    },
  };
}

export async function compressFolder(folder: string): Promise<void> {
  for (const entry of await readdir(folder, { recursive: true })) {
    const path = join(folder, entry);
    if (!COMPRESSIBLE.test(path) || !(await stat(path)).isFile()) continue;
    const raw = await readFile(path);
    if (raw.byteLength < MIN_BYTES) continue;
    const [br, gz] = await Promise.all([
      brotli(raw, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: raw.byteLength,
        },
      }),
      gzipAsync(raw, { level: constants.Z_BEST_COMPRESSION }),
    ]);
    if (br.byteLength < raw.byteLength) await writeFile(`${path}.br`, br);
    if (gz.byteLength < raw.byteLength) await writeFile(`${path}.gz`, gz);
  }
}
