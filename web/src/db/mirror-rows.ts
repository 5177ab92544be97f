import type {
  AcumaticaProductChange,
  HistoryChange,
  MappingChange,
  ScheduleChange,
  ShopifyProductChange,
} from "@stockbridge/shared";

/** The lists the mirror keeps, one change feed each. */
export const MIRROR_LISTS = ["shopify", "acumatica", "mappings", "schedules", "history"] as const;
export type MirrorList = (typeof MIRROR_LISTS)[number];

/**
 * The lists the unmapped products are worked out from (each catalog less the products a mapping
 * uses), so the device holds a product once, not again in a list of its own.
 */
export const UNMAPPED_SOURCES = ["shopify", "acumatica", "mappings"] as const satisfies readonly MirrorList[];

/** Set on a row an offline edit changed locally: shown 'Pending' until the server answers. */
export interface PendingMark {
  pending?: true;
}

/** Sort values as stored for the indexes: null becomes -Infinity (first ascending, as SQLite). */
type SortValues<F extends string> = { [K in F as `s_${K}`]: number };

export const SHOPIFY_SORTS = ["price", "compareAtPrice", "available", "onHandInventory"] as const;
export const ACUMATICA_SORTS = [
  "defaultPrice",
  "msrp",
  "available",
  "onHandInventory",
  "availableForShipping",
] as const;

export type MirrorShopifyProduct = ShopifyProductChange &
  PendingMark & { skuKey: string } & SortValues<(typeof SHOPIFY_SORTS)[number]>;
export type MirrorAcumaticaProduct = AcumaticaProductChange &
  PendingMark & { skuKey: string } & SortValues<(typeof ACUMATICA_SORTS)[number]>;
export type MirrorMapping = MappingChange & PendingMark;
export type MirrorSchedule = ScheduleChange & PendingMark;
export type MirrorHistoryEntry = HistoryChange;

/** Per list: the feed version held, whether the first fill finished, and its progress. */
export interface MirrorState {
  list: MirrorList;
  version: number;
  complete: boolean;
  /** Rows held (for the progress of the first fill). */
  saved: number;
  /** Rows the server had when the fill started; null while unknown. */
  total: number | null;
  /** The catalog's one lastSynced (catalog lists only). */
  lastSynced: string | null;
  /**
   * Counts the writes to the list's table (absent: none counted yet), so a saved search index
   * (db/mirror-index.ts) is used only for the rows it was read from.
   */
  revision?: number;
  /** A catalog's currency as the server's list last answered it (absent: not asked yet). */
  currencyCode?: string | null;
}

const sortValue = (value: number | null | undefined): number => value ?? Number.NEGATIVE_INFINITY;

export function toMirrorShopify(row: ShopifyProductChange): MirrorShopifyProduct {
  const location = row.inventoryLocations[0];
  return {
    ...row,
    skuKey: row.sku.toLowerCase(),
    s_price: sortValue(row.price),
    s_compareAtPrice: sortValue(row.compareAtPrice),
    s_available: sortValue(location?.available),
    s_onHandInventory: sortValue(location?.onHandInventory),
  };
}

export function toMirrorAcumatica(row: AcumaticaProductChange): MirrorAcumaticaProduct {
  return {
    ...row,
    skuKey: row.sku.toLowerCase(),
    s_defaultPrice: sortValue(row.defaultPrice),
    s_msrp: sortValue(row.msrp),
    s_available: sortValue(row.available),
    s_onHandInventory: sortValue(row.onHandInventory),
    s_availableForShipping: sortValue(row.availableForShipping),
  };
}

/** Drops what only the mirror keeps, so a row reads as the API answers it (plus `pending`). */
export function withoutMirrorFields<T extends object>(row: T): T {
  const shown: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (key.startsWith("s_") || key === "skuKey") continue;
    shown[key] = value;
  }
  return shown as T;
}

/** Whether a row shown in a list carries an offline edit the server has not answered yet. */
export function isPendingRow(row: unknown): boolean {
  return typeof row === "object" && row !== null && "pending" in row && row.pending === true;
}
