import { formatMoney, fromCents } from "@stockbridge/shared";

/** GraphQL's Int is 32-bit: Shopify cannot even read a larger quantity. */
const MAX_GRAPHQL_INT = 2_147_483_647;
/** Prices are whole cents in a JS number: past 2^53 the Money string sent is no longer the ERP's price. */
const MAX_PRICE_CENTS = Number.MAX_SAFE_INTEGER;

export type WrittenField = "price" | "compareAtPrice" | "quantity";

const LABELS: Record<WrittenField, string> = {
  price: "Price",
  compareAtPrice: "Compare-at price (MSRP)",
  quantity: "Quantity",
};

/**
 * Why the ERP's `value` for `field` (cents for prices, units for a quantity) cannot be sent to
 * Shopify at all, or null. Such a value fails GraphQL coercion, which refuses the whole call before
 * it runs: up to 249 good items of the same batch with it. Values that can be sent but break
 * Shopify's rules (a quantity above 1,000,000,000, a negative price) are left to Shopify, which
 * refuses them item by item in its own words.
 */
export function unsendableReason(field: WrittenField, value: number): string | null {
  const label = LABELS[field];
  if (field === "quantity") {
    if (!Number.isInteger(value))
      return `${label} ${value} is not a whole number; Shopify counts whole units`;
    if (value > MAX_GRAPHQL_INT)
      return `${label} ${value} is above 2,147,483,647, the largest number Shopify's API takes`;
    return null;
  }
  if (value > MAX_PRICE_CENTS)
    return `${label} ${formatMoney(fromCents(value))} is above 90,071,992,547,409.91, the largest price Stockbridge can send to Shopify exactly`;
  return null;
}
