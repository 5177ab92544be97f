import type { ShopifyLocation } from "@stockbridge/shared";
import { record } from "../../lib/json.ts";
import type { ConnectorClock, FetchLike } from "../transport.ts";
import type { StoreBulkSlots } from "./bulk-slots.ts";
import { text } from "./gid.ts";
import type { ShopifyClient, ShopifyClientStats } from "./graphql-client.ts";
import { readLocations } from "./locations.ts";
import type { ShopifyPort } from "./port.ts";
import { type PriceWrite, type PriceWriteOptions, type WriteErrors, writePrices } from "./prices.ts";
import { type QuantityItem, type QuantityOutcome, type WriteOptions, writeQuantities } from "./quantities.ts";
import { SHOP_CURRENCY_QUERY } from "./shop-query.ts";
import { createStoreCostBook, type StoreCosts } from "./strategy.ts";
import { LOCATION_NAMES_QUERY } from "./sync-operations.ts";
import { readChangedVariants } from "./variant-changes.ts";
import { readShopifyVariants, type ShopifyReading, type VariantReadStrategy } from "./variant-read.ts";

/**
 * One Shopify store as the sync engine and the held applier see it: domain operations, each paced
 * and retried by the store's transport. GraphQL stays inside connectors/shopify. One store per run:
 * it learns the served version and the write form as it goes.
 */
export interface ShopifyStore {
  /** Calls, points and waits spent so far. */
  readonly stats: ShopifyClientStats;
  /** Shopify's own time at its latest answer to this store (ms), or null before one said it. */
  serverTime(): number | null;
  /** Every location of the store, deactivated ones included, the primary one marked. */
  locations(): Promise<ShopifyLocation[]>;
  /** Names of the given location ids (one call); ids Shopify does not answer are left out. */
  locationNames(ids: readonly string[]): Promise<Map<string, string>>;
  /** The store's currency code, or null when Shopify does not say. */
  shopCurrency(): Promise<string | null>;
  /**
   * Current values of the variants at the locations: by `nodes` batches or one bulk query over the
   * whole store, whichever costs less time (see variant-read.ts); `strategy` forces one.
   */
  readVariants(
    variantIds: string[],
    options: { strategy?: VariantReadStrategy; locations: readonly string[] },
  ): Promise<ShopifyReading>;
  /** Prices and compare-at prices; per mapping null when written, else Shopify's own error text. */
  writePrices(writes: PriceWrite[], options: PriceWriteOptions): Promise<WriteErrors>;
  /** Absolute quantities, compare-and-set against each item's `from`; one outcome per item key. */
  setQuantities(items: QuantityItem[], options: WriteOptions): Promise<Map<string, QuantityOutcome>>;
  /** Ids (gid://shopify/ProductVariant/N) of variants updated after `since`; null when more than `limit` changed or Shopify cannot count them. */
  changedVariants(options: { since: Date; limit: number }): Promise<Set<string> | null>;
}

export interface ShopifyStoreOptions {
  /** Plain HTTP for staged uploads and bulk result files. */
  fetch: FetchLike;
  clock: ConnectorClock;
  /** The store's bulk operation slots, shared with every other job (catalog pulls too). */
  bulkSlots: StoreBulkSlots;
  /** Told each new version Shopify says it served (the Settings card shows the version in effect). */
  onServedVersion?: (version: string) => Promise<void>;
  /** Told each new deprecation notice Shopify sends. */
  onDeprecation?: (notice: string) => Promise<void>;
  /** What earlier runs against this store learned of its costs (left out: learned afresh). */
  costs?: StoreCosts;
}

/** The store behind a client: reports of what Shopify served never fail the call that noticed them. */
export function createShopifyStore(client: ShopifyClient, options: ShopifyStoreOptions): ShopifyStore {
  let recorded: string | null = null;
  let noticed: string | null = null;
  const port: ShopifyPort = {
    execute: async (query, variables, requestOptions) => {
      const answer = await client.execute(query, variables, requestOptions);
      const served = client.servedVersion;
      if (served && served !== recorded && options.onServedVersion) {
        recorded = served;
        await options.onServedVersion(served).catch(() => {});
      }
      // The connection stores (and logs once) what Shopify says is deprecated; a run tells it once per notice.
      const notice = client.deprecationNotice;
      if (notice && notice !== noticed && options.onDeprecation) {
        noticed = notice;
        await options.onDeprecation(notice).catch(() => {});
      }
      return answer as never;
    },
    get servedVersion() {
      return client.servedVersion;
    },
    requestedVersion: client.apiVersion,
    stats: client.stats,
    fetch: options.fetch,
    clock: options.clock,
    bulkSlots: options.bulkSlots,
    bucket: () => client.bucket(),
    roundTripMs: () => client.roundTripMs(),
    costs: options.costs ?? createStoreCostBook().forStore(client.endpoint),
  };

  return {
    stats: client.stats,
    serverTime: () => client.serverTime,
    locations: () => readLocations(port.execute),
    async locationNames(ids) {
      const names = new Map<string, string>();
      if (ids.length === 0) return names;
      const answer = await port.execute<{ nodes: unknown[] }>(LOCATION_NAMES_QUERY, { ids });
      for (const node of answer.data?.nodes ?? []) {
        const location = record(node);
        const id = text(location?.id);
        const name = text(location?.name);
        if (id && name) names.set(id, name);
      }
      return names;
    },
    async shopCurrency() {
      const answer = await port.execute<{ shop: unknown }>(SHOP_CURRENCY_QUERY);
      return text(record(answer.data?.shop)?.currencyCode) ?? null;
    },
    readVariants: (variantIds, readOptions) => readShopifyVariants(port, variantIds, readOptions),
    writePrices: (writes, writeOptions) => writePrices(port, writes, writeOptions),
    setQuantities: (items, writeOptions) => writeQuantities(port, items, writeOptions),
    changedVariants: (changeOptions) => readChangedVariants(port, changeOptions),
  };
}
