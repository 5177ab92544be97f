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
    overrides?: Partial<AcumaticaSessionOptions> & SeatWaitOptions,
  ): Promise<T>;
}

export interface SeatWaitOptions {
  /** Called once when the session has to wait for one of its connection's seats. */
  onQueued?: () => void;
}

/** Shared, queued slots (jobs/slots.ts): at most `limit` holders of a key at once, on every instance. */
export interface SessionSlots {
  hold<T>(key: string, options: { limit: number; work: () => Promise<T> } & SeatWaitOptions): Promise<T>;
}

export interface ConnectorsOptions {
  fetch: FetchLike;
  clock: ConnectorClock;
  sandboxUrl: string | undefined;
  /** Requests one Acumatica session keeps in flight (stay at or under the licence's limit). */
  acumaticaConcurrency?: number;
  /** Where a connection's Acumatica sessions wait for one of its `sessions.max` seats. */
  sessionSlots?: SessionSlots;
  /** Told of every outside call's outcome, Shopify's throttle waits and cost points (the app's metrics). */
  observe?: ConnectorObserver;
}

export interface ConnectorObserver extends ShopifyObserver {
  /** `outcome`: the HTTP status class (`2xx` ...) or `error` when no answer came. */
  call(system: "shopify" | "acumatica" | "shopify-files", outcome: string): void;
}

/**
 * The one place that knows how the app reaches Shopify and Acumatica: the guarded fetch, the
 * clock, sandbox origins, the shared limit of Acumatica sessions per connection. Features
 * (connection tests, catalog pulls, the sync engine) build their clients and sessions from here.
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
    acumatica(connection, fn, { onQueued, ...overrides } = {}) {
      const open = () =>
        withAcumaticaSession(connection, fn, {
          fetch: acumaticaFetch,
          clock: options.clock,
          maxConcurrent: options.acumaticaConcurrency ?? 4,
          ...overrides,
        });
      // Each session holds a licence seat from login to logout: the seat is taken before the login.
      const { sessions } = connection;
      return sessions && options.sessionSlots
        ? options.sessionSlots.hold(`acumatica:${sessions.key}`, {
            limit: sessions.max,
            work: open,
            onQueued,
          })
        : open();
    },
  };
}
