import type { Migration } from "../migrate.ts";

export const billing: Migration = {
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
};
