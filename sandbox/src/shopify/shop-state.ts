import type { GraphQLSchema } from "graphql";
import type { DemoCatalog } from "../seed/catalog.ts";
import { buildCatalogState, type CatalogState } from "./catalog-state.ts";
import { type Bucket, createBucket, type ThrottleProfile } from "./throttle.ts";
import type { ApiVersion } from "./versions.ts";

export type BulkOperationType = "QUERY" | "MUTATION";
export type BulkOperationStatus = "CREATED" | "RUNNING" | "COMPLETED" | "CANCELING" | "CANCELED" | "FAILED";

export interface BulkOperationRecord {
  id: number;
  type: BulkOperationType;
  status: BulkOperationStatus;
  /** The inner query or mutation text. */
  query: string;
  /** Served version the inner operation runs against. */
  version: ApiVersion;
  stagedUploadPath: string | null;
  createdAt: number;
  /** Sandbox-clock time at which the operation completes. */
  dueAt: number;
  completedAt: number | null;
  errorCode: "ACCESS_DENIED" | "INTERNAL_SERVER_ERROR" | "TIMEOUT" | null;
  objectCount: number;
  rootObjectCount: number;
  fileSize: number | null;
}

export interface AdjustmentChange {
  name: string;
  delta: number;
  quantityAfterChange: number;
  inventoryItemId: number;
  locationId: number;
}

export interface AdjustmentGroupRecord {
  id: number;
  createdAt: number;
  reason: string;
  referenceDocumentUri: string | null;
  changes: AdjustmentChange[];
}

export interface IdempotentEntry {
  fingerprint: string;
  payload: unknown;
}

export interface Counters {
  calls: number;
  pointsSpent: number;
  throttled: number;
  maxCostExceeded: number;
  mutations: number;
  bulkOperations: number;
  /** Launches refused because the version's limit of running bulk operations was reached. */
  bulkOperationsRefused: number;
  unauthorized: number;
  unknownStore: number;
  errorsInjected: number;
  timeoutsInjected: number;
  servedVersions: Record<string, number>;
  /** Executed operations by root field (`nodes`, `bulkOperationRunQuery`, ...): which calls a client made. */
  rootFields: Record<string, number>;
}

/** Everything one simulated store holds; `reset` builds a new one. */
export interface ShopState {
  storeName: string;
  shopId: number;
  catalog: CatalogState;
  bucket: Bucket;
  bulkOperations: BulkOperationRecord[];
  bulkResults: Map<number, string>;
  nextBulkOperationId: number;
  /** Staged upload key -> uploaded file text. */
  uploads: Map<string, string>;
  idempotency: Map<string, IdempotentEntry>;
  adjustments: Map<number, AdjustmentGroupRecord>;
  nextAdjustmentId: number;
  counters: Counters;
  /** Set when a reset replaced this state: background bulk work stops. */
  closed: boolean;
}

export function createShopState(options: {
  storeName: string;
  catalog: DemoCatalog;
  profile: ThrottleProfile;
  now: number;
}): ShopState {
  return {
    storeName: options.storeName,
    shopId: 60_000_001,
    catalog: buildCatalogState(options.catalog),
    bucket: createBucket(options.profile, options.now),
    bulkOperations: [],
    bulkResults: new Map(),
    nextBulkOperationId: 5_100_000_001,
    uploads: new Map(),
    idempotency: new Map(),
    adjustments: new Map(),
    nextAdjustmentId: 9_100_000_001,
    counters: {
      calls: 0,
      pointsSpent: 0,
      throttled: 0,
      maxCostExceeded: 0,
      mutations: 0,
      bulkOperations: 0,
      bulkOperationsRefused: 0,
      unauthorized: 0,
      unknownStore: 0,
      errorsInjected: 0,
      timeoutsInjected: 0,
      servedVersions: {},
      rootFields: {},
    },
    closed: false,
  };
}

/** What every resolver sees. */
export interface RequestContext {
  shop: ShopState;
  version: ApiVersion;
  schema: GraphQLSchema;
  /** Sandbox-clock time of the request, in ms. */
  now: number;
  /** Public origin of the sandbox, for staged upload and bulk result URLs. */
  origin: string;
  /** Inside a bulk operation: whole connections, no cost, no per-request idempotency rule. */
  bulk: boolean;
  /** How long a bulk operation runs before it completes, in ms of the sandbox clock. */
  bulkDelayMs: number;
  /** The Shopify plan shown in `shop.plan` (follows the throttle profile). */
  plan: { displayName: string; shopifyPlus: boolean };
  /** The store's currency (`shop.currencyCode`), settable through the control API. */
  currencyCode: string;
}
