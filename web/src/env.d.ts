/// <reference types="vite/client" />
/// <reference types="vite-plugin-pwa/react" />

/** The web package version, injected by vite.config.ts; it busts the persisted query cache. */
declare const __APP_VERSION__: string;
