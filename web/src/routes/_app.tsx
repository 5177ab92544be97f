import { createFileRoute, Outlet } from "@tanstack/react-router";
import { guardRoute } from "../features/auth/route-guards.ts";
import { AppShell } from "../features/shell/app-shell.tsx";

/**
 * Every authenticated screen. The guard reads the matched routes' `staticData.access`: routes that
 * declare "subscriber" also need an active or trialing subscription.
 */
export const Route = createFileRoute("/_app")({
  beforeLoad: (args): void => guardRoute(args),
  component: AuthenticatedLayout,
});

function AuthenticatedLayout() {
  return (
    <AppShell>
      <Outlet />
    </AppShell>
  );
}
