/** The connection test: an authenticated read of the shop itself (valid in every served version). */
export const SHOP_QUERY = "query ConnectionTest { shop { name myshopifyDomain } }";
