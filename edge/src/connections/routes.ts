import type { Handlers } from "../http/contract-routes.ts";
import type { ConnectionsService } from "./service.ts";

/** Thin adapters from the contract to the connections service. */
export function connectionHandlers(connections: ConnectionsService): Handlers {
  return {
    getConnections: ({ caller }) => connections.list(caller.userId),
    saveAcumatica: ({ caller, input }) => connections.saveAcumatica(caller.userId, input.body),
    saveShopify: ({ caller, input }) => connections.saveShopify(caller.userId, input.body),
    testAcumatica: ({ caller }) => connections.testAcumatica(caller.userId),
    testShopify: ({ caller }) => connections.testShopify(caller.userId),
  };
}
