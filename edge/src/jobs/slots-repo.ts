import type { Db } from "../db/client.ts";

/**
 * The only SQL for work slots: a row per holder or waiter of a slot under a key, ordered by `seq`
 * (the FIFO ticket, handed out by the database, so every instance shares one queue). A row whose
 * lease ran out (its process stopped) no longer counts, and the next release deletes it.
 */
export function createSlotsRepo(db: Db) {
  return {
    /** Takes a ticket at the back of the key's queue; answers its number. */
    async enqueue(entry: { key: string; holder: string; leaseUntil: string; now: string }): Promise<number> {
      const result = await db.execute({
        sql: `INSERT INTO work_slots (slot_key, holder, holding, lease_until, created_at)
              VALUES (?, ?, 0, ?, ?) RETURNING seq`,
        args: [entry.key, entry.holder, entry.leaseUntil, entry.now],
      });
      return Number(result.rows[0]?.seq);
    },

    /**
     * Turns a waiting ticket into a held slot, in one statement, when fewer than `limit` live rows
     * of the key are holding or waiting ahead of it: first come, first served, on every instance.
     */
    async claim(
      holder: string,
      slot: { key: string; limit: number; now: string; leaseUntil: string },
    ): Promise<boolean> {
      const result = await db.execute({
        // The claimer's own lease is not checked: it is alive, it is asking. Had it stalled past its
        // lease, others passed it meanwhile, and the count of live holders still keeps the limit.
        sql: `UPDATE work_slots SET holding = 1, lease_until = ?
              WHERE holder = ? AND holding = 0
                AND (SELECT COUNT(*) FROM work_slots other
                     WHERE other.slot_key = ? AND other.holder != work_slots.holder AND other.lease_until >= ?
                       AND (other.holding = 1 OR other.seq < work_slots.seq)) < ?`,
        args: [slot.leaseUntil, holder, slot.key, slot.now, slot.limit],
      });
      return result.rowsAffected === 1;
    },

    /** Keeps a ticket or held slot alive; false when it is gone (it ran out and was deleted). */
    async renew(holder: string, leaseUntil: string): Promise<boolean> {
      const result = await db.execute({
        sql: "UPDATE work_slots SET lease_until = ? WHERE holder = ?",
        args: [leaseUntil, holder],
      });
      return result.rowsAffected === 1;
    },

    /** Frees a ticket or slot, and clears the key's rows whose holders stopped without freeing theirs. */
    async release(holder: string, slot: { key: string; now: string }): Promise<void> {
      await db.execute({
        sql: "DELETE FROM work_slots WHERE holder = ? OR (slot_key = ? AND lease_until < ?)",
        args: [holder, slot.key, slot.now],
      });
    },
  };
}

export type SlotsRepo = ReturnType<typeof createSlotsRepo>;
