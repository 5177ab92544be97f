import { priceCurrencyMismatch } from "@stockbridge/shared";
import { record, text } from "../connectors/shopify/gid.ts";
import type { ShopifyPort } from "../connectors/shopify/port.ts";
import { SHOP_CURRENCY_QUERY } from "../connectors/shopify/shop-query.ts";

/** The store's currency code, or null when Shopify does not say. */
export async function readShopCurrency(port: ShopifyPort): Promise<string | null> {
  const answer = await port.execute<{ shop: unknown }>(SHOP_CURRENCY_QUERY);
  return text(record(answer.data?.shop)?.currencyCode) ?? null;
}

/** Why prices must not be sent this run: Shopify would read the ERP's numbers in another currency. */
export function priceRefusal(shopify: string | null, acumatica: string | null): string | null {
  if (!shopify || !acumatica || shopify === acumatica) return null;
  return priceCurrencyMismatch({ shopify, acumatica });
}
