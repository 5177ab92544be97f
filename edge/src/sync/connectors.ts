import type { AcumaticaConnectionInfo } from "../connectors/acumatica/session.ts";
import type { Connectors, ShopifyCredentials } from "../connectors/connectors.ts";
import type { BulkSlots } from "../connectors/shopify/bulk-slots.ts";
import { createShopifyStore } from "../connectors/shopify/store.ts";
import { createStoreCostBook, type StoreCostBook } from "../connectors/shopify/strategy.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import type { SyncConnectors } from "./engine.ts";

/** The slice of the connections service the engine needs: decrypted credentials, and where to note the served version. */
export interface CredentialSource {
  shopifyCredentials(userId: string): Promise<ShopifyCredentials>;
  acumaticaCredentials(userId: string): Promise<AcumaticaConnectionInfo>;
  recordServedShopifyVersion?(userId: string, version: string): Promise<void>;
  recordShopifyDeprecation?(userId: string, notice: string): Promise<void>;
}

/**
 * The engine's way to the user's two systems, from the saved connections and the app's connectors
 * (guarded fetch, clock, sandbox origins). A connection that is not saved is a 400 naming what to do.
 */
export function createSyncConnectors(deps: {
  credentials: CredentialSource;
  connectors: Connectors;
  bulkSlots: BulkSlots;
  /**
   * What each store's runs learn of its costs, so the next run chooses its reads and writes by them
   * (the app shares it with its catalog pulls); left out, these connectors learn on their own.
   */
  storeCosts?: StoreCostBook;
}): SyncConnectors {
  const { connectors } = deps;
  const costBook = deps.storeCosts ?? createStoreCostBook();
  return {
    async shopify(userId) {
      const credentials = await notSavedIsBadInput(() => deps.credentials.shopifyCredentials(userId));
      const recordVersion = deps.credentials.recordServedShopifyVersion;
      const recordDeprecation = deps.credentials.recordShopifyDeprecation;
      return createShopifyStore(connectors.shopify(credentials), {
        fetch: connectors.fetch,
        clock: connectors.clock,
        bulkSlots: deps.bulkSlots.forStore(credentials.storeName),
        costs: costBook.forStore(credentials.storeName),
        // Keep the Settings card's "version in effect" and deprecation notice current with what Shopify served.
        onServedVersion: recordVersion && ((version) => recordVersion(userId, version)),
        onDeprecation: recordDeprecation && ((notice) => recordDeprecation(userId, notice)),
      });
    },
    async acumatica(userId, fn, options = {}) {
      const connection = await notSavedIsBadInput(() => deps.credentials.acumaticaCredentials(userId));
      // The endpoint was verified by the connection test; a sync spends no call on it.
      return connectors.acumatica(connection, (api) => fn(api, connection.apiVersion), {
        verifyEndpoint: false,
        onQueued: options.onQueued,
      });
    },
  };
}

async function notSavedIsBadInput<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof NotFoundError) throw new ValidationError(error.message);
    throw error;
  }
}
