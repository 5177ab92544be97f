import type { Migration } from "../migrate.ts";

export const connections: Migration = {
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
};
