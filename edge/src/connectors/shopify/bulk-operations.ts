import type { ConnectorClock } from "../transport.ts";
import type { BulkOperationType, BulkSlot, StoreBulkSlots } from "./bulk-slots.ts";
import { ShopifyError } from "./errors.ts";
import type { GraphqlResponse } from "./graphql-client.ts";

/** Every bulk operation field a follower reads. */
const STATE_FIELDS = "id status errorCode objectCount url partialDataUrl";

/** From 2026-01 each operation is asked for by its id (several may run; `current` is only the newest). */
export const BULK_OPERATION_BY_ID_QUERY = `query StockbridgeBulkOperation($id: ID!) {
  bulkOperation(id: $id) { ${STATE_FIELDS} }
}`;

/** Before 2026-01 the only way: the store's current operation of a type (one runs at a time). */
export const CURRENT_BULK_OPERATION_QUERY = `query StockbridgeBulkStatus($type: BulkOperationType!) {
  currentBulkOperation(type: $type) { ${STATE_FIELDS} }
}`;

function fromVersion2026(servedVersion: string | null): boolean {
  if (!servedVersion) return false;
  return servedVersion === "unstable" || servedVersion >= "2026-01";
}

/** Bulk operations of one type a store runs per app at once: one before 2026-01, five since. */
export function bulkConcurrency(servedVersion: string | null): number {
  return fromVersion2026(servedVersion) ? 5 : 1;
}

/**
 * Shopify refused a launch because the store already runs as many bulk operations of the type as
 * the version allows: "… already in progress" (OPERATION_IN_PROGRESS) where one may run, "Bulk
 * operations limit reached" (LIMIT_REACHED) where several may. Read by text: 2024-07 and 2024-10
 * errors have no code. The caller reads another way.
 */
export function isBulkLimitRefusal(message: string): boolean {
  return /already in progress|limit reached/i.test(message);
}

/** `bulkOperation(id:)` exists only from 2026-01. */
export function hasBulkOperationById(servedVersion: string | null): boolean {
  return fromVersion2026(servedVersion);
}

/**
 * How long a job waits for one of the store's bulk slots before reading another way. Another job's
 * export usually ends within minutes, and waiting for it beats paging a large store by the bucket.
 */
const BULK_SLOT_WAIT_MS = 10 * 60_000;

/**
 * One of the store's bulk slots for `type` (as many as the served version runs at once), waiting
 * while all are held; null when none came free within BULK_SLOT_WAIT_MS.
 */
export async function waitForBulkSlot(
  slots: StoreBulkSlots,
  options: { type: BulkOperationType; servedVersion: string | null; clock: ConnectorClock },
): Promise<BulkSlot | null> {
  const started = options.clock.now();
  let pause = 250;
  for (;;) {
    const slot = await slots.claim(options.type, bulkConcurrency(options.servedVersion));
    if (slot) return slot;
    if (options.clock.now() - started >= BULK_SLOT_WAIT_MS) return null;
    await options.clock.sleep(pause);
    pause = Math.min(5_000, pause * 2);
  }
}

export interface BulkState {
  id: string;
  status: string;
  errorCode: string | null;
  url: string | null;
  partialDataUrl: string | null;
  /** Objects (JSONL lines) the operation produced. */
  objectCount: number;
}

type Execute = <T>(query: string, variables?: Record<string, unknown>) => Promise<GraphqlResponse<T>>;

export interface FollowOptions {
  id: string;
  type: BulkOperationType;
  /** Read after the launch: the version Shopify served decides how the operation is asked for. */
  servedVersion: string | null;
  clock: ConnectorClock;
  slot: BulkSlot;
  firstPollMs: number;
  maxPollMs: number;
  /** Each pause this many times the last (1.5 unless told). */
  pollGrowth?: number;
  /** Given up on after this long (Shopify allows days; a job does not wait that long). */
  maxWaitMs: number;
  onWait?(milliseconds: number): void;
}

/**
 * Polls one bulk operation until it is no longer CREATED or RUNNING and answers its last state. From
 * 2026-01 by its own id; before, through `currentBulkOperation`, which is ours while we hold the
 * store's only slot (another operation there was started outside our slots). Renews the slot at
 * every poll.
 */
export async function followBulkOperation(execute: Execute, options: FollowOptions): Promise<BulkState> {
  const byId = hasBulkOperationById(options.servedVersion);
  const started = options.clock.now();
  let pause = options.firstPollMs;
  for (;;) {
    await options.clock.sleep(pause);
    options.onWait?.(pause);
    pause = Math.min(options.maxPollMs, Math.round(pause * (options.pollGrowth ?? 1.5)));
    await options.slot.renew();
    const answer = byId
      ? await execute<{ bulkOperation: unknown }>(BULK_OPERATION_BY_ID_QUERY, { id: options.id })
      : await execute<{ currentBulkOperation: unknown }>(CURRENT_BULK_OPERATION_QUERY, {
          type: options.type,
        });
    if (answer.errors.length > 0)
      throw new ShopifyError(
        `Shopify refused to report bulk operation ${options.id}: ${answer.errors.map((e) => e.message).join("; ")}`,
        "graphql",
      );
    const data = answer.data as Record<string, unknown> | null;
    const state = readState(byId ? data?.bulkOperation : data?.currentBulkOperation);
    if (!state || state.id !== options.id)
      throw new ShopifyError(`Shopify lost track of bulk operation ${options.id}`, "graphql");
    if (state.status !== "CREATED" && state.status !== "RUNNING") return state;
    if (options.clock.now() - started > options.maxWaitMs)
      throw new ShopifyError(
        `Shopify's bulk operation ${options.id} did not finish within ${Math.round(options.maxWaitMs / 60_000)} minutes`,
        "unavailable",
      );
  }
}

function readState(value: unknown): BulkState | null {
  if (typeof value !== "object" || value === null) return null;
  const state = value as Record<string, unknown>;
  const text = (field: unknown) => (typeof field === "string" ? field : null);
  const id = text(state.id);
  const status = text(state.status);
  if (!id || !status) return null;
  return {
    id,
    status,
    errorCode: text(state.errorCode),
    url: text(state.url),
    partialDataUrl: text(state.partialDataUrl),
    objectCount: Number(state.objectCount ?? 0) || 0,
  };
}
