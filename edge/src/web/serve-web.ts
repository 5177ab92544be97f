import type { Hono } from "hono";
import type { AppEnv } from "../http/types.ts";

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

/**
 * Serves the built web app with SPA fallback. `/api/*` never reaches here (the API's JSON 404
 * answers it). Hashed assets are immutable; the shell and the service worker are always revalidated
 * so a deploy is picked up.
 */
export function serveWeb(app: Hono<AppEnv>, assets: WebAssets): void {
  app.get("*", async (c, next) => {
    const path = c.req.path;
    if (path === "/api" || path.startsWith("/api/")) return next();
    const clean = decodeURIComponent(path).replace(/\/+$/, "") || "/index.html";
    if (clean.includes("..")) return c.json({ message: "Not found", code: "NOT_FOUND" }, 404);
    const extension = clean.split("/").pop()?.split(".").pop() ?? "";
    const hasExtension = clean.split("/").pop()?.includes(".") ?? false;
    const file = await assets.read(clean);
    if (file) return respond(file, clean, extension);
    if (hasExtension && clean !== "/index.html") return c.text("Not found", 404);
    const shell = await assets.read("/index.html");
    if (!shell) return c.text("The web app is not built. Run `npm start`, which builds it.", 503);
    return respond(shell, "/index.html", "html");
  });
}

function respond(body: Uint8Array, path: string, extension: string): Response {
  const immutable = path.startsWith("/assets/");
  return new Response(body as Uint8Array<ArrayBuffer>, {
    headers: {
      "Content-Type": TYPES[extension] ?? "application/octet-stream",
      "Cache-Control": immutable ? "public, max-age=31536000, immutable" : "no-cache",
    },
  });
}
