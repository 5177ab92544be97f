import { priceCurrencyMismatch } from "@stockbridge/shared";

/** Why prices must not be sent this run: Shopify would read the ERP's numbers in another currency. */
export function priceRefusal(shopify: string | null, acumatica: string | null): string | null {
  if (!shopify || !acumatica || shopify === acumatica) return null;
  return priceCurrencyMismatch({ shopify, acumatica });
}
