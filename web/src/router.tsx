import { createRouter, Navigate } from "@tanstack/react-router";
import type { RouteAccess } from "./features/auth/guards.ts";
import type { RouterContext } from "./router-context.ts";
import { routeTree } from "./routeTree.gen.ts";
import type { Services } from "./services.ts";

/** Unknown paths go to the Dashboard (spec section 2); its guard sends visitors to /login. */
function NotFoundRedirect() {
  return <Navigate to="/dashboard" replace />;
}

export function createAppRouter(services: Services) {
  return createRouter({
    routeTree,
    context: { auth: services.auth, queryClient: services.queryClient, api: services.api },
    defaultPreload: "intent",
    // TanStack Query owns freshness (5 minutes); the router always asks it.
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
    defaultNotFoundComponent: NotFoundRedirect,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module "@tanstack/react-router" {
  interface Register {
    router: AppRouter;
  }
  interface StaticDataRouteOption {
    /** Declared by gated routes ("subscriber"); the `_app` layout's guard reads it from the matches. */
    access?: RouteAccess;
    /**
     * Starts the requests of the page's first screen (without waiting for them); called at start-up
     * beside the session refresh when the app opens on this page (lib/warm-start.ts).
     */
    prefetch?(context: RouterContext): void;
  }
}
