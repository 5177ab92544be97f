import { createFileRoute, Outlet } from "@tanstack/react-router";
import { AuthLayout } from "../features/auth/auth-layout.tsx";
import { guardRoute } from "../features/auth/route-guards.ts";

/** Login and register: a signed-in user is sent to the Dashboard. */
export const Route = createFileRoute("/_anon")({
  beforeLoad: (args): void => guardRoute(args, "anonymous"),
  component: AnonymousLayout,
});

function AnonymousLayout() {
  return (
    <AuthLayout>
      <Outlet />
    </AuthLayout>
  );
}
