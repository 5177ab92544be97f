import type { Migration } from "../migrate.ts";

export const authAttempts: Migration = {
  version: 13,
  name: "a row per sign-in, registration and password check, reserved before the hash runs",
  statements: [
    // login_attempts kept one counter per key, read before the hash and written after it, so
    // parallel requests all passed the check. A row per attempt is reserved atomically (an INSERT
    // whose WHERE holds the limits) and settled after the hash; AuthRepo has the rules' SQL.
    // seq orders attempts (the clock may not move between two); outcome is NULL while in flight.
    // expires_at_ms: when nothing reads the row any more (purged then).
    "DROP TABLE login_attempts",
    `CREATE TABLE auth_attempts (
        seq INTEGER PRIMARY KEY,
        action TEXT NOT NULL,
        account TEXT NOT NULL,
        address TEXT NOT NULL,
        known INTEGER NOT NULL,
        at_ms INTEGER NOT NULL,
        outcome TEXT,
        expires_at_ms INTEGER NOT NULL
      )`,
    "CREATE INDEX auth_attempts_account ON auth_attempts(action, account, address)",
    "CREATE INDEX auth_attempts_address ON auth_attempts(action, address)",
    "CREATE INDEX auth_attempts_expiry ON auth_attempts(expires_at_ms)",
  ],
};
