import type { Db } from "../../db/client.ts";

export type BulkOperationType = "QUERY" | "MUTATION";

/** A held slot: renewed while the operation is followed, released when it ended. */
export interface BulkSlot {
  renew(): Promise<void>;
  release(): Promise<void>;
}

/** One store's slots, as a job sees them (the store is bound in). */
export interface StoreBulkSlots {
  /** A free slot among the `limit` the served version allows, or null when all are held. */
  claim(type: BulkOperationType, limit: number): Promise<BulkSlot | null>;
}

export interface BulkSlots {
  forStore(storeName: string): StoreBulkSlots;
}

/**
 * How long a slot holds without being renewed. A follower renews at every poll (seconds apart), so a
 * process that stopped frees its slots within minutes; Shopify's own refusal covers the overlap.
 */
export const BULK_SLOT_LEASE_MS = 5 * 60_000;

/**
 * Bulk operation slots per Shopify store in the database, so every job of every instance counts
 * against the same limit (the limit is per app and store, and all our users are one app).
 */
export function createBulkSlots(db: Db, now: () => Date): BulkSlots {
  return {
    forStore(storeName) {
      const store = storeName.toLowerCase();
      return {
        async claim(type, limit) {
          const holder = crypto.randomUUID();
          for (let slot = 0; slot < limit; slot += 1) {
            const at = now().getTime();
            const claimed = await db.execute({
              sql: `INSERT INTO shopify_bulk_slots (store, type, slot, holder, held_until_ms) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (store, type, slot) DO UPDATE SET holder = excluded.holder, held_until_ms = excluded.held_until_ms
                    WHERE shopify_bulk_slots.held_until_ms <= ?`,
              args: [store, type, slot, holder, at + BULK_SLOT_LEASE_MS, at],
            });
            if (claimed.rowsAffected === 1) return heldSlot(db, now, { store, type, slot, holder });
          }
          return null;
        },
      };
    },
  };
}

function heldSlot(
  db: Db,
  now: () => Date,
  key: { store: string; type: BulkOperationType; slot: number; holder: string },
): BulkSlot {
  const where = "store = ? AND type = ? AND slot = ? AND holder = ?";
  const args = [key.store, key.type, key.slot, key.holder];
  return {
    async renew() {
      await db.execute({
        sql: `UPDATE shopify_bulk_slots SET held_until_ms = ? WHERE ${where}`,
        args: [now().getTime() + BULK_SLOT_LEASE_MS, ...args],
      });
    },
    async release() {
      await db.execute({ sql: `DELETE FROM shopify_bulk_slots WHERE ${where}`, args });
    },
  };
}
