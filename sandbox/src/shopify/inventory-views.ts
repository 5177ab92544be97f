import { GraphQLError } from "graphql";
import {
  type CatalogState,
  duplicateSkuCount,
  isQuantityName,
  type LevelRecord,
  type LocationRecord,
  QUANTITY_NAMES,
  quantityOf,
  type VariantRecord,
} from "./catalog-state.ts";
import { arraySource, type ConnectionArgs, paginate, sortedIdSource } from "./connection.ts";
import { dateTime, gid, idOf } from "./gid.ts";
import type { RequestContext } from "./shop-state.ts";
// Views link to each other both ways (item -> variant -> item); the cycle is only crossed at call time.
import { VariantView } from "./views.ts";

/** InventoryItem, InventoryLevel and Location views (see views.ts for why these are classes). */
export class InventoryItemView {
  readonly #ctx: RequestContext;
  readonly #variant: VariantRecord;

  constructor(ctx: RequestContext, variant: VariantRecord) {
    this.#ctx = ctx;
    this.#variant = variant;
  }

  get __typename() {
    return "InventoryItem";
  }
  get id() {
    return gid("InventoryItem", this.#variant.inventoryItemId);
  }
  get legacyResourceId() {
    return String(this.#variant.inventoryItemId);
  }
  get sku() {
    return this.#variant.sku;
  }
  get tracked() {
    return this.#variant.tracked;
  }
  get requiresShipping() {
    return this.#variant.requiresShipping;
  }
  get trackedEditable() {
    return { locked: false, reason: null };
  }
  get duplicateSkuCount() {
    return duplicateSkuCount(this.#ctx.shop.catalog, this.#variant);
  }
  get createdAt() {
    return dateTime(this.#variant.createdAt);
  }
  get updatedAt() {
    return dateTime(this.#variant.updatedAt);
  }
  get countryCodeOfOrigin() {
    return null;
  }
  get provinceCodeOfOrigin() {
    return null;
  }
  get harmonizedSystemCode() {
    return null;
  }
  get unitCost() {
    return null;
  }
  get inventoryHistoryUrl() {
    const { storeName } = this.#ctx.shop;
    return `https://admin.shopify.com/store/${storeName}/products/inventory/${this.#variant.inventoryItemId}/inventory_history`;
  }
  get measurement() {
    const id = gid("InventoryItemMeasurement", this.#variant.inventoryItemId);
    return { id, weight: { value: this.#variant.requiresShipping ? 0.5 : 0, unit: "KILOGRAMS" } };
  }
  get locationsCount() {
    return { count: this.#variant.levels.length, precision: "EXACT" };
  }
  get variant() {
    return new VariantView(this.#ctx, this.#variant);
  }
  inventoryLevel(args: { locationId: string }) {
    const locationId = idOf(args.locationId, "Location");
    const level = this.#variant.levels.find((candidate) => candidate.locationId === locationId);
    return level ? new LevelView(this.#ctx, this.#variant, level) : null;
  }
  inventoryLevels(args: ConnectionArgs) {
    const ctx = this.#ctx;
    const variant = this.#variant;
    return paginate({
      source: arraySource(variant.levels, (level) => level.locationId),
      args,
      idOf: (level) => level.locationId,
      view: (level) => new LevelView(ctx, variant, level),
      unbounded: ctx.bulk,
    });
  }
}

class LevelView {
  readonly #ctx: RequestContext;
  readonly #variant: VariantRecord;
  readonly #level: LevelRecord;

  constructor(ctx: RequestContext, variant: VariantRecord, level: LevelRecord) {
    this.#ctx = ctx;
    this.#variant = variant;
    this.#level = level;
  }

  get __typename() {
    return "InventoryLevel";
  }
  get id() {
    return gid("InventoryLevel", this.#level.locationId, {
      inventory_item_id: this.#variant.inventoryItemId,
    });
  }
  get canDeactivate() {
    return !this.#variant.isBundle;
  }
  get deactivationAlert() {
    return null;
  }
  get createdAt() {
    return dateTime(this.#level.createdAt);
  }
  get updatedAt() {
    return dateTime(this.#level.updatedAt);
  }
  get location() {
    return new LocationView(this.#ctx, this.#ctx.shop.catalog.locationsById.get(this.#level.locationId)!);
  }
  get item() {
    return new InventoryItemView(this.#ctx, this.#variant);
  }
  quantities(args: { names: string[] }) {
    const level = this.#level;
    const itemId = this.#variant.inventoryItemId;
    return args.names.map((name) => {
      if (!isQuantityName(name)) {
        throw new GraphQLError(
          `'${name}' is not a valid quantity name. Valid names: ${QUANTITY_NAMES.join(", ")}.`,
        );
      }
      return {
        id: gid("InventoryQuantity", level.locationId, { inventory_item_id: itemId, name }),
        name,
        quantity: quantityOf(level, name),
        updatedAt: dateTime(level.updatedAt),
      };
    });
  }
}

class LocationView {
  readonly #ctx: RequestContext;
  readonly #location: LocationRecord;
  // Every simulated location is merchant-managed (and there are few); a deactivated one stocks nothing.
  readonly addressVerified = true;
  readonly isFulfillmentService = false;
  readonly fulfillmentService = null;
  readonly hasUnfulfilledOrders = false;

  constructor(ctx: RequestContext, location: LocationRecord) {
    this.#ctx = ctx;
    this.#location = location;
  }

  get __typename() {
    return "Location";
  }
  get id() {
    return gid("Location", this.#location.id);
  }
  get legacyResourceId() {
    return String(this.#location.id);
  }
  get name() {
    return this.#location.name;
  }
  get isActive() {
    return this.#location.isActive;
  }
  get activatable() {
    return !this.#location.isActive;
  }
  get deactivatable() {
    return this.#location.isActive && !this.isPrimary;
  }
  get deletable() {
    return !this.#location.isActive;
  }
  get deactivatedAt() {
    return this.#location.isActive ? null : dateTime(this.#location.createdAt + 86_400_000);
  }
  get fulfillsOnlineOrders() {
    return this.#location.isActive;
  }
  get shipsInventory() {
    return this.#location.isActive;
  }
  get hasActiveInventory() {
    return this.#location.isActive;
  }
  get isPrimary() {
    return this.#location.id === primaryLocation(this.#ctx.shop.catalog)?.id;
  }
  get createdAt() {
    return dateTime(this.#location.createdAt);
  }
  get updatedAt() {
    return dateTime(this.#location.createdAt);
  }
  get address() {
    return {
      address1: "1 Sandbox Way",
      address2: null,
      city: "Springfield",
      province: "Oregon",
      provinceCode: "OR",
      country: "United States",
      countryCode: "US",
      zip: "97477",
      phone: null,
      latitude: null,
      longitude: null,
      formatted: ["1 Sandbox Way", "Springfield OR 97477", "United States"],
    };
  }
  inventoryLevel(args: { inventoryItemId: string }) {
    const itemId = idOf(args.inventoryItemId, "InventoryItem");
    const variant = itemId === null ? undefined : this.#ctx.shop.catalog.variantByItem.get(itemId);
    const level = variant?.levels.find((candidate) => candidate.locationId === this.#location.id);
    return level ? new LevelView(this.#ctx, variant!, level) : null;
  }
  inventoryLevels(args: ConnectionArgs) {
    const ctx = this.#ctx;
    const catalog = ctx.shop.catalog;
    const locationId = this.#location.id;
    const levelOf = (variant: VariantRecord) =>
      variant.levels.find((level) => level.locationId === locationId);
    return paginate({
      source: sortedIdSource(catalog.variantIds, (id) => catalog.variants.get(id)!),
      args,
      idOf: (variant) => variant.id,
      matches: (variant) => levelOf(variant) !== undefined,
      view: (variant) => new LevelView(ctx, variant, levelOf(variant)!),
      unbounded: ctx.bulk,
    });
  }
}

/** The shop's primary location: its first active one (the fallback Shopify answers `location` with). */
export function primaryLocation(catalog: CatalogState): LocationRecord | undefined {
  return catalog.locations.find((location) => location.isActive);
}

export function inventoryItemView(ctx: RequestContext, variant: VariantRecord) {
  return new InventoryItemView(ctx, variant);
}

export function levelView(ctx: RequestContext, variant: VariantRecord, level: LevelRecord) {
  return new LevelView(ctx, variant, level);
}

export function locationView(ctx: RequestContext, location: LocationRecord) {
  return new LocationView(ctx, location);
}
