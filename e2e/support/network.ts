import type { BrowserContext, Route } from "playwright-core";

const API = "**/api/**";

function cut(route: Route) {
  return route.abort("internetdisconnected");
}

/**
 * Cuts the context's network. Chromium's offline emulation alone has let a request through right
 * after an offline reload (navigator.onLine read true and an outboxed delete reached the server,
 * once in several CI runs), so the API is also refused at the request level: nothing the app sends
 * while "offline" can reach the server, whatever the emulation does.
 */
export async function goOffline(context: BrowserContext): Promise<void> {
  await context.setOffline(true);
  await context.route(API, cut);
}

/** Gives the network back (the app hears its `online` event). */
export async function goOnline(context: BrowserContext): Promise<void> {
  await context.unroute(API, cut);
  await context.setOffline(false);
}
