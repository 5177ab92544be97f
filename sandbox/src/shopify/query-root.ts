import { SANDBOX_DEMO } from "@stockbridge/shared/sandbox-demo";
import { bulkOperationById, bulkOperationView, currentBulkOperation } from "./bulk-operations.ts";
import { totalAvailable, type VariantRecord } from "./catalog-state.ts";
import {
  arraySource,
  type ConnectionArgs,
  type OrderedSource,
  paginate,
  sortedIdSource,
} from "./connection.ts";
import { dateTime, gid, idOf, parseGid } from "./gid.ts";
import { adjustmentGroupView } from "./inventory-adjustments.ts";
import { inventoryItemSearch, productSearch, variantSearch } from "./search-fields.ts";
import { compileSearch } from "./search-query.ts";
import type { RequestContext } from "./shop-state.ts";
import {
  inventoryItemView,
  levelView,
  locationView,
  primaryLocation,
  productView,
  variantView,
} from "./views.ts";

type SearchArgs = ConnectionArgs & { query?: string | null; sortKey?: string | null };

/** Root `QueryRoot` fields the simulator answers; anything else is reported as not simulated. */
export const QUERY_FIELDS = {
  shop: (_args: unknown, ctx: RequestContext) => shopView(ctx),

  productVariants: (args: SearchArgs, ctx: RequestContext) => {
    const catalog = ctx.shop.catalog;
    const matches = compileSearch(args.query, variantSearch(catalog, ctx.now));
    const sort = variantSort(args.sortKey, ctx);
    if (!sort) {
      const source = sortedIdSource(catalog.variantIds, (id) => catalog.variants.get(id)!);
      return paginateVariants(ctx, { source, args, matches });
    }
    const sorted = catalog.variantIds
      .map((id) => catalog.variants.get(id)!)
      .filter(matches)
      .sort((a, b) => compareValues(sort(a), sort(b)) || a.id - b.id);
    return paginateVariants(ctx, {
      source: arraySource(sorted, (variant) => variant.id),
      args,
      matches: () => true,
      sort,
    });
  },

  // Every Admin schema says its `query` has "No supported search fields": it counts every variant,
  // so a client cannot count a search with it (as the catalog-wide count it is).
  productVariantsCount: (_args: { query?: string | null }, ctx: RequestContext) => ({
    count: ctx.shop.catalog.variants.size,
    precision: "EXACT",
  }),

  productVariant: (args: { id: string }, ctx: RequestContext) => {
    const variant = ctx.shop.catalog.variants.get(idOf(args.id, "ProductVariant") ?? -1);
    return variant ? variantView(ctx, variant) : null;
  },

  products: (args: SearchArgs, ctx: RequestContext) => {
    const catalog = ctx.shop.catalog;
    const matches = compileSearch(args.query, productSearch(catalog, ctx.now));
    return paginate({
      source: sortedIdSource(catalog.productIds, (id) => id),
      args,
      idOf: (id) => id,
      matches,
      view: (id) => productView(ctx, catalog.products.get(id)!),
      unbounded: ctx.bulk,
    });
  },

  productsCount: (args: { query?: string | null }, ctx: RequestContext) => {
    const matches = compileSearch(args.query, productSearch(ctx.shop.catalog, ctx.now));
    return { count: ctx.shop.catalog.productIds.filter(matches).length, precision: "EXACT" };
  },

  product: (args: { id: string }, ctx: RequestContext) => {
    const product = ctx.shop.catalog.products.get(idOf(args.id, "Product") ?? -1);
    return product ? productView(ctx, product) : null;
  },

  inventoryItems: (args: SearchArgs, ctx: RequestContext) => {
    const catalog = ctx.shop.catalog;
    return paginate({
      source: sortedIdSource(catalog.variantIds, (id) => catalog.variants.get(id)!),
      args,
      idOf: (variant) => variant.id,
      matches: compileSearch(args.query, inventoryItemSearch(ctx.now)),
      view: (variant) => inventoryItemView(ctx, variant),
      unbounded: ctx.bulk,
    });
  },

  inventoryItem: (args: { id: string }, ctx: RequestContext) => {
    const variant = ctx.shop.catalog.variantByItem.get(idOf(args.id, "InventoryItem") ?? -1);
    return variant ? inventoryItemView(ctx, variant) : null;
  },

  inventoryLevel: (args: { id: string }, ctx: RequestContext) => inventoryLevelById(ctx, args.id),

  locations: (
    args: SearchArgs & { includeInactive?: boolean; includeLegacy?: boolean },
    ctx: RequestContext,
  ) => {
    const byName = args.sortKey !== "ID";
    // Shopify leaves deactivated locations out unless `includeInactive: true` is asked for.
    const locations = ctx.shop.catalog.locations
      .filter((location) => location.isActive || args.includeInactive === true)
      .sort((a, b) => (byName ? a.name.localeCompare(b.name) || a.id - b.id : a.id - b.id));
    return paginate({
      source: arraySource(locations, (location) => location.id),
      args,
      idOf: (location) => location.id,
      sortValueOf: (location) => (byName ? location.name : String(location.id)),
      view: (location) => locationView(ctx, location),
      unbounded: ctx.bulk,
    });
  },

  location: (args: { id?: string | null }, ctx: RequestContext) => {
    const catalog = ctx.shop.catalog;
    // Without an id Shopify answers the shop's primary (fallback) location.
    const location = args.id
      ? catalog.locationsById.get(idOf(args.id, "Location") ?? -1)
      : primaryLocation(catalog);
    return location ? locationView(ctx, location) : null;
  },

  node: (args: { id: string }, ctx: RequestContext) => nodeById(ctx, args.id),
  nodes: (args: { ids: string[] }, ctx: RequestContext) => args.ids.map((id) => nodeById(ctx, id)),

  currentBulkOperation: (args: { type?: "QUERY" | "MUTATION" | null }, ctx: RequestContext) =>
    currentBulkOperation(ctx, args.type ?? "QUERY"),
  bulkOperation: (args: { id: string }, ctx: RequestContext) => bulkOperationById(ctx, args.id),
};

function paginateVariants(
  ctx: RequestContext,
  {
    source,
    args,
    matches,
    sort,
  }: {
    source: OrderedSource<VariantRecord>;
    args: SearchArgs;
    matches: (variant: VariantRecord) => boolean;
    sort?: (variant: VariantRecord) => string | number;
  },
) {
  return paginate({
    source,
    args,
    idOf: (variant) => variant.id,
    sortValueOf: sort ? (variant) => String(sort(variant)) : undefined,
    matches,
    view: (variant) => variantView(ctx, variant),
    unbounded: ctx.bulk,
  });
}

/** Sort keys other than ID (the default) need the matches in memory, sorted by their value. */
function variantSort(sortKey: string | null | undefined, ctx: RequestContext) {
  const catalog = ctx.shop.catalog;
  switch (sortKey) {
    case "SKU":
      return (variant: VariantRecord) => variant.sku ?? "";
    case "TITLE":
    case "NAME":
      return (variant: VariantRecord) => variant.title;
    case "FULL_TITLE":
      return (variant: VariantRecord) =>
        `${catalog.products.get(variant.productId)?.title} - ${variant.title}`;
    case "INVENTORY_QUANTITY":
    case "INVENTORY_LEVELS_AVAILABLE":
      return (variant: VariantRecord) => totalAvailable(variant);
    case "POSITION":
      return (variant: VariantRecord) => variant.productId * 10_000 + variant.position;
    default:
      return null;
  }
}

function compareValues(a: string | number, b: string | number): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a).localeCompare(String(b));
}

function shopView(ctx: RequestContext) {
  const domain = `${ctx.shop.storeName}.myshopify.com`;
  return {
    __typename: "Shop",
    id: gid("Shop", ctx.shop.shopId),
    name: SANDBOX_DEMO.shopify.name,
    email: "owner@stockbridge.example",
    contactEmail: "owner@stockbridge.example",
    shopOwnerName: "Sandbox Owner",
    myshopifyDomain: domain,
    url: `https://${domain}`,
    primaryDomain: {
      id: gid("Domain", ctx.shop.shopId),
      host: domain,
      url: `https://${domain}`,
      sslEnabled: true,
    },
    currencyCode: ctx.currencyCode,
    enabledPresentmentCurrencies: ["USD"],
    ianaTimezone: "Etc/UTC",
    timezoneAbbreviation: "UTC",
    timezoneOffset: "+0000",
    timezoneOffsetMinutes: 0,
    weightUnit: "KILOGRAMS",
    unitSystem: "METRIC_SYSTEM",
    taxesIncluded: false,
    taxShipping: false,
    setupRequired: false,
    checkoutApiSupported: true,
    createdAt: dateTime(Date.parse("2024-01-15T10:00:00Z")),
    updatedAt: dateTime(ctx.now),
    plan: { displayName: ctx.plan.displayName, shopifyPlus: ctx.plan.shopifyPlus, partnerDevelopment: false },
  };
}

function inventoryLevelById(ctx: RequestContext, id: string) {
  const parsed = parseGid(id);
  if (parsed?.type !== "InventoryLevel") return null;
  const variant = ctx.shop.catalog.variantByItem.get(Number(parsed.query.get("inventory_item_id")));
  const level = variant?.levels.find((candidate) => candidate.locationId === parsed.id);
  return level ? levelView(ctx, variant!, level) : null;
}

function nodeById(ctx: RequestContext, id: string): unknown {
  const parsed = parseGid(id);
  if (!parsed) {
    idOf(id, "Node"); // throws Shopify's "Invalid global id" error
    return null;
  }
  const catalog = ctx.shop.catalog;
  switch (parsed.type) {
    case "ProductVariant": {
      const variant = catalog.variants.get(parsed.id);
      return variant ? variantView(ctx, variant) : null;
    }
    case "Product": {
      const product = catalog.products.get(parsed.id);
      return product ? productView(ctx, product) : null;
    }
    case "InventoryItem": {
      const variant = catalog.variantByItem.get(parsed.id);
      return variant ? inventoryItemView(ctx, variant) : null;
    }
    case "InventoryLevel":
      return inventoryLevelById(ctx, id);
    case "Location": {
      const location = catalog.locationsById.get(parsed.id);
      return location ? locationView(ctx, location) : null;
    }
    case "Shop":
      return parsed.id === ctx.shop.shopId ? shopView(ctx) : null;
    case "BulkOperation": {
      const operation = ctx.shop.bulkOperations.find((candidate) => candidate.id === parsed.id);
      return operation ? bulkOperationView(ctx, operation) : null;
    }
    case "InventoryAdjustmentGroup": {
      const group = ctx.shop.adjustments.get(parsed.id);
      return group ? adjustmentGroupView(ctx, group) : null;
    }
    default:
      return null;
  }
}
