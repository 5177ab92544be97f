import type { Migration } from "../migrate.ts";

export const idempotencyKeys: Migration = {
  version: 31,
  name: "idempotency keys of write requests",
  statements: [
    // One row per user and Idempotency-Key: the request it was first sent with (method, path and a
    // SHA-256 of the body) and, once it ran, the answer a repeat gets back. `status` NULL: the first
    // request is still running (claimed at `claimed_at`). Rows expire 24 hours after the claim.
    `CREATE TABLE idempotency_keys (
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        idempotency_key TEXT NOT NULL,
        claim_id TEXT NOT NULL,
        method TEXT NOT NULL,
        path TEXT NOT NULL,
        body_hash TEXT NOT NULL,
        status INTEGER,
        content_type TEXT,
        response_body TEXT,
        claimed_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        PRIMARY KEY (user_id, idempotency_key)
      )`,
    "CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at)",
  ],
};
