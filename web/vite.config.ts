import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import tailwindcss from "@tailwindcss/vite";
import { tanstackRouter } from "@tanstack/router-plugin/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { VitePWA } from "vite-plugin-pwa";
import { precompress } from "./precompress.ts";

const API_TARGET = "http://127.0.0.1:8000";
const ACCENT = "#4f46e5";

/** The persisted query cache is dropped whenever this changes (its `buster`). */
function appVersion(): string {
  const pkg: unknown = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8"));
  const version = typeof pkg === "object" && pkg !== null && "version" in pkg ? pkg.version : undefined;
  return typeof version === "string" ? version : "0.0.0-dev";
}

/**
 * Swagger UI, the renderer of the API reference the edge serves at /api/docs (edge/src/system/
 * api-docs.ts), copied into the build: the edge serves it from its own origin, and web/dist ships
 * with every deploy where node_modules may not. Kept out of the service worker's precache.
 */
function apiReferenceRenderer(): Plugin {
  const folder = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
  return {
    name: "stockbridge-api-reference",
    apply: "build",
    generateBundle() {
      for (const file of ["swagger-ui-bundle.js", "swagger-ui.css", "LICENSE", "NOTICE"]) {
        this.emitFile({
          type: "asset",
          fileName: `api-docs/${file}`,
          source: readFileSync(join(folder, file)),
        });
      }
    },
  };
}

export default defineConfig({
  define: { __APP_VERSION__: JSON.stringify(appVersion()) },
  plugins: [
    // The router plugin must run before the React plugin (it rewrites route files for code splitting).
    tanstackRouter({ target: "react", autoCodeSplitting: true, addExtensions: true }),
    react(),
    tailwindcss(),
    apiReferenceRenderer(),
    VitePWA({
      registerType: "prompt",
      injectRegister: null, // registered by src/features/pwa with an update prompt
      includeAssets: ["favicon.svg", "logo.svg", "apple-touch-icon-180x180.png"],
      manifest: {
        name: "Stockbridge",
        short_name: "Stockbridge",
        description: "Keeps a Shopify store's prices and stock in line with an Acumatica ERP.",
        theme_color: ACCENT,
        background_color: "#f9fafb",
        display: "standalone",
        start_url: "/",
        scope: "/",
        icons: [
          { src: "pwa-192x192.png", sizes: "192x192", type: "image/png" },
          { src: "pwa-512x512.png", sizes: "512x512", type: "image/png" },
          { src: "maskable-512x512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
          { src: "logo.svg", sizes: "any", type: "image/svg+xml" },
        ],
      },
      workbox: {
        // The app shell only. API answers are never cached by the service worker: lists survive
        // offline through the persisted query cache (IndexedDB), which is cleared on sign-out.
        globPatterns: ["**/*.{js,css,html,svg,png,ico,webmanifest,woff2}"],
        // The API reference's renderer (1.7 MB) is for /api/docs, not the app: never precached.
        globIgnores: ["api-docs/**"],
        navigateFallback: "index.html",
        navigateFallbackDenylist: [/^\/api\//],
        cleanupOutdatedCaches: true,
        runtimeCaching: [],
      },
    }),
    // Last: brotli and gzip copies of the finished build, service worker included.
    precompress(),
  ],
  server: { proxy: { "/api": { target: API_TARGET } } },
  preview: { proxy: { "/api": { target: API_TARGET } } },
  build: { outDir: "dist", emptyOutDir: true },
});
