import { BULK_OPERATION_BY_ID_QUERY, CURRENT_BULK_OPERATION_QUERY } from "./bulk-operations.ts";
import { LOCATIONS_QUERY } from "./locations.ts";

/**
 * Every GraphQL document the sync engine sends to Shopify, in one place so a test can validate each
 * against the Admin API schemas of the versions Shopify may serve (edge/test/sync-operations.test.ts).
 * Values travel as variables; only the bulk query (which takes none) has the location ids written in,
 * JSON-quoted.
 */

/** The variant's fields and, aliased `l0`, `l1`, ..., its level at each location the run writes. */
const variantFields = (locations: readonly string[]) => `
  id
  price
  compareAtPrice
  requiresComponents
  product { id }
  inventoryItem {
    id
    tracked${locations
      .map(
        (location, index) => `
    l${index}: inventoryLevel(locationId: ${location}) { quantities(names: ["available", "on_hand"]) { name quantity } }`,
      )
      .join("")}
  }`;

/** Names of locations a held plan writes quantities at, so its review names them. */
export const LOCATION_NAMES_QUERY = `query StockbridgeLocationNames($ids: [ID!]!) {
  nodes(ids: $ids) { ... on Location { id name } }
}`;

/**
 * Fresh values of a batch of variants at `locationCount` locations (variables `$l0`, `$l1`, ...).
 * By the documented rules a node costs three points (variant, product, item) and two per location
 * (level, quantities); a real store may charge more, so the batch is sized from what Shopify
 * answers (variant-read.ts).
 */
export function syncVariantsQuery(locationCount: number): string {
  const names = Array.from({ length: locationCount }, (_, index) => `$l${index}`);
  const args = ["$ids: [ID!]!", ...names.map((name) => `${name}: ID!`)].join(", ");
  return `query StockbridgeSyncVariants(${args}) {
  nodes(ids: $ids) {
    ... on ProductVariant {${variantFields(names)}
    }
  }
}`;
}

/** Points per id before Shopify has said otherwise (the documented rules). */
export function syncReadCostPerId(locationCount: number): number {
  return 3 + 2 * locationCount;
}

/** The same fields for every variant of the store as a bulk query (no variables: the locations are written in). */
export function bulkVariantsQuery(locationIds: readonly string[]): string {
  return `{
  productVariants {
    edges {
      node {${variantFields(locationIds.map((id) => JSON.stringify(id)))}
      }
    }
  }
}`;
}

export const BULK_RUN_QUERY_MUTATION = `mutation StockbridgeBulkRead($query: String!) {
  bulkOperationRunQuery(query: $query) {
    bulkOperation { id status }
    userErrors { field message }
  }
}`;

/** Price and compare-at of one product's variants; partial updates so one bad variant never sinks the rest. */
export const VARIANTS_BULK_UPDATE_MUTATION = `mutation StockbridgeSetPrices($productId: ID!, $variants: [ProductVariantsBulkInput!]!) {
  productVariantsBulkUpdate(productId: $productId, variants: $variants, allowPartialUpdates: true) {
    productVariants { id price compareAtPrice }
    userErrors { field message code }
  }
}`;

/** The mutation a bulk price update runs once per JSONL line (`{ productId, variants }`). */
export const BULK_VARIANTS_UPDATE_INNER_MUTATION = `mutation call($productId: ID!, $variants: [ProductVariantsBulkInput!]!) {
  productVariantsBulkUpdate(productId: $productId, variants: $variants, allowPartialUpdates: true) {
    productVariants { id price compareAtPrice }
    userErrors { field message code }
  }
}`;

export const STAGED_UPLOADS_CREATE_MUTATION = `mutation StockbridgeStageUpload($input: [StagedUploadInput!]!) {
  stagedUploadsCreate(input: $input) {
    stagedTargets { url resourceUrl parameters { name value } }
    userErrors { field message }
  }
}`;

export const BULK_RUN_MUTATION = `mutation StockbridgeBulkWrite($mutation: String!, $stagedUploadPath: String!, $clientIdentifier: String) {
  bulkOperationRunMutation(mutation: $mutation, stagedUploadPath: $stagedUploadPath, clientIdentifier: $clientIdentifier) {
    bulkOperation { id status }
    userErrors { field message }
  }
}`;

const SET_QUANTITIES_PAYLOAD = `
    inventoryAdjustmentGroup { id }
    userErrors { field message code }`;

/** Up to 2026-01: compare-and-set through `compareQuantity` on each quantity (removed in 2026-04). */
const SET_QUANTITIES_COMPARE_MUTATION = `mutation StockbridgeSetQuantities($input: InventorySetQuantitiesInput!) {
  inventorySetQuantities(input: $input) {${SET_QUANTITIES_PAYLOAD}
  }
}`;

/** From 2026-01: `changeFromQuantity` on each quantity and an idempotency key (both required from 2026-04). */
const SET_QUANTITIES_CHANGE_FROM_MUTATION = `mutation StockbridgeSetQuantities($input: InventorySetQuantitiesInput!, $idempotencyKey: String!) {
  inventorySetQuantities(input: $input) @idempotent(key: $idempotencyKey) {${SET_QUANTITIES_PAYLOAD}
  }
}`;

/** The ids of the variants a search matches, a page at a time in id order (cursors stay valid as variants change). */
export const CHANGED_VARIANTS_QUERY = `query StockbridgeChangedVariants($first: Int!, $after: String, $query: String!) {
  productVariants(first: $first, after: $after, sortKey: ID, query: $query) {
    pageInfo { hasNextPage endCursor }
    nodes { id }
  }
}`;

/** Every document a version accepts whatever the write form (the quantity write is chosen by `quantityWriteForm`). */
export const OPERATIONS = {
  LOCATIONS_QUERY,
  "syncVariantsQuery(0)": syncVariantsQuery(0),
  "syncVariantsQuery(2)": syncVariantsQuery(2),
  BULK_RUN_QUERY_MUTATION,
  CURRENT_BULK_OPERATION_QUERY,
  BULK_OPERATION_BY_ID_QUERY,
  VARIANTS_BULK_UPDATE_MUTATION,
  BULK_VARIANTS_UPDATE_INNER_MUTATION,
  STAGED_UPLOADS_CREATE_MUTATION,
  BULK_RUN_MUTATION,
  LOCATION_NAMES_QUERY,
  CHANGED_VARIANTS_QUERY,
} as const;

/** The two shapes of `inventorySetQuantities`' compare-and-set. */
export type QuantityWriteForm = "compareQuantity" | "changeFromQuantity";

/**
 * The form a version takes, read off Shopify's schemas: `compareQuantity` exists up to 2026-01
 * (deprecated from 2025-10), `changeFromQuantity` and `@idempotent` from 2026-01. 2026-01 takes
 * both; the new one is sent there so the call uses nothing deprecated.
 */
export function quantityWriteForm(version: string): QuantityWriteForm {
  return version === "unstable" || version >= "2026-01" ? "changeFromQuantity" : "compareQuantity";
}

export interface QuantityWrite {
  inventoryItemId: string;
  locationId: string;
  quantity: number;
  /** The value read before planning: the compare-and-set guard. */
  from: number;
}

/** The document and variables of one `inventorySetQuantities` call in `form` (ids are GIDs). */
export function quantityWriteRequest(
  form: QuantityWriteForm,
  input: { name: string; referenceDocumentUri: string; quantities: QuantityWrite[] },
  idempotencyKey: string,
): { query: string; variables: Record<string, unknown> } {
  const changeFrom = form === "changeFromQuantity";
  const variables: Record<string, unknown> = {
    input: {
      name: input.name,
      reason: "correction",
      referenceDocumentUri: input.referenceDocumentUri,
      quantities: input.quantities.map((item) => ({
        inventoryItemId: item.inventoryItemId,
        locationId: item.locationId,
        quantity: item.quantity,
        ...(changeFrom ? { changeFromQuantity: item.from } : { compareQuantity: item.from }),
      })),
    },
  };
  if (!changeFrom) return { query: SET_QUANTITIES_COMPARE_MUTATION, variables };
  return { query: SET_QUANTITIES_CHANGE_FROM_MUTATION, variables: { ...variables, idempotencyKey } };
}
