import type { GraphQLResolveInfo } from "graphql";
import { type LevelRecord, levelAt, quantityOf, unavailableOf, type VariantRecord } from "./catalog-state.ts";
import { idOf } from "./gid.ts";
import { idempotencyKey, recallIdempotent, rememberIdempotent } from "./idempotency.ts";
import { adjustmentGroupView, recordAdjustmentGroup } from "./inventory-adjustments.ts";
import type { AdjustmentChange, RequestContext } from "./shop-state.ts";

interface QuantityInput {
  inventoryItemId: string;
  locationId: string;
  quantity: number;
  compareQuantity?: number | null;
  changeFromQuantity?: number | null;
}

interface SetQuantitiesInput {
  name: string;
  reason: string;
  referenceDocumentUri?: string | null;
  ignoreCompareQuantity?: boolean | null;
  quantities: QuantityInput[];
}

interface UserError {
  field: string[] | null;
  code: string;
  message: string;
}

interface StoredPayload {
  groupId: number | null;
  userErrors: UserError[];
}

interface Plan {
  variant: VariantRecord;
  level: LevelRecord;
  quantity: number;
}

/** Shopify's documented reasons for inventory changes (anything else is INVALID_REASON). */
const REASONS = new Set([
  "correction",
  "cycle_count_available",
  "damaged",
  "movement_canceled",
  "movement_created",
  "movement_received",
  "movement_updated",
  "other",
  "promotion",
  "quality_control",
  "received",
  "reservation_created",
  "reservation_deleted",
  "reservation_updated",
  "restock",
  "safety_stock",
  "shrinkage",
]);

/** The user error messages (the enum descriptions of InventorySetQuantitiesUserErrorCode). */
const MESSAGES: Record<string, string> = {
  INVALID_NAME: "The quantity name must be either 'available' or 'on_hand'.",
  INVALID_REASON: "The specified reason is invalid.",
  INVALID_REFERENCE_DOCUMENT: "The specified reference document is invalid.",
  INVALID_INVENTORY_ITEM: "The specified inventory item could not be found.",
  INVALID_LOCATION: "The specified location could not be found.",
  NO_DUPLICATE_INVENTORY_ITEM_ID_GROUP_ID_PAIR:
    "The combination of inventoryItemId and locationId must be unique.",
  NON_MUTABLE_INVENTORY_ITEM:
    "The specified inventory item is not allowed to be adjusted via API. Example: if the inventory item is a parent bundle.",
  ITEM_NOT_STOCKED_AT_LOCATION: "The specified inventory item is not stocked at the location.",
  INVALID_QUANTITY_NEGATIVE: "The quantity can't be negative.",
  INVALID_QUANTITY_TOO_HIGH: "The total quantity can't be higher than 1,000,000,000.",
  COMPARE_QUANTITY_REQUIRED:
    "The compareQuantity argument must be given to each quantity or ignored using ignoreCompareQuantity.",
  COMPARE_QUANTITY_STALE: "The compareQuantity value does not match persisted value.",
  CHANGE_FROM_QUANTITY_STALE: "The changeFromQuantity value does not match persisted value.",
  // 2026-04: the field stays optional in the schema; Shopify rejects its absence at runtime.
  CHANGE_FROM_QUANTITY_REQUIRED:
    "The changeFromQuantity argument must be given to each quantity. Pass null to skip the check.",
  IDEMPOTENCY_KEY_PARAMETER_MISMATCH:
    "The same idempotency key cannot be used with different operation parameters.",
};

const MAX_QUANTITY = 1_000_000_000;

/**
 * `inventorySetQuantities`: absolute `available` / `on_hand` per (item, location), all or nothing.
 * Compare-and-set follows the served version: compareQuantity / ignoreCompareQuantity before
 * 2026-01; `changeFromQuantity` (explicit null = skip) wins from 2026-01 and is required from 2026-04.
 */
export function inventorySetQuantities(
  args: { input: SetQuantitiesInput },
  ctx: RequestContext,
  info: GraphQLResolveInfo,
) {
  const key = idempotencyKey(ctx, info, "inventorySetQuantities");
  const recalled = recallIdempotent<StoredPayload>(ctx, {
    key,
    mutation: "inventorySetQuantities",
    input: args.input,
  });
  if (recalled?.kind === "replay") return payloadOf(ctx, recalled.payload);
  if (recalled?.kind === "mismatch") {
    return payloadOf(ctx, {
      groupId: null,
      userErrors: [userError(null, "IDEMPOTENCY_KEY_PARAMETER_MISMATCH")],
    });
  }
  const stored = setQuantities(ctx, args.input);
  rememberIdempotent(ctx, { key, mutation: "inventorySetQuantities", input: args.input, payload: stored });
  return payloadOf(ctx, stored);
}

function payloadOf(ctx: RequestContext, stored: StoredPayload) {
  const group = stored.groupId === null ? undefined : ctx.shop.adjustments.get(stored.groupId);
  return {
    inventoryAdjustmentGroup: group ? adjustmentGroupView(ctx, group) : null,
    userErrors: stored.userErrors,
  };
}

function setQuantities(ctx: RequestContext, input: SetQuantitiesInput): StoredPayload {
  const errors: UserError[] = [];
  const name = input.name === "available" || input.name === "on_hand" ? input.name : null;
  if (!name) errors.push(userError(["input", "name"], "INVALID_NAME"));
  if (!REASONS.has(input.reason)) errors.push(userError(["input", "reason"], "INVALID_REASON"));
  const uri = input.referenceDocumentUri;
  if (uri !== undefined && uri !== null && !/^[a-zA-Z][a-zA-Z0-9+.-]*:\S+$/.test(uri)) {
    errors.push(userError(["input", "referenceDocumentUri"], "INVALID_REFERENCE_DOCUMENT"));
  }
  const plans: Plan[] = [];
  const seen = new Set<string>();
  for (const [index, quantity] of input.quantities.entries()) {
    const planned = plan(ctx, { input, quantity, seen });
    if ("code" in planned) {
      const path = ["input", "quantities", String(index)];
      errors.push(
        userError(planned.field ? [...path, planned.field] : path, planned.code, planned.messageKey),
      );
    } else plans.push(planned);
  }
  if (errors.length > 0) return { groupId: null, userErrors: errors };

  const changes: AdjustmentChange[] = [];
  for (const { variant, level, quantity } of plans) {
    const before = level.available;
    level.available = name === "available" ? quantity : quantity - level.committed - unavailableOf(level);
    const delta = level.available - before;
    if (delta === 0) continue;
    // Only the level's own time moves: inventory lives apart from the variant, whose updated_at
    // (and `updated_at:` search) says when the variant itself (price, SKU...) was last written.
    level.updatedAt = ctx.now;
    const ids = { inventoryItemId: variant.inventoryItemId, locationId: level.locationId };
    const available = { name: "available", delta, quantityAfterChange: level.available, ...ids };
    const onHand = { name: "on_hand", delta, quantityAfterChange: quantityOf(level, "on_hand"), ...ids };
    changes.push(...(name === "available" ? [available, onHand] : [onHand, available]));
  }
  // Nothing moved: Shopify records no adjustment group.
  if (changes.length === 0) return { groupId: null, userErrors: [] };
  const groupId = recordAdjustmentGroup(ctx, {
    reason: input.reason,
    referenceDocumentUri: input.referenceDocumentUri ?? null,
    changes,
  });
  return { groupId, userErrors: [] };
}

/** What one quantity would change, or why it cannot (the field under `input.quantities.{i}`). */
function plan(
  ctx: RequestContext,
  { input, quantity, seen }: { input: SetQuantitiesInput; quantity: QuantityInput; seen: Set<string> },
): Plan | { field: string | null; code: string; messageKey?: string } {
  const catalog = ctx.shop.catalog;
  const variant = catalog.variantByItem.get(idOf(quantity.inventoryItemId, "InventoryItem") ?? -1);
  if (!variant) return { field: "inventoryItemId", code: "INVALID_INVENTORY_ITEM" };
  const locationId = idOf(quantity.locationId, "Location") ?? -1;
  if (!catalog.locationsById.has(locationId)) return { field: "locationId", code: "INVALID_LOCATION" };
  const pair = `${variant.inventoryItemId}:${locationId}`;
  if (seen.has(pair)) return { field: null, code: "NO_DUPLICATE_INVENTORY_ITEM_ID_GROUP_ID_PAIR" };
  seen.add(pair);
  if (variant.isBundle) return { field: "inventoryItemId", code: "NON_MUTABLE_INVENTORY_ITEM" };
  const level = levelAt(variant, locationId);
  if (!level) return { field: "locationId", code: "ITEM_NOT_STOCKED_AT_LOCATION" };
  if (quantity.quantity < 0) return { field: "quantity", code: "INVALID_QUANTITY_NEGATIVE" };
  if (quantity.quantity > MAX_QUANTITY) return { field: "quantity", code: "INVALID_QUANTITY_TOO_HIGH" };
  if (input.name === "available" || input.name === "on_hand") {
    const stale = compareAndSetError(ctx, { input, quantity, current: quantityOf(level, input.name) });
    if (stale) return stale;
  }
  return { variant, level, quantity: quantity.quantity };
}

function compareAndSetError(
  ctx: RequestContext,
  { input, quantity, current }: { input: SetQuantitiesInput; quantity: QuantityInput; current: number },
) {
  if (ctx.version.changeFromQuantity && quantity.changeFromQuantity !== undefined) {
    if (quantity.changeFromQuantity === null || quantity.changeFromQuantity === current) return null;
    return { field: "changeFromQuantity", code: "CHANGE_FROM_QUANTITY_STALE" };
  }
  if (ctx.version.compareAndSwapOnly) {
    // No dedicated code exists for a missing changeFromQuantity; the nearest documented one is used.
    return {
      field: "changeFromQuantity",
      code: "COMPARE_QUANTITY_REQUIRED",
      messageKey: "CHANGE_FROM_QUANTITY_REQUIRED",
    };
  }
  if (input.ignoreCompareQuantity) return null;
  if (quantity.compareQuantity === undefined || quantity.compareQuantity === null) {
    return { field: "compareQuantity", code: "COMPARE_QUANTITY_REQUIRED" };
  }
  if (quantity.compareQuantity === current) return null;
  return { field: "compareQuantity", code: "COMPARE_QUANTITY_STALE" };
}

function userError(field: string[] | null, code: string, messageKey = code): UserError {
  return { field, code, message: MESSAGES[messageKey] ?? code };
}
