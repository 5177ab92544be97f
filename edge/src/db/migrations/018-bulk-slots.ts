import type { Migration } from "../migrate.ts";

export const bulkSlots: Migration = {
  version: 18,
  name: "bulk operation slots per Shopify store, shared by every job and instance",
  statements: [
    // Shopify runs a limited number of bulk operations per app and store at a time (one query and
    // one mutation before 2026-01, five of each since). A catalog pull and a sync of the same store
    // each take a slot row first; a row whose holder stopped renewing is free again after its lease.
    `CREATE TABLE shopify_bulk_slots (
        store TEXT NOT NULL,
        type TEXT NOT NULL,
        slot INTEGER NOT NULL,
        holder TEXT NOT NULL,
        held_until_ms INTEGER NOT NULL,
        PRIMARY KEY (store, type, slot)
      )`,
  ],
};
