/**
 * A Shopify store is addressed by its permanent `{name}.myshopify.com` domain (custom domains do not
 * serve the Admin API). People paste the name, the domain or the admin URL: all normalise to the
 * lower-case name. Anything else is refused before a request is built from it.
 */
const STORE_NAME = /^[a-z0-9][a-z0-9-]{0,59}$/;

export function normalizeStoreName(input: string): string | null {
  let text = input.trim().toLowerCase();
  text = text.replace(/^https?:\/\//, "").replace(/\/.*$/, "");
  if (text.endsWith(".myshopify.com")) text = text.slice(0, -".myshopify.com".length);
  return STORE_NAME.test(text) && !text.endsWith("-") ? text : null;
}

export const STORE_NAME_RULE =
  "Store name must be your myshopify.com name: letters, digits and hyphens (e.g. acme or acme.myshopify.com)";
