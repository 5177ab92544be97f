import type { Handlers } from "../http/contract-routes.ts";
import type { ChangesService } from "./service.ts";

/** Thin adapters from the contract to the change feeds. */
export function changeHandlers(changes: ChangesService): Handlers {
  return {
    shopifyProductChanges: ({ caller, input }) => changes.shopify(caller.userId, input.query),
    acumaticaProductChanges: ({ caller, input }) => changes.acumatica(caller.userId, input.query),
    mappingChanges: ({ caller, input }) => changes.mappings(caller.userId, input.query),
    unmappedChanges: ({ caller, input }) => changes.unmapped(caller.userId, input.query),
    scheduleChanges: ({ caller, input }) => changes.schedules(caller.userId, input.query),
    historyChanges: ({ caller, input }) => changes.history(caller.userId, input.query),
  };
}
