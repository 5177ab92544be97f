import { changeSku, type VariantRecord } from "./catalog-state.ts";
import { centsOf, idOf } from "./gid.ts";
import type { RequestContext } from "./shop-state.ts";
import { productView, variantView } from "./views.ts";

interface VariantInput {
  id?: string | null;
  price?: string | null;
  compareAtPrice?: string | null;
  barcode?: string | null;
  taxable?: boolean | null;
  inventoryPolicy?: "DENY" | "CONTINUE" | null;
  inventoryQuantities?: unknown[] | null;
  inventoryItem?: { sku?: string | null; tracked?: boolean | null; requiresShipping?: boolean | null } | null;
}

interface UserError {
  field: string[];
  code: string;
  message: string;
}

interface Change {
  variant: VariantRecord;
  input: VariantInput;
  priceCents?: number;
  compareAtPriceCents?: number | null;
}

/**
 * `productVariantsBulkUpdate`: one product per call; every variant must belong to it. All or
 * nothing unless `allowPartialUpdates: true`, which updates the valid variants and reports the rest.
 */
export function productVariantsBulkUpdate(
  args: { productId: string; variants: VariantInput[]; allowPartialUpdates?: boolean | null },
  ctx: RequestContext,
) {
  const catalog = ctx.shop.catalog;
  const product = catalog.products.get(idOf(args.productId, "Product") ?? -1);
  if (!product) {
    const userErrors = [
      { field: ["productId"], code: "PRODUCT_DOES_NOT_EXIST", message: "Product does not exist" },
    ];
    return { product: null, productVariants: null, userErrors };
  }
  const errors: UserError[] = [];
  const changes: Change[] = [];
  args.variants.forEach((input, index) => {
    const found = checkVariant(ctx, { productId: product.id, input, path: ["variants", String(index)] });
    if ("errors" in found) errors.push(...found.errors);
    else changes.push(found);
  });
  if (errors.length > 0 && !args.allowPartialUpdates) {
    return { product: null, productVariants: null, userErrors: errors };
  }
  const updatedAt = Math.floor(ctx.now / 1000) * 1000;
  for (const change of changes) apply(ctx, change, updatedAt);
  if (changes.length > 0) product.updatedAt = updatedAt;
  return {
    product: productView(ctx, product),
    productVariants: changes.map((change) => variantView(ctx, change.variant)),
    userErrors: errors,
  };
}

function checkVariant(
  ctx: RequestContext,
  { productId, input, path }: { productId: number; input: VariantInput; path: string[] },
) {
  const fail = (field: string, code: string, message: string) => ({
    errors: [{ field: [...path, field], code, message }],
  });
  if (!input.id) return fail("id", "PRODUCT_VARIANT_ID_MISSING", "Product variant is missing ID attribute");
  const variant = ctx.shop.catalog.variants.get(idOf(input.id, "ProductVariant") ?? -1);
  if (!variant) return fail("id", "PRODUCT_VARIANT_DOES_NOT_EXIST", "Product variant does not exist");
  if (variant.productId !== productId)
    return fail("id", "MUST_BE_FOR_THIS_PRODUCT", "Input must be for this product.");
  if (input.inventoryQuantities) {
    return fail(
      "inventoryQuantities",
      "NO_INVENTORY_QUANTITIES_ON_VARIANTS_UPDATE",
      "Inventory quantities can only be provided during create. To update inventory for existing variants, use inventoryAdjustQuantities.",
    );
  }
  const errors: UserError[] = [];
  const change: Change = { variant, input };
  if (input.price !== undefined) {
    const cents = input.price === null ? null : centsOf(input.price);
    if (cents === null)
      errors.push({ field: [...path, "price"], code: "INVALID_INPUT", message: "Price can't be blank" });
    else if (cents < 0) {
      errors.push({
        field: [...path, "price"],
        code: "GREATER_THAN_OR_EQUAL_TO",
        message: "Price must be greater than or equal to 0",
      });
    } else change.priceCents = cents;
  }
  if (input.compareAtPrice !== undefined) {
    // An explicit null clears the compare-at price; an omitted one leaves it as is.
    const cents = input.compareAtPrice === null ? null : centsOf(input.compareAtPrice);
    if (cents !== null && cents < 0) {
      errors.push({
        field: [...path, "compareAtPrice"],
        code: "GREATER_THAN_OR_EQUAL_TO",
        message: "Compare at price must be greater than or equal to 0",
      });
    } else change.compareAtPriceCents = cents;
  }
  return errors.length > 0 ? { errors } : change;
}

function apply(ctx: RequestContext, change: Change, updatedAt: number) {
  const { variant, input } = change;
  if (change.priceCents !== undefined) variant.priceCents = change.priceCents;
  if (change.compareAtPriceCents !== undefined) variant.compareAtPriceCents = change.compareAtPriceCents;
  if (input.barcode !== undefined) variant.barcode = input.barcode;
  if (typeof input.taxable === "boolean") variant.taxable = input.taxable;
  if (input.inventoryPolicy) variant.inventoryPolicy = input.inventoryPolicy;
  const item = input.inventoryItem;
  if (item) {
    if (item.sku !== undefined) changeSku(ctx.shop.catalog, variant, item.sku === "" ? null : item.sku);
    if (typeof item.tracked === "boolean") variant.tracked = item.tracked;
    if (typeof item.requiresShipping === "boolean") variant.requiresShipping = item.requiresShipping;
  }
  variant.updatedAt = updatedAt;
}
