import { CLIENT_CACHE_MS } from "@stockbridge/shared";
import { describe, expect, it } from "vitest";
import type { ApiClient } from "../../lib/api.ts";
import { createApi } from "../../lib/api.ts";
import { normalizeListParams, toQueryStrings } from "../../lib/list-query.ts";
import { createQueryClient } from "../../lib/query-client.ts";
import { createMemoryStorage, createTokenStore } from "../../lib/token-store.ts";
import { mappingHistoryQuery, mappingKeys } from "../mapping/queries.ts";
import { acumaticaProductsQuery, productKeys, shopifyProductsQuery } from "../products/queries.ts";
import { meQuery, sessionKeys } from "./queries.ts";

// Building query options never calls the API, so a client pointed nowhere is enough.
function offlineApi(): ApiClient {
  return createApi({
    tokens: createTokenStore(createMemoryStorage()),
    onUnauthorized: () => undefined,
    baseUrl: "http://127.0.0.1:9/api",
  });
}

function startsWith(key: readonly unknown[], prefix: readonly unknown[]): boolean {
  return prefix.every((part, index) => JSON.stringify(key[index]) === JSON.stringify(part));
}

describe("productKeys", () => {
  it("nests every Shopify list under the Shopify key and that under products", () => {
    const key = shopifyProductsQuery(offlineApi(), { page: 2, limit: 25, search: "abc" }).queryKey;
    expect(startsWith(key, productKeys.shopify())).toBe(true);
    expect(startsWith(key, productKeys.all)).toBe(true);
    expect(startsWith(key, productKeys.acumatica())).toBe(false);
  });

  it("gives equal requests one key: defaults filled, blank search left out", () => {
    const a = productKeys.acumaticaList({ search: "   " });
    const b = productKeys.acumaticaList({ page: 1, limit: 10 });
    expect(a).toEqual(b);
    expect(acumaticaProductsQuery(offlineApi(), {}).queryKey).toEqual(b);
  });

  it("keeps sort in the key so each order is cached apart", () => {
    const asc = productKeys.shopifyList({ sortBy: "sku", sortDirection: "asc" });
    const desc = productKeys.shopifyList({ sortBy: "sku", sortDirection: "desc" });
    expect(asc).not.toEqual(desc);
  });
});

describe("mappingKeys", () => {
  it("nests history pages under the mapping area", () => {
    const key = mappingHistoryQuery(offlineApi(), { page: 3 }).queryKey;
    expect(startsWith(key, mappingKeys.history())).toBe(true);
    expect(startsWith(key, mappingKeys.all)).toBe(true);
  });
});

describe("meQuery", () => {
  it("is kept out of the persisted cache", () => {
    const options = meQuery(offlineApi());
    expect(options.queryKey).toEqual(sessionKeys.me());
    expect(options.meta?.persist).toBe(false);
  });
});

describe("toQueryStrings", () => {
  it("sends numbers as text and leaves an empty search out", () => {
    expect(toQueryStrings(normalizeListParams({ page: 2, limit: 100, search: "" }))).toEqual({
      page: "2",
      limit: "100",
    });
  });
});

describe("createQueryClient", () => {
  it("keeps lists fresh for the spec's 5 minutes", () => {
    const client = createQueryClient();
    expect(client.getDefaultOptions().queries?.staleTime).toBe(CLIENT_CACHE_MS);
  });
});
