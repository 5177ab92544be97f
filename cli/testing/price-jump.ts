import { type ApiClient, MAX_PAGE_SIZE, type Mapping } from "@stockbridge/shared";
import { setShopifyPrice } from "../../e2e/support/catalog-setup.ts";

/**
 * The CLI test files run at once against one sandbox store: each file that makes a price jump
 * names its own SKU here, so no file puts back (or jumps) a price another file is reading.
 */
export const PRICE_JUMP_SKUS = {
  historyHeld: "SKU-00059-L",
  drift: "SKU-00083-M",
  notifications: "SKU-00004-S",
} as const;

/** The user's mapping of this ERP SKU, from every page of the mapping list. */
export async function mappingOf(api: ApiClient, acumaticaSku: string): Promise<Mapping> {
  for (let page = 1, pages = 1; page <= pages; page += 1) {
    const data = await api.call("mappingHistory", {
      query: { page: String(page), limit: String(MAX_PAGE_SIZE) },
    });
    const found = data.mappings.find((mapping) => mapping.acumaticaDetails.sku === acumaticaSku);
    if (found) return found;
    pages = data.totalPages;
  }
  throw new Error(`The user has no mapping of ${acumaticaSku}`);
}

/**
 * Sets the mapping's Shopify price to a quarter of the ERP's, so a price sync would move it past the
 * default safety limit (50 %), as e2e's priceJumpMapping does for the first mapping. Answers the ERP
 * price, to put back afterwards.
 */
export async function jumpPrice(
  api: ApiClient,
  sandboxUrl: string,
  mapping: Mapping,
): Promise<{ erpPrice: number; lowered: number }> {
  const sku = mapping.acumaticaDetails.sku;
  const { products } = await api.call("acumaticaProducts", { query: { search: sku } });
  const erpPrice = products.find((product) => product.sku === sku)?.defaultPrice;
  if (erpPrice === undefined || erpPrice === null)
    throw new Error(`${sku} has no price in the pulled ERP catalog`);
  const lowered = Math.round(erpPrice * 25) / 100;
  await setShopifyPrice(api, sandboxUrl, { variantId: mapping.shopifyDetails.variantId, price: lowered });
  return { erpPrice, lowered };
}
