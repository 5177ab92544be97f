import { createFileRoute } from "@tanstack/react-router";
import { DashboardScreen } from "../../features/dashboard/dashboard-screen.tsx";
import { prefetchDashboard } from "../../features/dashboard/queries.ts";

export const Route = createFileRoute("/_app/dashboard")({
  staticData: { prefetch: prefetchDashboard },
  component: DashboardScreen,
});
