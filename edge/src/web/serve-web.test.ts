import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compressFolder } from "../../../web/precompress.ts";
import { createTestApp, type TestApp } from "../../testing/helpers.ts";

// A small build laid out as Vite writes it, compressed by the build's own step.
const script = `export const rows = [${Array.from({ length: 400 }, (_, i) => `{ sku: "SKU-${i}", price: ${i}.5 }`).join(", ")}];\n`;
const shell = `<!doctype html><html><head><script type="module" src="/assets/app-Ab12Cd34.js"></script></head><body>${"<div></div>".repeat(200)}</body></html>`;

describe("the built web app as served", () => {
  let dist: string;
  let app: TestApp;

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), "stockbridge-dist-"));
    mkdirSync(join(dist, "assets"));
    writeFileSync(join(dist, "index.html"), shell);
    writeFileSync(
      join(dist, "sw.js"),
      `self.__WB_MANIFEST = ${JSON.stringify(Array.from({ length: 80 }, (_, i) => ({ url: `/assets/chunk-${i}.js` })))};`,
    );
    writeFileSync(join(dist, "assets", "app-Ab12Cd34.js"), script);
    writeFileSync(join(dist, "assets", "tiny-Zz99.js"), "export {};\n");
    await compressFolder(dist);
    app = await createTestApp({
      deps: {
        webAssets: {
          read: (path) =>
            readFile(join(dist, path)).then(
              (bytes) => new Uint8Array(bytes),
              () => null,
            ),
        },
      },
    });
  });

  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  const get = (path: string, headers: Record<string, string> = {}) => app.request(path, { headers });

  it("writes brotli and gzip copies at build time, none for a file too small to gain", () => {
    const raw = readFileSync(join(dist, "assets", "app-Ab12Cd34.js"));
    expect(brotliDecompressSync(readFileSync(join(dist, "assets", "app-Ab12Cd34.js.br")))).toEqual(raw);
    expect(gunzipSync(readFileSync(join(dist, "assets", "app-Ab12Cd34.js.gz")))).toEqual(raw);
    expect(() => readFileSync(join(dist, "assets", "tiny-Zz99.js.br"))).toThrow();
  });

  it("answers a hashed asset in brotli when accepted, immutable for a year, with its length and Vary", async () => {
    const response = await get("/assets/app-Ab12Cd34.js", { "Accept-Encoding": "gzip, deflate, br" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBe("br");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("vary")).toBe("Accept-Encoding");
    expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    const body = new Uint8Array(await response.arrayBuffer());
    expect(response.headers.get("content-length")).toBe(String(body.byteLength));
    expect(brotliDecompressSync(body).toString()).toBe(script);
    expect(body.byteLength).toBeLessThan(script.length / 4);
  });

  it("follows the client's q-values: gzip when preferred or when brotli is refused, the file itself otherwise", async () => {
    const encodingFor = async (acceptEncoding: string) =>
      (await get("/assets/app-Ab12Cd34.js", { "Accept-Encoding": acceptEncoding })).headers.get(
        "content-encoding",
      );
    expect(await encodingFor("br;q=0.5, gzip;q=0.9")).toBe("gzip");
    expect(await encodingFor("gzip, br;q=0")).toBe("gzip");
    expect(await encodingFor("*")).toBe("br");
    expect(await encodingFor("*;q=0.1, br;q=0")).toBe("gzip");
    expect(await encodingFor("identity")).toBeNull();
    expect(await encodingFor("gzip;q=0, br;q=0")).toBeNull();
    const plain = await get("/assets/app-Ab12Cd34.js");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toBe(script);
    expect(plain.headers.get("content-length")).toBe(String(Buffer.byteLength(script)));
  });

  it("gives each copy its own ETag and answers 304 to a matching If-None-Match", async () => {
    const brotli = await get("/assets/app-Ab12Cd34.js", { "Accept-Encoding": "br" });
    const gzip = await get("/assets/app-Ab12Cd34.js", { "Accept-Encoding": "gzip" });
    const tag = brotli.headers.get("etag") ?? "";
    expect(tag).toMatch(/^"[0-9a-f]+-br"$/);
    expect(gzip.headers.get("etag")).not.toBe(tag);
    const again = await get("/assets/app-Ab12Cd34.js", { "Accept-Encoding": "br", "If-None-Match": tag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("etag")).toBe(tag);
    // The brotli copy's tag does not validate the gzip copy.
    const other = await get("/assets/app-Ab12Cd34.js", { "Accept-Encoding": "gzip", "If-None-Match": tag });
    expect(other.status).toBe(200);
  });

  it("serves a shell rebuilt while it runs at once, with a new ETag", async () => {
    const before = await get("/", { "Accept-Encoding": "br" });
    writeFileSync(join(dist, "index.html"), shell.replace("app-Ab12Cd34", "app-Ef56Gh78"));
    await compressFolder(dist);
    const after = await get("/", { "Accept-Encoding": "br" });
    expect(after.headers.get("etag")).not.toBe(before.headers.get("etag"));
    expect(brotliDecompressSync(new Uint8Array(await after.arrayBuffer())).toString()).toContain(
      "app-Ef56Gh78",
    );
    writeFileSync(join(dist, "index.html"), shell);
    await compressFolder(dist);
  });

  it("revalidates the shell (also as the fallback of app routes) and the service worker every time", async () => {
    for (const path of ["/", "/settings", "/sw.js"]) {
      const response = await get(path, { "Accept-Encoding": "br, gzip" });
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("no-cache");
      expect(response.headers.get("content-encoding")).toBe("br");
    }
    const tiny = await get("/assets/tiny-Zz99.js", { "Accept-Encoding": "br" });
    expect(tiny.headers.get("content-encoding")).toBeNull();
    expect(tiny.headers.get("vary")).toBeNull();
  });
});
