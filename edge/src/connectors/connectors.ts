import {
  type AcumaticaApi,
  type AcumaticaConnectionInfo,
  type AcumaticaSessionOptions,
  withAcumaticaSession,
} from "./acumatica/session.ts";
import {
  createShopifyClient,
  defaultShopifyOrigin,
  type ShopifyClient,
  type ShopifyClientOptions,
  type ShopifyObserver,
} from "./shopify/graphql-client.ts";
import type { ConnectorClock, FetchLike } from "./transport.ts";

export interface ShopifyCredentials {
  storeName: string;
  accessToken: string;
  apiVersion: string;
}

export interface Connectors {
  /** Outbound fetch behind the address guard (for bulk result files and staged uploads). */
  fetch: FetchLike;
  clock: ConnectorClock;
  /** `https://{store}.myshopify.com`, or `{sandbox}/shopify/{store}` in sandbox mode. */
  shopifyOrigin(storeName: string): string;
  shopify(credentials: ShopifyCredentials, overrides?: Partial<ShopifyClientOptions>): ShopifyClient;
  acumatica<T>(
    connection: AcumaticaConnectionInfo,
    fn: (api: AcumaticaApi) => Promise<T>,
    overrides?: Partial<AcumaticaSessionOptions>,
  ): Promise<T>;
}

export interface ConnectorsOptions {
  fetch: FetchLike;
  clock: ConnectorClock;
  sandboxUrl: string | undefined;
  /** Requests one Acumatica session keeps in flight (stay at or under the licence's limit). */
  acumaticaConcurrency?: number;
  /** Told of every outside call's outcome, Shopify's throttle waits and cost points (the app's metrics). */
  observe?: ConnectorObserver;
}

export interface ConnectorObserver extends ShopifyObserver {
  /** `outcome`: the HTTP status class (`2xx` ...) or `error` when no answer came. */
  call(system: "shopify" | "acumatica" | "shopify-files", outcome: string): void;
}

/**
 * The one place that knows how the app reaches Shopify and Acumatica: the guarded fetch, the
 * clock, sandbox origins. Features (connection tests, catalog pulls, the sync engine) build their
 * clients and sessions from here.
 */
export function createConnectors(options: ConnectorsOptions): Connectors {
  const shopifyOrigin = (storeName: string) =>
    options.sandboxUrl ? `${options.sandboxUrl}/shopify/${storeName}` : defaultShopifyOrigin(storeName);
  const observe = options.observe;
  const counted = (system: Parameters<ConnectorObserver["call"]>[0]): FetchLike =>
    observe
      ? async (input, init) => {
          try {
            const response = await options.fetch(input, init);
            observe.call(system, `${Math.floor(response.status / 100)}xx`);
            return response;
          } catch (error) {
            observe.call(system, "error");
            throw error;
          }
        }
      : options.fetch;
  const shopifyFetch = counted("shopify");
  const acumaticaFetch = counted("acumatica");
  return {
    fetch: counted("shopify-files"),
    clock: options.clock,
    shopifyOrigin,
    shopify: (credentials, overrides = {}) =>
      createShopifyClient({
        ...credentials,
        fetch: shopifyFetch,
        clock: options.clock,
        observe,
        originFor: shopifyOrigin,
        ...overrides,
      }),
    acumatica: (connection, fn, overrides = {}) =>
      withAcumaticaSession(connection, fn, {
        fetch: acumaticaFetch,
        clock: options.clock,
        maxConcurrent: options.acumaticaConcurrency ?? 4,
        ...overrides,
      }),
  };
}
