import type { Handlers } from "../http/contract-routes.ts";
import type { LocationsService } from "./service.ts";

/** Thin adapters from the contract to the locations service. */
export function locationHandlers(locations: LocationsService): Handlers {
  return {
    shopifyLocations: ({ caller }) => locations.locations(caller.userId),
    acumaticaWarehouses: ({ caller }) => locations.warehouses(caller.userId),
    saveLocationMapping: async ({ caller, input }) => ({
      locationMapping: await locations.saveMapping(caller.userId, input.body),
    }),
  };
}
