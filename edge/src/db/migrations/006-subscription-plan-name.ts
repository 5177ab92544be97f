import type { Migration } from "../migrate.ts";

export const subscriptionPlanName: Migration = {
  version: 6,
  name: "subscription plan name and checkout lookups",
  statements: [
    // The plan's product name as Stripe last reported it, so the user object needs no Stripe call.
    "ALTER TABLE subscriptions ADD COLUMN plan_name TEXT",
    "CREATE INDEX checkout_sessions_user_created ON checkout_sessions(user_id, created_at)",
  ],
};
