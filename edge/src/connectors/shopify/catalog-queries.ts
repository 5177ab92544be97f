/**
 * The catalog read, valid on every Admin version Shopify may serve (checked against the vendored
 * schemas in test). Quantities come from each active location by an aliased
 * `inventoryLevel(locationId:)` per location (one object each; a connection would cost more).
 */
const VARIANT_FIELDS = (levels: string) => `
  id sku title price compareAtPrice
  product { id title }
  inventoryItem { id tracked requiresShipping ${levels} }`;

/** `l0: inventoryLevel(locationId: ...) { ... } l1: ...`: the level at each location, in order. */
const LEVELS = (locations: readonly string[]) =>
  locations
    .map(
      (location, index) =>
        `l${index}: inventoryLevel(locationId: ${location}) { quantities(names: ["available", "on_hand"]) { name quantity } }`,
    )
    .join(" ");

/** Absent before 2024-10: callers treat an `undefinedField` error as "count unknown". */
export const VARIANT_COUNT_QUERY = "query VariantCount { productVariantsCount { count precision } }";

/** A page of variants with their levels at `locationCount` locations (variables `$l0`, `$l1`, ...). */
export function variantPageQuery(locationCount: number): string {
  const names = Array.from({ length: locationCount }, (_, index) => `$l${index}`);
  const args = ["$first: Int!", "$after: String", ...names.map((name) => `${name}: ID!`)].join(", ");
  return `query VariantPage(${args}) {
  productVariants(first: $first, after: $after, sortKey: ID) {
    pageInfo { hasNextPage endCursor }
    nodes { ${VARIANT_FIELDS(LEVELS(names))} }
  }
}`;
}

/** Bulk queries take no variables: the location ids are written into the text. */
export function variantBulkQuery(locationIds: readonly string[]): string {
  return `{ productVariants { edges { node { ${VARIANT_FIELDS(LEVELS(locationIds.map((id) => JSON.stringify(id))))} } } } }`;
}

export const RUN_BULK_QUERY = `mutation RunBulkQuery($query: String!) {
  bulkOperationRunQuery(query: $query) { bulkOperation { id status } userErrors { field message } }
}`;
