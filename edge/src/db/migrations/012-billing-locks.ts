import type { Migration } from "../migrate.ts";

export const billingLocks: Migration = {
  version: 12,
  name: "one billing operation at a time per user",
  statements: [
    // A row per user who ever changed billing. `holder` is set while an operation runs (null when
    // free); `held_until` lets another process take over from one that died mid-operation.
    // `generation` counts completed operations: it goes into Stripe idempotency keys, so a retry
    // of an unfinished operation replays Stripe's answer and a later, new one is not mistaken for it.
    `CREATE TABLE billing_locks (
        user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        holder TEXT,
        operation TEXT,
        held_until TEXT,
        generation INTEGER NOT NULL DEFAULT 0
      )`,
  ],
};
