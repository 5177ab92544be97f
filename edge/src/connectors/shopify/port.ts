import type { ConnectorClock, FetchLike } from "../transport.ts";
import type { StoreBulkSlots } from "./bulk-slots.ts";
import type { GraphqlResponse, RequestOptions, ShopifyClientStats } from "./graphql-client.ts";
import type { StoreCosts } from "./strategy.ts";

/**
 * What the store's operations (store.ts) need from the Shopify transport: GraphQL calls
 * paced and retried by the transport, the version Shopify served, plus plain HTTP for staged
 * uploads and bulk result files, the clock that polling waits on, and the store's bulk slots.
 */
export interface ShopifyPort {
  execute<T>(
    query: string,
    variables?: Record<string, unknown>,
    options?: RequestOptions,
  ): Promise<GraphqlResponse<T>>;
  /** The version Shopify said it served (null until an answer named one). */
  readonly servedVersion: string | null;
  /** The version asked for: the oldest Shopify can serve, as it only falls forward. */
  readonly requestedVersion: string;
  readonly stats: ShopifyClientStats;
  fetch: FetchLike;
  clock: ConnectorClock;
  /** The store's bulk operation slots, shared with every other job (catalog pulls too). */
  bulkSlots: StoreBulkSlots;
  /** The bucket as Shopify last described it, refilled since (null before any answer). */
  bucket(): { available: number; restoreRate: number } | null;
  /** Recent answered calls' round trip, in ms. */
  roundTripMs(): number;
  /** What this store's earlier calls taught: read cost per id, bulk operation times. */
  costs: StoreCosts;
}
