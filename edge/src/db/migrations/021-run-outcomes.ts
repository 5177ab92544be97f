import type { Migration } from "../migrate.ts";

export const runOutcomes: Migration = {
  version: 21,
  name: "honest run outcomes: partial runs, skipped items, each run's scope and options, retries",
  statements: [
    // A finished run with failed items read 'completed' however many failed: some succeeded makes
    // it 'partial', none 'failed'.
    `UPDATE execution_history SET status = CASE WHEN success_count > 0 THEN 'partial' ELSE 'failed' END
        WHERE status = 'completed' AND failure_count > 0`,
    // What a run synced, so its failed mappings can be retried alike (NULL: recorded before this).
    "ALTER TABLE execution_history ADD COLUMN sync_price INTEGER",
    "ALTER TABLE execution_history ADD COLUMN sync_quantity INTEGER",
    // Which mappings a run covered, so a run that fails as a whole (or stops with its process) lists
    // every one: 'all' (the user's mappings when it started), 'ids' (execution_scopes) or 'retry'
    // (the failed mappings of retry_of). NULL for runs recorded before this.
    "ALTER TABLE execution_history ADD COLUMN scope TEXT",
    "ALTER TABLE execution_history ADD COLUMN retry_of TEXT",
    // A named scope's ids in a table of their own: a 10,000-id list must not ride along every history read.
    `CREATE TABLE execution_scopes (
        history_id TEXT PRIMARY KEY REFERENCES execution_history(id) ON DELETE CASCADE,
        mapping_ids_json TEXT NOT NULL
      )`,
    // Items a run left alone on purpose, each with its reason, apart from its failures.
    `CREATE TABLE execution_skips (
        history_id TEXT NOT NULL REFERENCES execution_history(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        mapping_id TEXT,
        shopify_sku TEXT NOT NULL,
        acumatica_sku TEXT NOT NULL,
        reason TEXT NOT NULL,
        PRIMARY KEY (history_id, seq)
      )`,
  ],
};
