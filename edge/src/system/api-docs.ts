import type { Hono } from "hono";
import type { AppEnv } from "../http/types.ts";
import { readWebFile, respondWithFile, type WebAssets, type WebFile, webFileOf } from "../web/serve-web.ts";

const API_DOCS_PATH = "/api/docs";

/**
 * The page allows only what Swagger UI needs from our own origin: its script and style files,
 * the document and "Try it out" calls to the API (connect), and the data: icons of its style sheet.
 * No inline script, no eval, nothing from elsewhere.
 */
const API_DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Starts Swagger UI on the document; a file, because the page allows no inline script. */
const START_SCRIPT = `"use strict";
window.addEventListener("DOMContentLoaded", function () {
  window.SwaggerUIBundle({
    url: "/api/openapi.json",
    dom_id: "#reference",
    deepLinking: true,
    docExpansion: "list",
    defaultModelsExpandDepth: 0,
    // The default sends the document to an outside validator for a badge.
    validatorUrl: null,
  });
});
`;

/**
 * `GET /api/docs`: the API reference, Swagger UI reading `/api/openapi.json`, all from this origin.
 * Swagger UI's files come from the web build (web/vite.config.ts copies them to `api-docs/`, and
 * compresses them as it does the app's), read once and served under names carrying their content
 * hash, so they are cached for a year; brotli or gzip as the client prefers (1.7 MB of script
 * goes as 0.36 MB).
 */
export function registerApiDocs(app: Hono<AppEnv>, deps: { assets: WebAssets | undefined }) {
  let loading: Promise<Map<string, WebFile> | null> | null = null;
  const assets = () => {
    loading ??= loadAssets(deps.assets).then((loaded) => {
      // Not built yet: try again on the next request instead of keeping the miss.
      if (!loaded) loading = null;
      return loaded;
    });
    return loading;
  };

  app.get(API_DOCS_PATH, async (c) => {
    const files = await assets();
    c.header("Cache-Control", "no-cache");
    if (!files) {
      return c.text("The API reference needs the web build: run `npm run build --workspace web`.", 503);
    }
    c.header("Content-Security-Policy", API_DOCS_CSP);
    return c.html(page([...files.keys()]));
  });

  app.get(`${API_DOCS_PATH}/:file`, async (c) => {
    const name = c.req.param("file");
    const file = (await assets())?.get(name);
    if (!file) return c.json({ message: `No API reference file ${c.req.path}`, code: "NOT_FOUND" }, 404);
    return respondWithFile(
      file,
      { path: name, immutable: true },
      { acceptEncoding: c.req.header("Accept-Encoding"), ifNoneMatch: c.req.header("If-None-Match") },
    );
  });
}

async function loadAssets(web: WebAssets | undefined): Promise<Map<string, WebFile> | null> {
  if (!web) return null;
  const style = await readWebFile(web, "/api-docs/swagger-ui.css");
  const script = await readWebFile(web, "/api-docs/swagger-ui-bundle.js");
  if (!script || !style) return null;
  const files: [string, string, WebFile][] = [
    ["swagger-ui", "css", style],
    ["swagger-ui-bundle", "js", script],
    ["start", "js", await webFileOf(new TextEncoder().encode(START_SCRIPT))],
  ];
  return new Map(files.map(([name, extension, file]) => [`${name}.${file.hash}.${extension}`, file]));
}

/** The page: the style sheet, the reference's mount point, Swagger UI, then the start script. */
function page(files: string[]): string {
  const url = (name: string) => `${API_DOCS_PATH}/${files.find((file) => file.startsWith(`${name}.`))}`;
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Stockbridge API reference</title>
    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
    <link rel="stylesheet" href="${url("swagger-ui")}" />
  </head>
  <body>
    <noscript>The API reference needs JavaScript. The document itself is at <a href="/api/openapi.json">/api/openapi.json</a>.</noscript>
    <div id="reference"></div>
    <script src="${url("swagger-ui-bundle")}"></script>
    <script src="${url("start")}"></script>
  </body>
</html>
`;
}
