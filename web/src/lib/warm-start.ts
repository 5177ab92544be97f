import type { AppRouter } from "../router.tsx";
import type { RouterContext } from "../router-context.ts";
import { tokenUnexpired } from "./token-store.ts";

/**
 * The first screen without a request waterfall: while the stored session is being refreshed, the
 * opened page's code and, with a token still inside its lifetime, its data (a route's
 * `staticData.prefetch`) are requested as well, so session, code and data travel together instead
 * of one after another. Without a token the guard sends the visitor to /login: nothing to warm.
 */
export function warmStart(router: AppRouter, context: RouterContext, now = Date.now()): void {
  const token = context.auth.getState().token;
  if (!token) return;
  const fresh = tokenUnexpired(token, now);
  const [routes] = router.getMatchedRoutes(router.state.location.pathname);
  for (const route of routes) {
    // A chunk that fails here fails again, and is reported, when the router loads the page.
    void Promise.resolve(router.loadRouteChunk(route)).catch(() => undefined);
    // An expired token is renewed by the refresh first; its 401s must not race the new session.
    if (fresh) route.options.staticData?.prefetch?.(context);
  }
}
