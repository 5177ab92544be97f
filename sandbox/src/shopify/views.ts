import type { ProductRecord, VariantRecord } from "./catalog-state.ts";
import { totalAvailable } from "./catalog-state.ts";
import { arraySource, type ConnectionArgs, encodeCursor, paginate } from "./connection.ts";
import { dateTime, gid, money } from "./gid.ts";
import { InventoryItemView } from "./inventory-views.ts";
import type { RequestContext } from "./shop-state.ts";

export { inventoryItemView, levelView, locationView, primaryLocation } from "./inventory-views.ts";

/**
 * GraphQL views over the store's records. graphql-js's default resolver reads `source[field]` and
 * calls it when it is a function, so getters and methods on a prototype compute only the fields a
 * query selects, and a bulk export of 100,000 variants allocates no per-field closures.
 * Records sit in #private fields so no schema field name can collide with them.
 */
export class VariantView {
  readonly #ctx: RequestContext;
  readonly #variant: VariantRecord;

  constructor(ctx: RequestContext, variant: VariantRecord) {
    this.#ctx = ctx;
    this.#variant = variant;
  }

  get __typename() {
    return "ProductVariant";
  }
  get id() {
    return gid("ProductVariant", this.#variant.id);
  }
  get legacyResourceId() {
    return String(this.#variant.id);
  }
  get sku() {
    return this.#variant.sku;
  }
  get title() {
    return this.#variant.title;
  }
  get displayName() {
    return `${this.#product().title} - ${this.#variant.title}`;
  }
  get price() {
    return money(this.#variant.priceCents);
  }
  get compareAtPrice() {
    const cents = this.#variant.compareAtPriceCents;
    return cents === null ? null : money(cents);
  }
  get barcode() {
    return this.#variant.barcode;
  }
  get taxable() {
    return this.#variant.taxable;
  }
  get taxCode() {
    return null;
  }
  get inventoryPolicy() {
    return this.#variant.inventoryPolicy;
  }
  get inventoryQuantity() {
    return totalAvailable(this.#variant);
  }
  get sellableOnlineQuantity() {
    return totalAvailable(this.#variant);
  }
  get availableForSale() {
    const variant = this.#variant;
    return !variant.tracked || variant.inventoryPolicy === "CONTINUE" || totalAvailable(variant) > 0;
  }
  get position() {
    return this.#variant.position;
  }
  get requiresComponents() {
    return this.#variant.isBundle;
  }
  get selectedOptions() {
    const title = this.#variant.title;
    if (title === "Default Title") return [{ name: "Title", value: title }];
    const [size, color] = title.split(" / ");
    return [{ name: "Size", value: size ?? title }, ...(color ? [{ name: "Color", value: color }] : [])];
  }
  get createdAt() {
    return dateTime(this.#variant.createdAt);
  }
  get updatedAt() {
    return dateTime(this.#variant.updatedAt);
  }
  get defaultCursor() {
    return encodeCursor(this.#variant.id, String(this.#variant.id));
  }
  get image() {
    return null;
  }
  get product() {
    return new ProductView(this.#ctx, this.#product());
  }
  get inventoryItem() {
    return new InventoryItemView(this.#ctx, this.#variant);
  }

  #product(): ProductRecord {
    return this.#ctx.shop.catalog.products.get(this.#variant.productId)!;
  }
}

class ProductView {
  readonly #ctx: RequestContext;
  readonly #product: ProductRecord;

  constructor(ctx: RequestContext, product: ProductRecord) {
    this.#ctx = ctx;
    this.#product = product;
  }

  get __typename() {
    return "Product";
  }
  get id() {
    return gid("Product", this.#product.id);
  }
  get legacyResourceId() {
    return String(this.#product.id);
  }
  get title() {
    return this.#product.title;
  }
  get handle() {
    return this.#product.handle;
  }
  get productType() {
    return this.#product.productType;
  }
  get vendor() {
    return "Stockbridge Demo";
  }
  get status() {
    return "ACTIVE";
  }
  get isGiftCard() {
    return false;
  }
  get tags() {
    return [];
  }
  get description() {
    return "";
  }
  get descriptionHtml() {
    return "";
  }
  get templateSuffix() {
    return null;
  }
  get onlineStoreUrl() {
    return null;
  }
  get publishedAt() {
    return dateTime(this.#product.createdAt);
  }
  get createdAt() {
    return dateTime(this.#product.createdAt);
  }
  get updatedAt() {
    return dateTime(this.#product.updatedAt);
  }
  get hasOnlyDefaultVariant() {
    const variants = this.#variants();
    return variants.length === 1 && variants[0]!.title === "Default Title";
  }
  get hasOutOfStockVariants() {
    return this.#variants().some((variant) => variant.tracked && totalAvailable(variant) <= 0);
  }
  get hasVariantsThatRequiresComponents() {
    return this.#variants().some((variant) => variant.isBundle);
  }
  get tracksInventory() {
    return this.#variants().some((variant) => variant.tracked);
  }
  get totalInventory() {
    return this.#variants().reduce((sum, variant) => sum + totalAvailable(variant), 0);
  }
  get totalVariants() {
    return this.#product.variantIds.length;
  }
  get variantsCount() {
    return { count: this.#product.variantIds.length, precision: "EXACT" };
  }
  get priceRangeV2() {
    const prices = this.#variants().map((variant) => variant.priceCents);
    const price = (cents: number) => ({ amount: money(cents), currencyCode: "USD" });
    return { minVariantPrice: price(Math.min(...prices)), maxVariantPrice: price(Math.max(...prices)) };
  }
  variants(args: ConnectionArgs) {
    const ctx = this.#ctx;
    return paginate({
      source: arraySource(this.#variants(), (variant) => variant.id),
      args,
      idOf: (variant) => variant.id,
      sortValueOf: (variant) => String(variant.position),
      view: (variant) => new VariantView(ctx, variant),
      unbounded: ctx.bulk,
    });
  }

  #variants(): VariantRecord[] {
    const catalog = this.#ctx.shop.catalog;
    return this.#product.variantIds.map((id) => catalog.variants.get(id)!);
  }
}

export function variantView(ctx: RequestContext, variant: VariantRecord) {
  return new VariantView(ctx, variant);
}

export function productView(ctx: RequestContext, product: ProductRecord) {
  return new ProductView(ctx, product);
}
