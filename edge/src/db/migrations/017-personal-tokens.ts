import type { Migration } from "../migrate.ts";

export const personalTokens: Migration = {
  version: 17,
  name: "personal API tokens, stored as SHA-256 hashes",
  statements: [
    // Only the hash of a token is kept (the secret is shown once, at creation); the bearer is
    // found by this unique hash. `prefix` is the token's visible start, for the list. A revoked
    // token's row is deleted. `last_used_at` is written at most once a minute per token.
    `CREATE TABLE personal_tokens (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        prefix TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        expires_at TEXT,
        last_used_at TEXT
      )`,
    "CREATE INDEX personal_tokens_user ON personal_tokens(user_id, created_at)",
  ],
};
