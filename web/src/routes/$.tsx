import { createFileRoute, redirect } from "@tanstack/react-router";

/** Any unknown path redirects to the Dashboard (spec section 2). */
export const Route = createFileRoute("/$")({
  beforeLoad: () => {
    throw redirect({ to: "/dashboard", replace: true });
  },
});
