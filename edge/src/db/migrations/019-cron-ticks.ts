import type { Migration } from "../migrate.ts";

export const cronTicks: Migration = {
  version: 19,
  name: "cron ticks recorded for health",
  statements: [
    // The last time each cron job ran, written by whichever instance ticked, so /api/health on
    // any instance can tell a stopped cron from a running one.
    "CREATE TABLE cron_ticks (name TEXT PRIMARY KEY, ticked_at TEXT NOT NULL)",
  ],
};
