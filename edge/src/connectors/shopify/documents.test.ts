import { SCHEMA_KEYS, validateShopifyOperation } from "@stockbridge/sandbox";
import { describe, expect, it } from "vitest";
import { BULK_OPERATION_BY_ID_QUERY, hasBulkOperationById } from "./bulk-operations.ts";
import * as catalogQueries from "./catalog-queries.ts";
import { SHOP_CURRENCY_QUERY, SHOP_QUERY } from "./shop-query.ts";
import { bulkVariantsQuery, OPERATIONS, quantityWriteForm, quantityWriteRequest } from "./sync-operations.ts";

/**
 * Every version the edge can be served: it asks for one of the spec's versions and Shopify falls
 * forward to any newer one, so every version Shopify has a schema for (2025-04 and 2025-07 are
 * served with 2025-01's), plus "unstable" (the newest).
 */
const SERVED = [...SCHEMA_KEYS, "2025-04", "2025-07", "unstable"];
const LOCATION = "gid://shopify/Location/1";
const OTHER_LOCATION = "gid://shopify/Location/2";

/** Every GraphQL document the edge sends, taken from the constants its code sends. */
const { BULK_OPERATION_BY_ID_QUERY: _sentByVersion, ...EVERY_VERSION } = OPERATIONS;
const DOCUMENTS: Record<string, string> = {
  SHOP_QUERY,
  SHOP_CURRENCY_QUERY,
  ...EVERY_VERSION,
  "bulkVariantsQuery (the sync's bulk read, two locations)": bulkVariantsQuery([LOCATION, OTHER_LOCATION]),
  "bulkVariantsQuery (the sync's bulk read, no location)": bulkVariantsQuery([]),
  "catalog variantPageQuery(two locations)": catalogQueries.variantPageQuery(2),
  "catalog variantPageQuery(no location)": catalogQueries.variantPageQuery(0),
  "catalog variantBulkQuery(two locations)": catalogQueries.variantBulkQuery([LOCATION, OTHER_LOCATION]),
  "catalog variantBulkQuery(no location)": catalogQueries.variantBulkQuery([]),
  "catalog RUN_BULK_QUERY": catalogQueries.RUN_BULK_QUERY,
};

/** Sent knowing they may be refused: the callers read "count unknown" when the version lacks the field. */
const OPTIONAL: Record<string, { document: string; missingBefore: string }> = {
  VARIANT_COUNT_QUERY: { document: catalogQueries.VARIANT_COUNT_QUERY, missingBefore: "2024-10" },
};

describe("GraphQL documents the edge sends, against Shopify's real schema of every version it can be served", () => {
  for (const [name, document] of Object.entries(DOCUMENTS)) {
    it.each(SERVED)(`${name} is valid against %s`, (version) => {
      expect(validateShopifyOperation(version, document)).toEqual([]);
    });
  }

  for (const [name, { document, missingBefore }] of Object.entries(OPTIONAL)) {
    it.each(SERVED.filter((version) => version >= missingBefore))(
      `${name} is valid against %s`,
      (version) => {
        expect(validateShopifyOperation(version, document)).toEqual([]);
      },
    );
  }

  it.each(SERVED)("bulkOperation(id:) is sent to %s only where that version has it", (version) => {
    const errors = validateShopifyOperation(version, BULK_OPERATION_BY_ID_QUERY);
    expect(errors.length === 0).toBe(hasBulkOperationById(version));
  });

  it.each(SERVED)("the quantity write in the form chosen for %s is valid, variables included", (version) => {
    const request = quantityWriteRequest(
      quantityWriteForm(version),
      {
        name: "available",
        referenceDocumentUri: "gid://stockbridge/SyncRun/1",
        quantities: [
          { inventoryItemId: "gid://shopify/InventoryItem/1", locationId: LOCATION, quantity: 5, from: 3 },
        ],
      },
      "00000000-0000-4000-8000-000000000000",
    );
    expect(validateShopifyOperation(version, request.query, request.variables)).toEqual([]);
  });

  it("the other write form is refused where the chosen one is needed, so a wrong choice fails above", () => {
    const request = (form: "compareQuantity" | "changeFromQuantity") =>
      quantityWriteRequest(
        form,
        {
          name: "available",
          referenceDocumentUri: "gid://stockbridge/SyncRun/1",
          quantities: [
            { inventoryItemId: "gid://shopify/InventoryItem/1", locationId: LOCATION, quantity: 5, from: 3 },
          ],
        },
        "00000000-0000-4000-8000-000000000000",
      );
    const compare = request("compareQuantity");
    const changeFrom = request("changeFromQuantity");
    for (const version of ["2026-04", "2026-07", "2026-10"])
      expect(validateShopifyOperation(version, compare.query, compare.variables)).not.toEqual([]);
    for (const version of ["2024-07", "2025-01", "2025-10"])
      expect(validateShopifyOperation(version, changeFrom.query, changeFrom.variables)).not.toEqual([]);
  });
});
