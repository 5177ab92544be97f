import type { Migration } from "../migrate.ts";

export const historyChangesSince: Migration = {
  version: 33,
  name: "execution history: runs that read only what changed",
  statements: [
    // A sync of every mapping that read only what changed since its watermark (migration 32): since
    // when (ISO), and how many mappings it had; both NULL for a run that read every mapping in scope.
    "ALTER TABLE execution_history ADD COLUMN changes_since TEXT",
    "ALTER TABLE execution_history ADD COLUMN changes_of INTEGER",
  ],
};
