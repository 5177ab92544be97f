import type { Handlers } from "../http/contract-routes.ts";
import type { DashboardService } from "./service.ts";

/** Thin adapter from the contract to the dashboard service. */
export function dashboardHandlers(dashboard: DashboardService): Handlers {
  return {
    dashboard: ({ caller, input }) => dashboard.read(caller.userId, input.query),
  };
}
