import { priceCurrencyMismatch } from "@stockbridge/shared";
import { readBaseCurrency } from "../connectors/acumatica/base-currency.ts";
import type { AcumaticaApi } from "../connectors/acumatica/session.ts";
import { SHOP_CURRENCY_QUERY } from "../connectors/shopify/shop-query.ts";
import { record, text } from "./shopify-gid.ts";
import type { ShopifyPort } from "./shopify-port.ts";

/** The store's currency code, or null when Shopify does not say. */
export async function readShopCurrency(port: ShopifyPort): Promise<string | null> {
  const answer = await port.execute<{ shop: unknown }>(SHOP_CURRENCY_QUERY);
  return text(record(answer.data?.shop)?.currencyCode) ?? null;
}

/**
 * The ERP's base currency inside the run's session; null when the instance cannot tell (an
 * endpoint without the Company entity), which leaves prices as they were synced before.
 */
export async function readErpCurrency(api: AcumaticaApi): Promise<string | null> {
  try {
    return await readBaseCurrency(api);
  } catch {
    return null;
  }
}

/** Why prices must not be sent this run: Shopify would read the ERP's numbers in another currency. */
export function priceRefusal(shopify: string | null, acumatica: string | null): string | null {
  if (!shopify || !acumatica || shopify === acumatica) return null;
  return priceCurrencyMismatch({ shopify, acumatica });
}
