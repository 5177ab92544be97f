import { queryOptions } from "@tanstack/react-query";
import type { ApiClient } from "../../lib/api.ts";

/** Keys of the Settings > Mapping data; either save invalidates `settingsKeys.all` (spec: settings reload). */
export const settingsKeys = {
  all: ["settings"] as const,
  detail: () => [...settingsKeys.all, "detail"] as const,
  safety: () => [...settingsKeys.all, "safety"] as const,
  locations: () => [...settingsKeys.all, "locations"] as const,
  warehouses: () => [...settingsKeys.all, "warehouses"] as const,
};

/** GET /settings: quantity mapping and price mapping together. */
export function settingsQuery(api: ApiClient) {
  return queryOptions({
    queryKey: settingsKeys.detail(),
    queryFn: () => api.call("settings"),
  });
}

/** GET /settings/safety: when a run is held for review instead of written. */
export function safetyLimitsQuery(api: ApiClient) {
  return queryOptions({
    queryKey: settingsKeys.safety(),
    queryFn: () => api.call("safetyLimits"),
  });
}

/** GET /shopify/locations: the store's locations (kept with the catalog), deactivated ones marked. */
export function shopifyLocationsQuery(api: ApiClient) {
  return queryOptions({
    queryKey: settingsKeys.locations(),
    queryFn: () => api.call("shopifyLocations"),
  });
}

/** GET /acumatica/warehouses: the ERP's warehouses (kept with the catalog). */
export function acumaticaWarehousesQuery(api: ApiClient) {
  return queryOptions({
    queryKey: settingsKeys.warehouses(),
    queryFn: () => api.call("acumaticaWarehouses"),
  });
}
