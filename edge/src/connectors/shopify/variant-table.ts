import { toGid } from "./gid.ts";
import type { ShopifyLevel, ShopifyValues } from "./variant-read.ts";

/** Shopify's current values per variant id as the mapping stores it; null = the variant does not exist. */
export interface ShopifyReading {
  get(variantId: string): ShopifyValues | null | undefined;
}

const TRACKED = 1;
const BUNDLE = 2;
const NO_INVENTORY_ITEM = 4;
const INVENTORY_ITEM_PREFIX = "gid://shopify/InventoryItem/";

/**
 * Variants' values as columns of numbers (ids kept by the caller's strings, each product's id once,
 * an inventory item's GID by its number), a ShopifyValues made only when one is asked for: as
 * objects a full sync's read held 464 bytes per variant, about a fifth of that as columns.
 */
export class VariantTable implements ShopifyReading {
  /** The row of each id as asked for; -1: the variant does not exist. */
  readonly #rows = new Map<string, number>();
  readonly #products: string[] = [];
  readonly #productIndex = new Map<string, number>();
  /** Per row: price cents, compare-at cents (NaN: none), inventory item number (NaN: see #itemIds), product index, flags. */
  readonly #numbers: number[] = [];
  /** Inventory item GIDs that are not `gid://shopify/InventoryItem/<number>`, by row. */
  readonly #itemIds = new Map<number, string>();
  /** Per row and location: available and on hand (NaN: not stocked there). */
  readonly #levels: number[] = [];
  #count = 0;

  /** `locations`: where every row's levels were read, in the order ShopifyValues lists them. */
  constructor(private readonly locations: readonly string[]) {}

  set(variantId: string, values: ShopifyValues | null): void {
    if (!values) {
      this.#rows.set(variantId, -1);
      return;
    }
    const row = this.#count++;
    this.#rows.set(variantId, row);
    let product = this.#productIndex.get(values.productId);
    if (product === undefined) {
      product = this.#products.push(values.productId) - 1;
      this.#productIndex.set(values.productId, product);
    }
    const item = values.inventoryItemId;
    const itemNumber = item === null ? Number.NaN : gidNumber(item, INVENTORY_ITEM_PREFIX);
    if (item !== null && Number.isNaN(itemNumber)) this.#itemIds.set(row, item);
    this.#numbers.push(
      values.priceCents,
      values.compareAtCents ?? Number.NaN,
      itemNumber,
      product,
      (values.tracked ? TRACKED : 0) |
        (values.isBundle ? BUNDLE : 0) |
        (item === null ? NO_INVENTORY_ITEM : 0),
    );
    for (const locationId of this.locations) {
      const level = values.levels.find((candidate) => candidate.locationId === locationId);
      this.#levels.push(level?.available ?? Number.NaN, level?.onHand ?? Number.NaN);
    }
  }

  get(variantId: string): ShopifyValues | null | undefined {
    const row = this.#rows.get(variantId);
    if (row === undefined) return undefined;
    if (row === -1) return null;
    const at = row * 5;
    const [price, compareAt, itemNumber, product, flags] = this.#numbers.slice(at, at + 5) as [
      number,
      number,
      number,
      number,
      number,
    ];
    const levels: ShopifyLevel[] = [];
    this.locations.forEach((locationId, index) => {
      const available = this.#levels[(row * this.locations.length + index) * 2] ?? Number.NaN;
      const onHand = this.#levels[(row * this.locations.length + index) * 2 + 1] ?? Number.NaN;
      if (!Number.isNaN(available)) levels.push({ locationId, available, onHand });
    });
    const first = levels[0]?.locationId === this.locations[0] ? levels[0] : undefined;
    return {
      variantId: toGid("ProductVariant", variantId),
      productId: this.#products[product] ?? "",
      priceCents: price,
      compareAtCents: Number.isNaN(compareAt) ? null : compareAt,
      inventoryItemId:
        flags & NO_INVENTORY_ITEM
          ? null
          : (this.#itemIds.get(row) ?? `${INVENTORY_ITEM_PREFIX}${itemNumber}`),
      tracked: (flags & TRACKED) !== 0,
      isBundle: (flags & BUNDLE) !== 0,
      locationId: first?.locationId ?? null,
      available: first?.available ?? null,
      onHand: first?.onHand ?? null,
      levels,
    };
  }
}

/** The number of `<prefix><number>` when writing it back gives the same text, else NaN. */
function gidNumber(gid: string, prefix: string): number {
  if (!gid.startsWith(prefix)) return Number.NaN;
  const digits = gid.slice(prefix.length);
  const number = Number(digits);
  return Number.isSafeInteger(number) && String(number) === digits ? number : Number.NaN;
}
