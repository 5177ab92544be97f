import { createFileRoute } from "@tanstack/react-router";
import * as v from "valibot";
import { LoginScreen } from "../../features/auth/login-screen.tsx";

/** `redirect` is where the visitor was going; it is followed only if it is a path on this site. */
const LoginSearchSchema = v.object({ redirect: v.fallback(v.optional(v.string()), undefined) });

export const Route = createFileRoute("/_anon/login")({
  validateSearch: LoginSearchSchema,
  component: LoginRoute,
});

function LoginRoute() {
  const { redirect } = Route.useSearch();
  return <LoginScreen redirectTo={redirect} />;
}
