import { createRandom, type Random } from "./random.ts";

/**
 * The demo world both simulators are seeded from. It is neutral (no protocol shapes): the Shopify
 * simulator turns it into products / variants / inventory, the Acumatica one into StockItem /
 * NonStockItem / warehouse quantities. Money is in cents so nothing drifts through floats.
 */
export interface SeedLocation {
  id: number;
  name: string;
  /** false = a deactivated location: it stocks nothing and `locations` leaves it out unless asked. */
  active: boolean;
}

export interface SeedInventoryLevel {
  locationId: number;
  available: number;
  committed: number;
  unavailable: number;
}

export interface SeedVariant {
  id: number;
  sku: string | null;
  title: string;
  priceCents: number;
  compareAtPriceCents: number | null;
  inventoryItemId: number;
  /** false = Shopify does not track inventory for this item. */
  tracked: boolean;
  /** false = a service / digital variant (Shopify "requiresShipping"). */
  requiresShipping: boolean;
  /** A bundle's parent variant: its inventory cannot be set directly. */
  isBundle: boolean;
  /** Levels only at the locations where the item is stocked. */
  levels: SeedInventoryLevel[];
  updatedAt: string;
}

export interface SeedProduct {
  id: number;
  title: string;
  handle: string;
  variants: SeedVariant[];
  updatedAt: string;
}

export interface SeedWarehouseQuantity {
  warehouseId: string;
  onHand: number;
  available: number;
  availableForShipment: number;
}

export interface SeedErpItem {
  inventoryId: string;
  description: string;
  isStockItem: boolean;
  defaultPriceCents: number;
  msrpCents: number;
  itemClass: string;
  itemStatus: "Active" | "Inactive" | "No Sales";
  /** Empty for non-stock items. */
  warehouses: SeedWarehouseQuantity[];
  lastModified: string;
}

export interface DemoCatalog {
  seed: number;
  shopify: { locations: SeedLocation[]; products: SeedProduct[] };
  acumatica: { warehouses: { id: string; description: string }[]; items: SeedErpItem[] };
}

export interface CatalogOptions {
  seed: number;
  /** Approximate number of Shopify variants (and ERP items). Default 300, at most 100,000. */
  size?: number;
}

export const DEFAULT_SEED = 42;
export const DEFAULT_SIZE = 300;
const MAX_SIZE = 100_000;

const NOUNS = ["Tee", "Hoodie", "Mug", "Cap", "Sock", "Tote", "Bottle", "Notebook", "Jacket", "Scarf"];
const ADJECTIVES = ["Classic", "Organic", "Trail", "Harbor", "Summit", "Canyon", "Meadow", "Coastal"];
const SIZES = ["S", "M", "L", "XL"];
const COLORS = ["Red", "Blue", "Black", "Sand", "Olive"];
const BASE_TIME = Date.UTC(2026, 9, 1, 9, 0, 0);

/**
 * Builds the demo catalog. Shape (for the default size of ~300 variants over ~120 products):
 * - most variants have an SKU that exists, identical, in the ERP with a different price/quantity;
 * - some SKUs exist only in Shopify, some only in the ERP;
 * - one SKU is duplicated in Shopify and one in the ERP (auto mapping must skip both);
 * - a few variants have no SKU, a few are untracked, a few are services (no shipping);
 * - one bundle variant; non-stock ERP items (services) matching the service variants;
 * - three Shopify locations: the primary, a store where only some items are stocked, and a
 *   deactivated one that stocks nothing; three ERP warehouses.
 */
export function generateCatalog(options: CatalogOptions): DemoCatalog {
  const size = Math.min(Math.max(options.size ?? DEFAULT_SIZE, 20), MAX_SIZE);
  const random = createRandom(options.seed);
  const locations: SeedLocation[] = [
    { id: 70_001, name: "Main Warehouse", active: true },
    { id: 70_002, name: "Downtown Store", active: true },
    { id: 70_003, name: "Harbor Pop-up", active: false },
  ];
  const warehouses = [
    { id: "WHOLESALE", description: "Wholesale warehouse" },
    { id: "RETAIL", description: "Retail warehouse" },
    { id: "RETURNS", description: "Returns (not for shipping)" },
  ];

  const products: SeedProduct[] = [];
  const items: SeedErpItem[] = [];
  let variantCount = 0;
  let productIndex = 0;
  let nextVariantId = 40_000_001;
  let nextInventoryItemId = 50_000_001;

  while (variantCount < size) {
    productIndex += 1;
    const noun = NOUNS[productIndex % NOUNS.length]!;
    const adjective = ADJECTIVES[Math.floor(productIndex / NOUNS.length) % ADJECTIVES.length]!;
    const title = `${adjective} ${noun} ${productIndex}`;
    const isService = productIndex % 29 === 0;
    const variantTotal = isService ? 1 : Math.min(random.int(1, 4), size - variantCount);
    const productId = 30_000_000 + productIndex;
    const updatedAt = new Date(BASE_TIME + productIndex * 60_000).toISOString();
    const variants: SeedVariant[] = [];

    for (let v = 0; v < variantTotal; v += 1) {
      variantCount += 1;
      const ordinal = variantCount;
      const baseSku = isService ? `SRV-${String(productIndex).padStart(5, "0")}` : skuFor(productIndex, v);
      const kind = variantKind(ordinal, size);
      const sku = kind === "no-sku" ? null : kind === "duplicate-shopify" ? "DUP-SHOP-1" : baseSku;
      const priceCents = random.int(500, 12_000);
      // Compare-at 1-30 % above the price, as sales run; in proportion, so no seeded store trips a safety limit.
      const compareAtPriceCents = random.chance(0.3)
        ? priceCents + Math.round((priceCents * random.int(100, 3_000)) / 10_000)
        : null;
      const tracked = kind !== "untracked" && !isService;
      const firstOnly = ordinal % 7 === 0;
      const levels: SeedInventoryLevel[] = isService
        ? []
        : locations
            .filter((location, index) => location.active && (index === 0 || !firstOnly))
            .map((location) => ({
              locationId: location.id,
              available: random.int(0, 80),
              committed: random.int(0, 5),
              unavailable: random.chance(0.2) ? random.int(1, 4) : 0,
            }));
      variants.push({
        id: nextVariantId++,
        sku,
        title: isService ? "Default Title" : `${SIZES[v % SIZES.length]} / ${random.pick(COLORS)}`,
        priceCents,
        compareAtPriceCents,
        inventoryItemId: nextInventoryItemId++,
        tracked,
        requiresShipping: !isService,
        isBundle: kind === "bundle",
        levels: kind === "not-stocked" ? [] : levels,
        updatedAt,
      });

      if (kind === "shopify-only" || kind === "no-sku" || kind === "duplicate-shopify") continue;
      items.push(
        erpItemFor(random, {
          inventoryId: baseSku,
          description: title,
          isService,
          shopifyPriceCents: priceCents,
          warehouses,
        }),
      );
    }
    products.push({ id: productId, title, handle: slug(title), variants, updatedAt });
  }

  // Items that exist only in the ERP, and one SKU the ERP holds twice in different case (imported
  // keys); matching is case-insensitive, so auto mapping must treat them as a duplicate.
  const erpOnly = Math.max(3, Math.round(size * 0.04));
  for (let i = 1; i <= erpOnly; i += 1) {
    const sku = `ERP-ONLY-${String(i).padStart(5, "0")}`;
    items.push(
      erpItemFor(random, {
        inventoryId: sku,
        description: `ERP only ${i}`,
        isService: false,
        shopifyPriceCents: random.int(500, 9_000),
        warehouses,
      }),
    );
  }
  items.push(
    erpItemFor(random, {
      inventoryId: "DUP-ERP-1",
      description: "Duplicate A",
      isService: false,
      shopifyPriceCents: 1_000,
      warehouses,
    }),
  );
  items.push(
    erpItemFor(random, {
      inventoryId: "Dup-Erp-1",
      description: "Duplicate B",
      isService: false,
      shopifyPriceCents: 1_100,
      warehouses,
    }),
  );
  return { seed: options.seed, shopify: { locations, products }, acumatica: { warehouses, items } };
}

type VariantKind =
  | "matched"
  | "shopify-only"
  | "no-sku"
  | "untracked"
  | "duplicate-shopify"
  | "bundle"
  | "not-stocked";

/** Spreads the special cases evenly so every catalog size has each of them. */
function variantKind(ordinal: number, size: number): VariantKind {
  if (ordinal === 5) return "bundle";
  if (ordinal === 9 || ordinal === 10) return "duplicate-shopify";
  if (ordinal === 12) return "not-stocked";
  const step = Math.max(10, Math.round(size / 12));
  if (ordinal % step === 3) return "shopify-only";
  if (ordinal % step === 6) return "no-sku";
  if (ordinal % step === 8) return "untracked";
  return "matched";
}

function skuFor(productIndex: number, variantIndex: number): string {
  return `SKU-${String(productIndex).padStart(5, "0")}-${SIZES[variantIndex % SIZES.length]}`;
}

function erpItemFor(
  random: Random,
  {
    inventoryId,
    description,
    isService,
    shopifyPriceCents,
    warehouses,
  }: {
    inventoryId: string;
    description: string;
    isService: boolean;
    shopifyPriceCents: number;
    warehouses: { id: string }[];
  },
): SeedErpItem {
  // ERP prices drift from Shopify's (-10 % to +20 %) so a first sync has real work to do, in
  // proportion to the price: a seeded store's first sync stays inside the default safety limits.
  const defaultPriceCents = Math.max(
    100,
    shopifyPriceCents + Math.round((shopifyPriceCents * random.int(-300, 600)) / 3_000),
  );
  return {
    inventoryId,
    description,
    isStockItem: !isService,
    defaultPriceCents,
    msrpCents: defaultPriceCents + Math.round((defaultPriceCents * random.int(0, 2_500)) / 12_500),
    itemClass: isService ? "SERVICES" : "STOCKITEM",
    itemStatus: "Active",
    warehouses: isService
      ? []
      : warehouses.map((warehouse) => {
          const onHand = random.int(0, 120);
          const available = Math.max(0, onHand - random.int(0, 10));
          return {
            warehouseId: warehouse.id,
            onHand,
            available,
            availableForShipment: warehouse.id === "RETURNS" ? 0 : available,
          };
        }),
    lastModified: new Date(BASE_TIME + random.int(0, 86_400_000)).toISOString(),
  };
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/(^-|-$)/g, "");
}
