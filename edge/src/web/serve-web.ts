import type { Hono } from "hono";
import type { AppEnv } from "../http/types.ts";
import { sha256Hex } from "../security/bytes.ts";

/** Reads a built web file by its path under the dist folder, or null when there is none. */
export interface WebAssets {
  read(path: string): Promise<Uint8Array | null>;
}

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  mjs: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  json: "application/json",
  webmanifest: "application/manifest+json",
  svg: "image/svg+xml",
  png: "image/png",
  ico: "image/x-icon",
  woff2: "font/woff2",
  txt: "text/plain; charset=utf-8",
};

type Coding = "br" | "gzip";
/** The copies the web build writes beside a file (web/precompress.ts), best first on a tie. */
const CODINGS: { coding: Coding; suffix: string }[] = [
  { coding: "br", suffix: ".br" },
  { coding: "gzip", suffix: ".gz" },
];

interface Representation {
  body: Uint8Array;
  etag: string;
}

/** A built file and its compressed copies; `hash` names its content (ETag, and hashed file names). */
export interface WebFile {
  hash: string;
  identity: Representation;
  encoded: Partial<Record<Coding, Representation>>;
}

/** What an answer needs of the request: the codings it takes and the tags it has. */
export interface ConditionalRequest {
  acceptEncoding: string | undefined;
  ifNoneMatch: string | undefined;
}

/**
 * Serves the built web app with SPA fallback. `/api/*` never reaches here (the API's JSON 404
 * answers it). Hashed assets are immutable; the shell and the service worker are always revalidated
 * so a deploy is picked up. A file the build compressed is answered with the copy the client
 * prefers (Accept-Encoding, q-values honoured), with an ETag per copy and 304 for a match.
 */
export function serveWeb(app: Hono<AppEnv>, assets: WebAssets): void {
  // Hashed assets are read once (a new build gives new names); the shell, the service worker and
  // the other unhashed files are read on each request, so a rebuild while we run is served at once.
  const files = new Map<string, Promise<WebFile | null>>();
  const load = (path: string): Promise<WebFile | null> => {
    if (!path.startsWith("/assets/")) return readWebFile(assets, path);
    let file = files.get(path);
    if (!file) {
      file = readWebFile(assets, path);
      // Only files that exist are kept: unknown paths (the SPA's routes, typos) must not grow the map.
      void file.then((found) => {
        if (!found) files.delete(path);
      });
      files.set(path, file);
    }
    return file;
  };

  app.get("*", async (c, next) => {
    const path = c.req.path;
    if (path === "/api" || path.startsWith("/api/")) return next();
    const clean = decodeURIComponent(path).replace(/\/+$/, "") || "/index.html";
    if (clean.includes("..")) return c.json({ message: "Not found", code: "NOT_FOUND" }, 404);
    const hasExtension = clean.split("/").pop()?.includes(".") ?? false;
    const file = await load(clean);
    const request = {
      acceptEncoding: c.req.header("Accept-Encoding"),
      ifNoneMatch: c.req.header("If-None-Match"),
    };
    if (file) return respondWithFile(file, { path: clean, immutable: clean.startsWith("/assets/") }, request);
    if (hasExtension && clean !== "/index.html") return c.text("Not found", 404);
    const shell = await load("/index.html");
    if (!shell) return c.text("The web app is not built. Run `npm start`, which builds it.", 503);
    return respondWithFile(shell, { path: "/index.html", immutable: false }, request);
  });
}

/** A built file with the compressed copies the build wrote beside it; null when there is none. */
export async function readWebFile(assets: WebAssets, path: string): Promise<WebFile | null> {
  const body = await assets.read(path);
  if (!body) return null;
  const file = await webFileOf(body);
  for (const { coding, suffix } of CODINGS) {
    const copy = await assets.read(`${path}${suffix}`);
    if (copy) file.encoded[coding] = { body: copy, etag: `"${file.hash}-${coding}"` };
  }
  return file;
}

/** Bytes made at run time, served like a built file (no compressed copies). */
export async function webFileOf(body: Uint8Array): Promise<WebFile> {
  const hash = await digest(body);
  return { hash, identity: { body, etag: `"${hash}"` }, encoded: {} };
}

/**
 * The answer for a file: its type from the path's extension, the copy the client prefers, an ETag
 * per copy and 304 for a match; cached for a year when `immutable` (its name carries its hash).
 */
export function respondWithFile(
  file: WebFile,
  options: { path: string; immutable: boolean },
  request: ConditionalRequest,
): Response {
  const extension = options.path.split("/").pop()?.split(".").pop() ?? "";
  const coding = chooseCoding(request.acceptEncoding, file.encoded);
  const chosen = (coding && file.encoded[coding]) || file.identity;
  const headers = new Headers({
    "Content-Type": TYPES[extension] ?? "application/octet-stream",
    "Cache-Control": options.immutable ? "public, max-age=31536000, immutable" : "no-cache",
    ETag: chosen.etag,
  });
  if (Object.keys(file.encoded).length > 0) headers.set("Vary", "Accept-Encoding");
  if (coding) headers.set("Content-Encoding", coding);
  if (matches(request.ifNoneMatch, chosen.etag)) return new Response(null, { status: 304, headers });
  headers.set("Content-Length", String(chosen.body.byteLength));
  return new Response(chosen.body as Uint8Array<ArrayBuffer>, { headers });
}

/**
 * The coding to answer with among the copies there are: the highest q-value above 0 (a coding not
 * listed takes `*`'s value, or 0), brotli first on a tie; null for the file itself.
 */
function chooseCoding(
  header: string | undefined,
  available: Partial<Record<Coding, unknown>>,
): Coding | null {
  if (!header) return null;
  const weights = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((param) => param.trim()).find((param) => param.startsWith("q="));
    const weight = q ? Number(q.slice(2)) : 1;
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  let best: Coding | null = null;
  let bestWeight = 0;
  for (const { coding } of CODINGS) {
    if (!available[coding]) continue;
    const weight =
      weights.get(coding) ?? (coding === "gzip" ? weights.get("x-gzip") : undefined) ?? weights.get("*") ?? 0;
    if (weight > bestWeight) {
      best = coding;
      bestWeight = weight;
    }
  }
  return best;
}

/** If-None-Match: `*` or any listed tag (a weak `W/` prefix compares equal, as RFC 9110 asks for GET). */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((tag) => {
    const trimmed = tag.trim();
    return trimmed === "*" || trimmed.replace(/^W\//, "") === etag;
  });
}

/** 24 hex digits of SHA-256: enough to tell builds apart, short enough for a file name. */
async function digest(body: Uint8Array): Promise<string> {
  return (await sha256Hex(body)).slice(0, 24);
}
