import type { DemoCatalog, SandboxClock, SeedErpItem, SeedProduct, SeedVariant } from "@stockbridge/sandbox";
import { stableGuid, startSandbox } from "@stockbridge/sandbox";
import { type Job, SANDBOX_DEMO } from "@stockbridge/shared";
import type { AppDeps } from "../src/app.ts";
import { type Connectors, createConnectors } from "../src/connectors/connectors.ts";
import { createBulkSlots } from "../src/connectors/shopify/bulk-slots.ts";
import type { ConnectorClock } from "../src/connectors/transport.ts";
import { createHeldRepo } from "../src/history/held-repo.ts";
import { createHistoryRepo } from "../src/history/repo.ts";
import { createSettingsRepo } from "../src/settings/repo.ts";
import { type CredentialSource, createSyncConnectors } from "../src/sync/connectors.ts";
import { createSyncEngine, type SyncEngineDeps } from "../src/sync/engine.ts";
import { createSyncRepo } from "../src/sync/repo.ts";
import { createTestApp, createTestClock, type TestApp } from "./helpers.ts";
import { registerSubscriber } from "./mapping-fixtures.ts";

const SEED = 42;

/** A clock that moves only when told (or when a connector "sleeps"): throttle waits cost no real time. */
function stoppedClock(start: Date): SandboxClock {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance: (milliseconds) => {
      now += milliseconds;
    },
    set: (date) => {
      now = date.getTime();
    },
  };
}

export interface MappedPair {
  mappingId: string;
  product: SeedProduct;
  variant: SeedVariant;
  item: SeedErpItem;
}

/**
 * The sync engine over the real app database and the sandbox simulators over real HTTP: a subscriber,
 * the seeded demo store and ERP, and helpers to map pairs and to look at Shopify through its API.
 */
export async function startSyncWorld(
  options: {
    size?: number;
    releaseDate?: Date;
    engine?: Partial<SyncEngineDeps>;
    /** The app's own tuning (its sync routes and catalog pulls), e.g. lowered bulk thresholds. */
    app?: Pick<AppDeps, "syncTuning" | "catalogTuning">;
    /** How the engine's connectors reach the sandbox: a test can act on each call (e.g. fail some). */
    fetch?: typeof fetch;
  } = {},
) {
  // The sandbox starts first so the app can be pointed at it; both clocks start at the same instant.
  const clock = stoppedClock(createTestClock().now());
  const running = await startSandbox({
    clock,
    seed: SEED,
    size: options.size ?? 40,
    shopifyReleaseDate: options.releaseDate,
  });
  const connectorClock: ConnectorClock = {
    now: () => clock.now().getTime(),
    sleep: async (milliseconds) => clock.advance(Math.max(0, milliseconds)),
  };
  // The app's own engine (the sync routes) reaches the same sandbox once `connect()` saved connections.
  const logs: string[] = [];
  const app = await createTestApp({
    env: { SANDBOX_URL: running.origin },
    deps: { connectorClock, log: (line: string) => logs.push(line), ...options.app },
  });
  const catalog = running.sandbox.reset(SEED, options.size ?? 40) as DemoCatalog;
  const subscriber = await registerSubscriber(app);
  const base = createConnectors({
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    clock: connectorClock,
    sandboxUrl: running.origin,
  });
  // More attempts than production so fault-injection tests cannot lose a call to bad luck.
  const connectors: Connectors = {
    ...base,
    shopify: (credentials, overrides = {}) => base.shopify(credentials, { maxAttempts: 10, ...overrides }),
    acumatica: (connection, fn, overrides = {}) =>
      base.acumatica(connection, fn, { maxAttempts: 10, ...overrides }),
  };
  const acumaticaLogin = {
    password: SANDBOX_DEMO.acumatica.password as string,
    apiVersion: SANDBOX_DEMO.acumatica.apiVersion as string,
  };
  const credentials: CredentialSource = {
    shopifyCredentials: async () => ({ ...SANDBOX_DEMO.shopify }),
    acumaticaCredentials: async () => ({
      instanceUri: `${running.origin}${SANDBOX_DEMO.acumatica.instancePath}`,
      endpointName: SANDBOX_DEMO.acumatica.endpointName,
      apiVersion: acumaticaLogin.apiVersion,
      username: SANDBOX_DEMO.acumatica.username,
      password: acumaticaLogin.password,
      company: SANDBOX_DEMO.acumatica.company,
    }),
  };
  const syncConnectors = createSyncConnectors({
    credentials,
    connectors,
    bulkSlots: createBulkSlots(app.db, app.clock.now),
  });
  const engine = createSyncEngine({
    repo: createSyncRepo(app.db),
    history: createHistoryRepo(app.db),
    held: createHeldRepo(app.db),
    settings: createSettingsRepo(app.db),
    connectors: syncConnectors,
    now: app.clock.now,
    newId: () => crypto.randomUUID(),
    ...options.engine,
  });

  const erpBySku = new Map(catalog.acumatica.items.map((item) => [item.inventoryId, item]));
  const pairs = catalog.shopify.products.flatMap((product) =>
    product.variants.flatMap((variant) => {
      const item = variant.sku ? erpBySku.get(variant.sku) : undefined;
      return item ? [{ product, variant, item }] : [];
    }),
  );

  async function graphql<T = Record<string, unknown>>(
    query: string,
    variables: Record<string, unknown> = {},
    version = "2025-04",
  ): Promise<T> {
    const response = await fetch(
      `${running.origin}/shopify/${SANDBOX_DEMO.shopify.storeName}/admin/api/${version}/graphql.json`,
      {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "X-Shopify-Access-Token": SANDBOX_DEMO.shopify.accessToken,
        },
        body: JSON.stringify({ query, variables }),
      },
    );
    const body = (await response.json()) as { data?: T; errors?: unknown };
    if (!body.data) throw new Error(`sandbox GraphQL failed: ${JSON.stringify(body.errors)}`);
    return body.data;
  }

  return {
    app,
    clock,
    catalog,
    engine,
    /** How the engine reaches the two systems (the held applier's too). */
    syncConnectors,
    sandbox: running.sandbox,
    origin: running.origin,
    userId: subscriber.userId,
    token: subscriber.token,
    api: subscriber.api,
    /** Seeded variant/item pairs with the same SKU, in catalog order; filter to pick cases. */
    pairs,
    acumaticaLogin,
    graphql,
    /** Lines the app wrote to its server log. */
    logs,
    /** The paced Shopify transport the engine writes through, for tests of the writers themselves. */
    shopifyStore: () => syncConnectors.shopify(subscriber.userId),

    /** Saves the sandbox's demo connections for the subscriber, so the app's sync routes reach it. */
    async connect(overrides: { acumaticaPassword?: string } = {}) {
      await subscriber.api.call("saveShopify", { body: { ...SANDBOX_DEMO.shopify } });
      await subscriber.api.call("saveAcumatica", {
        body: {
          name: SANDBOX_DEMO.acumatica.name,
          apiVersion: SANDBOX_DEMO.acumatica.apiVersion,
          instanceUri: `${running.origin}${SANDBOX_DEMO.acumatica.instancePath}`,
          endpointName: SANDBOX_DEMO.acumatica.endpointName,
          username: SANDBOX_DEMO.acumatica.username,
          password: overrides.acumaticaPassword ?? SANDBOX_DEMO.acumatica.password,
          company: SANDBOX_DEMO.acumatica.company,
        },
      });
    },

    /** Maps pairs the way a pull plus auto mapping would leave them (catalog rows included). */
    async map(
      chosen: { product: SeedProduct; variant: SeedVariant; item: SeedErpItem }[],
    ): Promise<MappedPair[]> {
      return Promise.all(chosen.map((pair) => insertPair(app, subscriber.userId, pair)));
    },

    async setSettings(settings: {
      syncPrice?: boolean;
      syncMsrp?: boolean;
      acumaticaQuantity?: string;
      shopifyQuantity?: string;
    }) {
      await app.db.execute({
        sql: `INSERT INTO settings (user_id, acumatica_quantity, shopify_quantity, sync_price, sync_msrp, updated_at) VALUES (?, ?, ?, ?, ?, '2026-01-01T00:00:00Z')
              ON CONFLICT(user_id) DO UPDATE SET acumatica_quantity = excluded.acumatica_quantity, shopify_quantity = excluded.shopify_quantity,
                sync_price = excluded.sync_price, sync_msrp = excluded.sync_msrp`,
        args: [
          subscriber.userId,
          settings.acumaticaQuantity ?? "Available",
          settings.shopifyQuantity ?? "Available",
          settings.syncPrice === false ? 0 : 1,
          settings.syncMsrp ? 1 : 0,
        ],
      });
    },

    /** Shopify's current price, compare-at and primary-location quantities of a seeded variant. */
    async shopifyVariant(variantId: number) {
      const data = await graphql<{
        productVariant: {
          price: string;
          compareAtPrice: string | null;
          inventoryItem: { inventoryLevel: { quantities: { name: string; quantity: number }[] } | null };
        };
      }>(
        `query($id: ID!, $location: ID!) { productVariant(id: $id) { price compareAtPrice inventoryItem { inventoryLevel(locationId: $location) { quantities(names: ["available", "on_hand"]) { name quantity } } } } }`,
        {
          id: `gid://shopify/ProductVariant/${variantId}`,
          location: `gid://shopify/Location/${catalog.shopify.locations[0]!.id}`,
        },
      );
      const quantities = data.productVariant.inventoryItem.inventoryLevel?.quantities ?? [];
      return {
        priceCents: Math.round(Number(data.productVariant.price) * 100),
        compareAtCents:
          data.productVariant.compareAtPrice === null
            ? null
            : Math.round(Number(data.productVariant.compareAtPrice) * 100),
        available: quantities.find((q) => q.name === "available")?.quantity ?? null,
        onHand: quantities.find((q) => q.name === "on_hand")?.quantity ?? null,
      };
    },

    async faults(body: Record<string, unknown>) {
      for (const [system, settings] of Object.entries(body))
        running.sandbox.systems[system as "shopify" | "acumatica"].configure(
          settings as Record<string, unknown>,
        );
    },

    state() {
      return {
        shopify: running.sandbox.systems.shopify.state(),
        acumatica: running.sandbox.systems.acumatica.state(),
      } as {
        shopify: Record<string, number> & {
          servedVersions: Record<string, number>;
          /** Executed operations by root field: which calls the engine made. */
          rootFields: Record<string, number | undefined>;
        };
        acumatica: Record<string, number>;
      };
    },

    /** Follows a job through `GET /jobs/:id` until it ends, as a client would. */
    async finishedJob(job: Pick<Job, "_id">): Promise<Job> {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const current = await subscriber.api.call("job", { params: { id: job._id } });
        if (current.status === "succeeded" || current.status === "failed") return current;
        if (Date.now() > deadline) throw new Error(`job ${job._id} still ${current.status}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },

    /** Moves the sandbox's (and the connectors') clock on: Shopify's bucket refills meanwhile. */
    advance(milliseconds: number) {
      clock.advance(milliseconds);
    },

    close: () => running.close(),
  };
}

export type SyncWorld = Awaited<ReturnType<typeof startSyncWorld>>;

/** A price set in Shopify by someone else (the admin, another app): the variant's updated_at moves. */
export async function setShopifyPrice(w: SyncWorld, pair: MappedPair, cents: number) {
  const data = await w.graphql<{ productVariantsBulkUpdate: { userErrors: unknown[] } }>(
    `mutation($productId: ID!, $variants: [ProductVariantsBulkInput!]!) { productVariantsBulkUpdate(productId: $productId, variants: $variants) { userErrors { message } } }`,
    {
      productId: `gid://shopify/Product/${pair.product.id}`,
      variants: [{ id: `gid://shopify/ProductVariant/${pair.variant.id}`, price: (cents / 100).toFixed(2) }],
    },
  );
  if (data.productVariantsBulkUpdate.userErrors.length > 0)
    throw new Error(`setting a Shopify price: ${JSON.stringify(data.productVariantsBulkUpdate.userErrors)}`);
}

/** A sale or recount in Shopify at the primary location, outside the engine (no compare). */
export async function setShopifyAvailable(w: SyncWorld, pair: MappedPair, quantity: number) {
  const data = await w.graphql<{ inventorySetQuantities: { userErrors: unknown[] } }>(
    `mutation($input: InventorySetQuantitiesInput!) { inventorySetQuantities(input: $input) { userErrors { code message } } }`,
    {
      input: {
        name: "available",
        reason: "correction",
        ignoreCompareQuantity: true,
        quantities: [
          {
            inventoryItemId: `gid://shopify/InventoryItem/${pair.variant.inventoryItemId}`,
            locationId: `gid://shopify/Location/${w.catalog.shopify.locations[0]!.id}`,
            quantity,
          },
        ],
      },
    },
  );
  if (data.inventorySetQuantities.userErrors.length > 0)
    throw new Error(`setting a Shopify quantity: ${JSON.stringify(data.inventorySetQuantities.userErrors)}`);
}

/** An ERP stock item's default price changed in Acumatica (through its REST API: LastModified moves). */
export async function setErpPrice(w: SyncWorld, item: SeedErpItem, cents: number) {
  const instance = `${w.origin}${SANDBOX_DEMO.acumatica.instancePath}`;
  const login = await fetch(`${instance}/entity/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      name: SANDBOX_DEMO.acumatica.username,
      password: SANDBOX_DEMO.acumatica.password,
      tenant: SANDBOX_DEMO.acumatica.company,
    }),
  });
  await login.body?.cancel();
  const cookie = login.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  try {
    const response = await fetch(
      `${instance}/entity/${SANDBOX_DEMO.acumatica.endpointName}/${SANDBOX_DEMO.acumatica.apiVersion}/StockItem`,
      {
        method: "PUT",
        headers: { "Content-Type": "application/json", Accept: "application/json", Cookie: cookie },
        body: JSON.stringify({
          InventoryID: { value: item.inventoryId },
          DefaultPrice: { value: cents / 100 },
        }),
      },
    );
    if (!response.ok)
      throw new Error(`setting ${item.inventoryId}'s price: ${response.status} ${await response.text()}`);
    await response.body?.cancel();
  } finally {
    const logout = await fetch(`${instance}/entity/auth/logout`, {
      method: "POST",
      headers: { Cookie: cookie },
    });
    await logout.body?.cancel();
  }
}

/**
 * Sets an ERP item's quantities through the sandbox's control API: `quantity` on hand and available
 * in its first warehouse, none in the others, so the item's totals are exactly `quantity`.
 */
export async function setErpQuantity(w: SyncWorld, item: SeedErpItem, quantity: number) {
  await setErpWarehouseQuantities(w, item, [quantity]);
}

/** Quantities (on hand = available) per warehouse in the item's warehouse order; the rest get none. */
export async function setErpWarehouseQuantities(w: SyncWorld, item: SeedErpItem, quantities: number[]) {
  for (const [index, warehouse] of item.warehouses.entries()) {
    const value = quantities[index] ?? 0;
    const response = await fetch(`${w.origin}/__control/acumatica/quantities`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        inventoryId: item.inventoryId,
        warehouseId: warehouse.warehouseId,
        onHand: value,
        available: value,
        availableForShipment: 0,
      }),
    });
    if (!response.ok)
      throw new Error(`setting ${item.inventoryId}'s quantity: ${response.status} ${await response.text()}`);
  }
}

/** Matched, tracked, stocked pairs (not the seeded special cases). */
export function plainPairs(w: SyncWorld, count: number) {
  return w.pairs
    .filter(
      ({ variant, item }) =>
        variant.tracked && !variant.isBundle && variant.levels.length > 0 && item.isStockItem,
    )
    .slice(0, count);
}

/** ERP totals over warehouses, as the engine reads them. */
export function erpTotals(item: SeedErpItem) {
  return item.warehouses.reduce(
    (sum, w) => ({
      available: sum.available + w.available,
      onHand: sum.onHand + w.onHand,
      availableForShipping: sum.availableForShipping + w.availableForShipment,
    }),
    { available: 0, onHand: 0, availableForShipping: 0 },
  );
}

export function noteIdOf(item: SeedErpItem): string {
  return stableGuid(`${SEED}:item:${item.isStockItem ? "stock" : "nonstock"}:${item.inventoryId}`);
}

async function insertPair(
  app: TestApp,
  userId: string,
  pair: { product: SeedProduct; variant: SeedVariant; item: SeedErpItem },
): Promise<MappedPair> {
  const mappingId = crypto.randomUUID();
  const variantGid = `gid://shopify/ProductVariant/${pair.variant.id}`;
  const acumaticaId = noteIdOf(pair.item);
  const sku = pair.variant.sku ?? "";
  const level = pair.variant.levels[0];
  await app.db.batch(
    [
      {
        sql: `INSERT INTO shopify_products (id, user_id, variant_id, product_id, inventory_item_id, title, sku, sku_key, price_cents, compare_at_price_cents,
                is_physical, tracked, location_id, available, on_hand, locations_json)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?)`,
        args: [
          crypto.randomUUID(),
          userId,
          variantGid,
          `gid://shopify/Product/${pair.product.id}`,
          `gid://shopify/InventoryItem/${pair.variant.inventoryItemId}`,
          pair.product.title,
          sku,
          sku.trim().toLowerCase(),
          pair.variant.priceCents,
          pair.variant.compareAtPriceCents,
          pair.variant.tracked ? 1 : 0,
          level ? `gid://shopify/Location/${level.locationId}` : null,
          level?.available ?? null,
          level ? level.available + level.committed + level.unavailable : null,
          JSON.stringify(
            level
              ? [
                  {
                    locationId: `gid://shopify/Location/${level.locationId}`,
                    available: level.available,
                    onHandInventory: 0,
                  },
                ]
              : [],
          ),
        ],
      },
      {
        // As a pull leaves them: a non-stock item has no quantities (NULL), a stock item some.
        sql: `INSERT INTO acumatica_products (id, user_id, acumatica_id, sku, sku_key, description, default_price_cents, msrp_cents, available, on_hand,
                available_for_shipping, is_stock_item) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?9, ?9, ?9, ?)`,
        args: [
          crypto.randomUUID(),
          userId,
          acumaticaId,
          pair.item.inventoryId,
          pair.item.inventoryId.toLowerCase(),
          pair.item.description,
          0,
          null,
          pair.item.isStockItem ? 0 : null,
          pair.item.isStockItem ? 1 : 0,
        ],
      },
      {
        sql: `INSERT INTO mappings (id, user_id, shopify_variant_id, shopify_sku, acumatica_id, acumatica_sku, mapping_type, created_at, updated_at)
              VALUES (?, ?, ?, ?, ?, ?, 'exact-sku', ?7, ?7)`,
        // Created now, as the mapping screens create them (a sync of what changed reads new ones).
        args: [
          mappingId,
          userId,
          variantGid,
          sku,
          acumaticaId,
          pair.item.inventoryId,
          app.clock.now().toISOString(),
        ],
      },
    ],
    "write",
  );
  return { mappingId, ...pair };
}
