import { bulkOperationCancel, bulkOperationRunMutation, bulkOperationRunQuery } from "./bulk-operations.ts";
import { inventoryActivate } from "./inventory-adjustments.ts";
import { inventorySetQuantities } from "./inventory-set.ts";
import { stagedUploadsCreate } from "./staged-uploads.ts";
import { productVariantsBulkUpdate } from "./variants-update.ts";

/** Root `Mutation` fields the simulator runs; anything else is reported as not simulated. */
export const MUTATION_FIELDS = {
  productVariantsBulkUpdate,
  inventorySetQuantities,
  inventoryActivate,
  stagedUploadsCreate,
  bulkOperationRunQuery,
  bulkOperationRunMutation,
  bulkOperationCancel,
};
