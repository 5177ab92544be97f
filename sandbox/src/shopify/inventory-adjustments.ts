import { levelAt } from "./catalog-state.ts";
import { dateTime, gid, idOf } from "./gid.ts";
import type { AdjustmentChange, AdjustmentGroupRecord, RequestContext } from "./shop-state.ts";
import { inventoryItemView, levelView, locationView } from "./views.ts";

/** Long demo runs keep memory flat: the oldest adjustment groups are forgotten first. */
const KEPT_ADJUSTMENT_GROUPS = 10_000;

/** Records an inventory change set (what `inventoryAdjustmentGroup` and `node(id:)` show later). */
export function recordAdjustmentGroup(
  ctx: RequestContext,
  group: { reason: string; referenceDocumentUri: string | null; changes: AdjustmentChange[] },
): number {
  const shop = ctx.shop;
  const id = shop.nextAdjustmentId++;
  shop.adjustments.set(id, { id, createdAt: ctx.now, ...group });
  if (shop.adjustments.size > KEPT_ADJUSTMENT_GROUPS) {
    const oldest = shop.adjustments.keys().next();
    if (!oldest.done) shop.adjustments.delete(oldest.value);
  }
  return id;
}

interface ChangeFilters {
  inventoryItemIds?: string[] | null;
  locationIds?: string[] | null;
  quantityNames?: string[] | null;
}

export function adjustmentGroupView(ctx: RequestContext, group: AdjustmentGroupRecord) {
  const catalog = ctx.shop.catalog;
  const wanted = (filters: ChangeFilters, change: AdjustmentChange) =>
    (!filters.inventoryItemIds ||
      filters.inventoryItemIds.includes(gid("InventoryItem", change.inventoryItemId))) &&
    (!filters.locationIds || filters.locationIds.includes(gid("Location", change.locationId))) &&
    (!filters.quantityNames || filters.quantityNames.includes(change.name));
  return {
    __typename: "InventoryAdjustmentGroup",
    id: gid("InventoryAdjustmentGroup", group.id),
    createdAt: dateTime(group.createdAt),
    reason: group.reason,
    referenceDocumentUri: group.referenceDocumentUri,
    staffMember: null,
    app: { __typename: "App", id: gid("App", 7_000_001), title: "Stockbridge", handle: "stockbridge" },
    changes: (filters: ChangeFilters) =>
      group.changes
        .filter((change) => wanted(filters, change))
        .map((change) => {
          const variant = catalog.variantByItem.get(change.inventoryItemId);
          const location = catalog.locationsById.get(change.locationId);
          return {
            name: change.name,
            delta: change.delta,
            quantityAfterChange: change.quantityAfterChange,
            ledgerDocumentUri: null,
            item: () => (variant ? inventoryItemView(ctx, variant) : null),
            location: () => (location ? locationView(ctx, location) : null),
          };
        }),
  };
}

/** `inventoryActivate`: stocks an item at a location (the fix for ITEM_NOT_STOCKED_AT_LOCATION). */
export function inventoryActivate(
  args: { inventoryItemId: string; locationId: string; available?: number | null; onHand?: number | null },
  ctx: RequestContext,
) {
  const variant = ctx.shop.catalog.variantByItem.get(idOf(args.inventoryItemId, "InventoryItem") ?? -1);
  if (!variant) {
    return {
      inventoryLevel: null,
      userErrors: [{ field: ["inventoryItemId"], message: "Inventory item does not exist" }],
    };
  }
  const locationId = idOf(args.locationId, "Location") ?? -1;
  if (!ctx.shop.catalog.locationsById.has(locationId)) {
    return {
      inventoryLevel: null,
      userErrors: [{ field: ["locationId"], message: "Location does not exist" }],
    };
  }
  let level = levelAt(variant, locationId);
  if (!level) {
    level = {
      locationId,
      available: args.available ?? args.onHand ?? 0,
      committed: 0,
      reserved: 0,
      damaged: 0,
      safetyStock: 0,
      qualityControl: 0,
      incoming: 0,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    };
    variant.levels.push(level);
    variant.levels.sort((a, b) => a.locationId - b.locationId);
  }
  return { inventoryLevel: levelView(ctx, variant, level), userErrors: [] };
}
