/**
 * The connection test: an authenticated read of the shop itself, with the currency its prices are
 * in (valid in every served version).
 */
export const SHOP_QUERY = "query ConnectionTest { shop { name myshopifyDomain currencyCode } }";

/** The store's currency, read by a sync run that sends prices. */
export const SHOP_CURRENCY_QUERY = "query StockbridgeShopCurrency { shop { currencyCode } }";
