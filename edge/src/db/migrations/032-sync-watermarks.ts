import type { Migration } from "../migrate.ts";

export const syncWatermarks: Migration = {
  version: 32,
  name: "sync watermarks for incremental reads",
  statements: [
    // Where the next sync of every mapping reads changes from, per user and plan inputs
    // (options_key: the run's sync options and the settings its plans follow, so a run with other
    // options or after a settings change reads in full). read_from: the last successful run's start
    // less a margin (ERP changes are read from it); shopify_from: Shopify's own time at the last
    // run's last answer, after its writes (so they are not read back as changes), null when Shopify
    // did not say; reconciled_at: the start of the last run that read everything; retry_ids: the
    // mappings that failed in the last run (JSON array), read again whatever changed.
    `CREATE TABLE sync_watermarks (
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        options_key TEXT NOT NULL,
        read_from TEXT NOT NULL,
        shopify_from TEXT,
        reconciled_at TEXT NOT NULL,
        retry_ids TEXT NOT NULL,
        PRIMARY KEY (user_id, options_key)
      )`,
  ],
};
