import type { Migration } from "./migrate.ts";

/**
 * Versioned schema changes, oldest first. Never edit a released migration: add a new one.
 * Money is stored in integer cents; times as ISO-8601 UTC text; every user-owned row has user_id.
 */
export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: "accounts",
    statements: [
      `CREATE TABLE users (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        email TEXT NOT NULL,
        email_normalized TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        profile_image TEXT,
        password_changed_at TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      )`,
      `CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        last_seen_at TEXT NOT NULL,
        revoked_at TEXT
      )`,
      "CREATE INDEX sessions_user ON sessions(user_id)",
      `CREATE TABLE login_attempts (
        key TEXT PRIMARY KEY,
        failures INTEGER NOT NULL,
        window_started_at TEXT NOT NULL
      )`,
    ],
  },
  {
    version: 2,
    name: "billing",
    statements: [
      `CREATE TABLE stripe_customers (
        user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        customer_id TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL
      )`,
      `CREATE TABLE subscriptions (
        user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        subscription_id TEXT NOT NULL UNIQUE,
        customer_id TEXT NOT NULL,
        plan_id TEXT NOT NULL,
        status TEXT NOT NULL,
        current_period_end TEXT,
        cancel_at_period_end INTEGER NOT NULL DEFAULT 0,
        source_event_created INTEGER NOT NULL DEFAULT 0,
        updated_at TEXT NOT NULL
      )`,
      `CREATE TABLE stripe_events (
        id TEXT PRIMARY KEY,
        type TEXT NOT NULL,
        created INTEGER NOT NULL,
        processed_at TEXT NOT NULL
      )`,
      `CREATE TABLE checkout_sessions (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        price_id TEXT NOT NULL,
        created_at TEXT NOT NULL
      )`,
    ],
  },
  {
    version: 3,
    name: "connections",
    statements: [
      `CREATE TABLE acumatica_connections (
        user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        api_version TEXT NOT NULL,
        instance_uri TEXT NOT NULL,
        endpoint_name TEXT NOT NULL,
        username TEXT NOT NULL,
        password_encrypted TEXT NOT NULL,
        company TEXT NOT NULL,
        is_verified INTEGER NOT NULL DEFAULT 0,
        last_tested_at TEXT,
        last_test_error TEXT,
        updated_at TEXT NOT NULL
      )`,
      `CREATE TABLE shopify_connections (
        user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        api_version TEXT NOT NULL,
        store_name TEXT NOT NULL,
        access_token_encrypted TEXT NOT NULL,
        served_api_version TEXT,
        is_verified INTEGER NOT NULL DEFAULT 0,
        last_tested_at TEXT,
        last_test_error TEXT,
        updated_at TEXT NOT NULL
      )`,
    ],
  },
];
