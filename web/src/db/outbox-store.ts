import type { StockbridgeDatabase } from "./database.ts";
import type { MirrorList } from "./mirror-rows.ts";

/** The edits a merchant can make offline: each is replayed as this endpoint call. */
export const OUTBOX_ENDPOINTS = [
  "manualMap",
  "updateMapping",
  "deleteMapping",
  "createSchedule",
  "updateSchedule",
  "setScheduleStatus",
  "deleteSchedule",
  "saveQuantityMapping",
  "savePriceMapping",
  "saveSafetyLimits",
] as const;
export type OutboxEndpoint = (typeof OUTBOX_ENDPOINTS)[number];

/** A mirror row as it was before the edit (`row: null`: it did not exist), to put back on a refusal. */
export interface RowSnapshot {
  list: MirrorList;
  id: string;
  row: Record<string, unknown> | null;
}

/** One edit waiting for the server, in the order it was made (`seq`), kept across restarts. */
export interface OutboxEntry {
  seq?: number;
  userId: string;
  endpoint: OutboxEndpoint;
  /**
   * The call as made; `idempotencyKey` is the key its first try was sent with, sent again on every
   * replay so the server runs it once (entries queued before keys existed have none).
   */
  input: { params?: Record<string, string>; body?: unknown; idempotencyKey?: string };
  /** What the merchant did, for the refusal message ('Delete mapping SKU-1'). */
  label: string;
  /** The id a create shows until the server gives the real one. */
  localId: string | null;
  before: RowSnapshot[];
  createdAt: number;
}

/** The outbox table: entries in order, one user's at a time. */
export function createOutboxStore(open: () => Promise<StockbridgeDatabase>) {
  // IndexedDB opens on first use (web/src/services.ts keeps Dexie out of the start-up bundle).
  const outbox = async () => (await open()).outbox;
  return {
    add: async (entry: OutboxEntry) => (await outbox()).add(entry),
    /** The user's entries, oldest first. */
    pending: async (userId: string) => (await outbox()).where("userId").equals(userId).sortBy("seq"),
    remove: async (seq: number) => (await outbox()).delete(seq),
    replace: async (entry: OutboxEntry) => (await outbox()).put(entry),
    count: async (userId: string) => (await outbox()).where("userId").equals(userId).count(),
  };
}

export type OutboxStore = ReturnType<typeof createOutboxStore>;
