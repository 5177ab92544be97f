import { SANDBOX_DEMO } from "@stockbridge/shared/sandbox-demo";
import type { SandboxClock } from "../clock.ts";
import type { DemoCatalog } from "../seed/catalog.ts";
import { ControlInputError, type Simulator } from "../simulator.ts";
import { addVariant, type NewVariant } from "./catalog-state.ts";
import { createShopifyRoutes } from "./routes.ts";
import { applySettings, DEFAULT_SETTINGS, type ShopifySettings } from "./settings.ts";
import { createShopState, type ShopState } from "./shop-state.ts";
import { changeProfile, refill, THROTTLE_PROFILES, throttleStatus } from "./throttle.ts";

export { validateShopifyOperation } from "./schema.ts";
export { resolveServedVersion, SCHEMA_KEYS, supportedVersions } from "./versions.ts";

export interface ShopifySimulatorOptions {
  clock: SandboxClock;
  /** Public origin for staged upload / bulk result URLs; a getter or "" lets the request tell. */
  origin: string | (() => string);
  /** The day version fall-forward is computed against (default: the clock's now). */
  releaseDate?: Date;
}

export interface ShopifySimulator extends Simulator {
  /** Adds a variant to a product, as a merchant would in the Shopify admin; answers its ids. */
  addVariant(input: NewVariant): { variantId: number; inventoryItemId: number };
}

const EMPTY_CATALOG: DemoCatalog = {
  seed: 0,
  shopify: { locations: [], products: [] },
  acumatica: { warehouses: [], items: [] },
};

/**
 * The Shopify Admin GraphQL simulator: the demo store `SANDBOX_DEMO.shopify.storeName` served over
 * Shopify's real schemas per API version, with calculated query cost, the leaky bucket, bulk
 * operations and staged uploads. Mounted by the sandbox app at `/shopify`.
 */
export function createShopifySimulator(options: ShopifySimulatorOptions): ShopifySimulator {
  const now = () => options.clock.now().getTime();
  let settings: ShopifySettings = { ...DEFAULT_SETTINGS, releaseDate: options.releaseDate ?? null };
  let shop = newShop(EMPTY_CATALOG);

  function newShop(catalog: DemoCatalog): ShopState {
    return createShopState({
      storeName: SANDBOX_DEMO.shopify.storeName,
      catalog,
      profile: THROTTLE_PROFILES[settings.throttleProfile],
      now: now(),
    });
  }

  const routes = createShopifyRoutes({
    shop: () => shop,
    settings: () => settings,
    now,
    releaseDate: () => settings.releaseDate ?? options.clock.now(),
    origin: () => (typeof options.origin === "function" ? options.origin() : options.origin),
    plan: () =>
      settings.throttleProfile === "plus"
        ? { displayName: "Shopify Plus", shopifyPlus: true }
        : { displayName: "Basic", shopifyPlus: false },
  });

  return {
    routes,
    reset(catalog) {
      // Settings (faults, plan, release date) are configuration and survive a reset; state does not.
      shop.closed = true;
      shop = newShop(catalog);
    },
    configure(input) {
      const next = applySettings(settings, input);
      if (next.throttleProfile !== settings.throttleProfile) {
        changeProfile(shop.bucket, THROTTLE_PROFILES[next.throttleProfile], now());
      }
      settings = next;
    },
    addVariant(input) {
      const variant = addVariant(shop.catalog, { ...input, now: now() });
      if (!variant) {
        throw new ControlInputError(
          shop.catalog.products.has(input.productId)
            ? `Product ${input.productId} already has a variant of that title.`
            : `Unknown product ${input.productId}.`,
        );
      }
      return { variantId: variant.id, inventoryItemId: variant.inventoryItemId };
    },
    state() {
      refill(shop.bucket, now());
      const { currentlyAvailable, maximumAvailable, restoreRate } = throttleStatus(shop.bucket);
      return {
        storeName: shop.storeName,
        variants: shop.catalog.variants.size,
        ...shop.counters,
        servedVersions: { ...shop.counters.servedVersions },
        rootFields: { ...shop.counters.rootFields },
        currentlyAvailable,
        maximumAvailable,
        restoreRate,
        throttleProfile: settings.throttleProfile,
        releaseDate: (settings.releaseDate ?? options.clock.now()).toISOString(),
        runningBulkOperations: shop.bulkOperations.filter(
          (op) => op.status === "CREATED" || op.status === "RUNNING",
        ).length,
      };
    },
  };
}
