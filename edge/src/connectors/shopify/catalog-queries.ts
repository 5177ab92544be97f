/**
 * The catalog read, valid on every Admin version Shopify may serve for 2024-07 … 2025-04 (checked
 * against the vendored schemas in test). Quantities come from the shop's primary location only
 * (`inventoryLevel(locationId:)` costs one object per variant, a connection would cost more).
 */
const VARIANT_FIELDS = (level: string) => `
  id sku title price compareAtPrice
  product { id title }
  inventoryItem { id tracked requiresShipping ${level} }`;

const LEVEL = (location: string) =>
  `inventoryLevel(locationId: ${location}) { quantities(names: ["available", "on_hand"]) { name quantity } }`;

export const PRIMARY_LOCATION_QUERY = "query PrimaryLocation { location { id name } }";

/** Absent before 2024-10: callers treat an `undefinedField` error as "count unknown". */
export const VARIANT_COUNT_QUERY = "query VariantCount { productVariantsCount { count precision } }";

export function variantPageQuery(withLocation: boolean): string {
  const args = withLocation ? "$first: Int!, $after: String, $location: ID!" : "$first: Int!, $after: String";
  return `query VariantPage(${args}) {
  productVariants(first: $first, after: $after, sortKey: ID) {
    pageInfo { hasNextPage endCursor }
    nodes { ${VARIANT_FIELDS(withLocation ? LEVEL("$location") : "")} }
  }
}`;
}

/** Bulk queries take no variables: the location id is written into the text. */
export function variantBulkQuery(locationId: string | null): string {
  return `{ productVariants { edges { node { ${VARIANT_FIELDS(locationId ? LEVEL(JSON.stringify(locationId)) : "")} } } } }`;
}

export const RUN_BULK_QUERY = `mutation RunBulkQuery($query: String!) {
  bulkOperationRunQuery(query: $query) { bulkOperation { id status } userErrors { field message } }
}`;
