import { readFileSync } from "node:fs";
import tailwindcss from "@tailwindcss/vite";
import { tanstackRouter } from "@tanstack/router-plugin/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
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

export default defineConfig({
  define: { __APP_VERSION__: JSON.stringify(appVersion()) },
  plugins: [
    // The router plugin must run before the React plugin (it rewrites route files for code splitting).
    tanstackRouter({ target: "react", autoCodeSplitting: true, addExtensions: true }),
    react(),
    tailwindcss(),
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
