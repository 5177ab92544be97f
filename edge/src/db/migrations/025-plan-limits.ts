import type { Migration } from "../migrate.ts";

export const planLimits: Migration = {
  version: 25,
  name: "plan limits on subscriptions, dashboard counts from indexes",
  statements: [
    // The plan's limits (JSON of PlanLimits) as Stripe's catalogue gave them when the
    // subscription was stored or the catalogue last read: schedules, mappings and the cron tick
    // check them without a Stripe call. NULL: not known (nothing is refused).
    "ALTER TABLE subscriptions ADD COLUMN plan_limits_json TEXT",
    "CREATE INDEX subscriptions_plan ON subscriptions(plan_id)",
    // The dashboard counts a store's products (not only its variants) from the index alone.
    "CREATE INDEX shopify_products_product ON shopify_products(user_id, product_id)",
    // The dashboard's next run: the user's active schedules by next run, without a sort.
    "CREATE INDEX schedules_user_next ON schedules(user_id, status, next_run)",
  ],
};
