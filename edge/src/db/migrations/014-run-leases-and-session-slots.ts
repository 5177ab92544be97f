import type { Migration } from "../migrate.ts";

export const runLeasesAndSessionSlots: Migration = {
  version: 14,
  name: "run leases on history entries, shared Acumatica session slots, the connection's session limit",
  statements: [
    // A run renews its entry's lease while it works; an entry whose lease ran out (its process
    // stopped) is failed by whichever instance notices first. job_id ties a job's run to the job,
    // so failing a dead job ends its entry at once.
    "ALTER TABLE execution_history ADD COLUMN lease_until TEXT",
    "ALTER TABLE execution_history ADD COLUMN job_id TEXT",
    // Entries left running before this migration had no lease: the first sweep ends them (a run
    // still alive in an older instance overwrites that with its real outcome when it finishes).
    "UPDATE execution_history SET lease_until = start_date WHERE status = 'running'",
    "CREATE INDEX execution_history_open ON execution_history(lease_until) WHERE status = 'running'",
    "CREATE INDEX execution_history_job ON execution_history(job_id) WHERE job_id IS NOT NULL",
    // Licence seats: one row per holder or waiter of a slot under `slot_key` (e.g. one user's
    // Acumatica connection). seq is the FIFO ticket; a row whose lease ran out no longer counts.
    `CREATE TABLE work_slots (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        slot_key TEXT NOT NULL,
        holder TEXT NOT NULL UNIQUE,
        holding INTEGER NOT NULL DEFAULT 0,
        lease_until TEXT NOT NULL,
        created_at TEXT NOT NULL
      )`,
    "CREATE INDEX work_slots_key ON work_slots(slot_key, seq)",
    "ALTER TABLE acumatica_connections ADD COLUMN max_sessions INTEGER NOT NULL DEFAULT 2",
  ],
};
