import { createFileRoute, redirect } from "@tanstack/react-router";

/** `/` (the logo's target) shows the Dashboard. */
export const Route = createFileRoute("/")({
  beforeLoad: () => {
    throw redirect({ to: "/dashboard", replace: true });
  },
});
