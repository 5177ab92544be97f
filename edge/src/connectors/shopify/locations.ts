import type { ShopifyLocation } from "@stockbridge/shared";
import { ShopifyError } from "./errors.ts";
import type { GraphqlResponse, RequestOptions } from "./graphql-client.ts";

/**
 * Every location of the store, deactivated ones included, and the primary one (`location` without
 * an id answers it; `Location.isPrimary` is deprecated, so it is not asked for).
 */
export const LOCATIONS_QUERY = `query StockbridgeLocations($after: String) {
  locations(first: 250, after: $after, includeInactive: true, sortKey: ID) {
    pageInfo { hasNextPage endCursor }
    nodes { id name isActive }
  }
  location { id }
}`;

type Execute = <T>(
  query: string,
  variables?: Record<string, unknown>,
  options?: RequestOptions,
) => Promise<GraphqlResponse<T>>;

interface LocationsAnswer {
  locations: {
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
    nodes: { id: string; name: string; isActive: boolean }[];
  };
  location: { id: string } | null;
}

/** The store's locations in id order, the primary one marked. */
export async function readLocations(execute: Execute): Promise<ShopifyLocation[]> {
  const locations: ShopifyLocation[] = [];
  let primary: string | null = null;
  let after: string | null = null;
  for (;;) {
    const answer: GraphqlResponse<LocationsAnswer> = await execute<LocationsAnswer>(LOCATIONS_QUERY, {
      after,
    });
    if (answer.errors.length > 0 || !answer.data) {
      const reason = answer.errors.map((error) => error.message).join("; ") || "no data";
      throw new ShopifyError(`Shopify rejected the location read: ${reason}`, "graphql");
    }
    primary ??= answer.data.location?.id ?? null;
    for (const node of answer.data.locations.nodes)
      locations.push({ id: node.id, name: node.name, isActive: node.isActive, isPrimary: false });
    const page = answer.data.locations.pageInfo;
    if (!page.hasNextPage || !page.endCursor) break;
    after = page.endCursor;
  }
  return locations.map((location) => ({ ...location, isPrimary: location.id === primary }));
}

/** The primary location first, then the other active ones: the order the catalog keeps levels in. */
export function activeLocations(locations: readonly ShopifyLocation[]): ShopifyLocation[] {
  const active = locations.filter((location) => location.isActive);
  return [...active.filter((l) => l.isPrimary), ...active.filter((l) => !l.isPrimary)];
}
