import type { Migration } from "../migrate.ts";

export const connectionCurrencies: Migration = {
  version: 20,
  name: "Shopify deprecation notice and both systems' currencies on the connections",
  statements: [
    // What Shopify's X-Shopify-API-Deprecated-Reason last said for the version served; cleared
    // when the served version or the connection's target changes.
    "ALTER TABLE shopify_connections ADD COLUMN deprecation_notice TEXT",
    // The currencies the last successful tests read (shop.currencyCode, Company.BaseCurrencyID),
    // so Settings can warn that prices will not sync before any run.
    "ALTER TABLE shopify_connections ADD COLUMN currency_code TEXT",
    "ALTER TABLE acumatica_connections ADD COLUMN base_currency TEXT",
  ],
};
