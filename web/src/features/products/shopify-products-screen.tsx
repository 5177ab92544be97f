import { MESSAGES, SHOPIFY_SORT_FIELDS } from "@stockbridge/shared";
import { useQuery } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useApi } from "../../lib/services-context.tsx";
import { Select } from "../../ui/select.tsx";
import { shopifyLocationsQuery } from "../settings/mapping-settings-queries.ts";
import { shopifyProductColumns } from "./product-columns.ts";
import { ProductsScreen } from "./products-screen.tsx";
import { productKeys, shopifyProductsQuery } from "./queries.ts";

const FIRST = "";

/**
 * Shopify Products (spec section 2): the pulled catalog, server-paged, and 'Get Products'. The two
 * quantity columns show the first location, or the active location the merchant picks.
 */
export function ShopifyProductsScreen() {
  const api = useApi();
  const [locationId, setLocationId] = useState(FIRST);
  // Only for the picker: without a connection (or locations) there is nothing to pick, and the
  // screen says what is missing itself, so a failure here shows no toast of its own.
  const locations = useQuery({ ...shopifyLocationsQuery(api), retry: false, meta: { silent: true } });
  const active = (locations.data ?? []).filter((location) => location.isActive);
  const columns = useCallback(
    (currencyCode: string | null) =>
      shopifyProductColumns(currencyCode, locationId === FIRST ? null : locationId),
    [locationId],
  );
  return (
    <ProductsScreen
      system="Shopify"
      sortFields={SHOPIFY_SORT_FIELDS}
      columns={columns}
      controls={
        active.length > 1 ? (
          <Select
            label="Quantities at"
            value={locationId}
            onChange={setLocationId}
            options={[
              { value: FIRST, label: "First location" },
              ...active.map((location) => ({ value: location.id, label: location.name })),
            ]}
          />
        ) : null
      }
      list={shopifyProductsQuery}
      connection={(user) => user?.shopifyConnection ?? null}
      pull={{
        scope: "shopify-pull",
        start: (api) => api.call("syncShopifyProducts"),
        listKey: productKeys.shopify(),
        failureMessage: MESSAGES.products.syncShopifyFailed,
      }}
    />
  );
}
