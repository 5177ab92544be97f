import type { Handlers } from "../http/contract-routes.ts";
import type { CatalogService } from "./service.ts";

/** Thin adapters from the contract to the catalog service. */
export function catalogHandlers(catalog: CatalogService): Handlers {
  return {
    shopifyProducts: ({ caller, input }) => catalog.listShopify(caller.userId, input.query),
    acumaticaProducts: ({ caller, input }) => catalog.listAcumatica(caller.userId, input.query),
    syncShopifyProducts: async ({ caller }) => ({ job: await catalog.startShopifyPull(caller.userId) }),
    syncAcumaticaProducts: async ({ caller }) => ({ job: await catalog.startAcumaticaPull(caller.userId) }),
  };
}
