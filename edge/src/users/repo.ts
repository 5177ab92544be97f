import type { Row } from "@libsql/client";
import {
  type AcumaticaConnection,
  NO_PLAN_LIMITS,
  type ShopifyConnection,
  type Subscription,
  type User,
} from "@stockbridge/shared";
import { planLimitsOf } from "../billing/repo.ts";
import { acumaticaColumns, shopifyColumns } from "../connections/repo.ts";
import type { Db } from "../db/client.ts";

export type UserViewRepo = ReturnType<typeof createUserViewRepo>;

export function createUserViewRepo(db: Db) {
  return {
    /**
     * The user object of spec section 3 (subscription and both connections, null until set). Secrets
     * are never selected here: answers carry `passwordSet` / `accessTokenSet` only.
     */
    async find(userId: string): Promise<User | null> {
      const [users, subscriptions, acumatica, shopify] = await db.batch(
        [
          { sql: "SELECT id, name, email, profile_image FROM users WHERE id = ?", args: [userId] },
          {
            sql: `SELECT plan_id, plan_name, plan_limits_json, status, current_period_end, cancel_at_period_end
                  FROM subscriptions WHERE user_id = ?`,
            args: [userId],
          },
          {
            sql: `SELECT name, api_version, instance_uri, endpoint_name, username, company, max_sessions, base_currency,
                         is_verified, last_tested_at, last_test_error, password_encrypted != '' AS password_set
                  FROM acumatica_connections WHERE user_id = ?`,
            args: [userId],
          },
          {
            sql: `SELECT name, api_version, store_name, served_api_version, deprecation_notice, currency_code, is_verified, last_tested_at,
                         last_test_error, access_token_encrypted != '' AS access_token_set
                  FROM shopify_connections WHERE user_id = ?`,
            args: [userId],
          },
        ],
        "read",
      );
      const user = users?.rows[0];
      if (!user) return null;
      const subscription = subscriptions?.rows[0];
      return {
        _id: String(user.id),
        name: String(user.name),
        email: String(user.email),
        profileImage: user.profile_image === null ? null : String(user.profile_image),
        subscription: subscription ? toSubscription(subscription) : null,
        acumaticaConnection: acumatica?.rows[0] ? toAcumaticaConnection(acumatica.rows[0]) : null,
        shopifyConnection: shopify?.rows[0] ? toShopifyConnection(shopify.rows[0]) : null,
      };
    },
  };
}

function toSubscription(row: Row): Subscription {
  return {
    planId: String(row.plan_id),
    planName: row.plan_name === undefined || row.plan_name === null ? null : String(row.plan_name),
    status: String(row.status),
    currentPeriodEnd: row.current_period_end === null ? null : String(row.current_period_end),
    cancelAtPeriodEnd: Number(row.cancel_at_period_end) === 1,
    limits: planLimitsOf(row.plan_limits_json) ?? NO_PLAN_LIMITS,
  };
}

function toAcumaticaConnection(row: Row): AcumaticaConnection {
  return { ...acumaticaColumns(row), passwordSet: Number(row.password_set) === 1 };
}

function toShopifyConnection(row: Row): ShopifyConnection {
  return { ...shopifyColumns(row), accessTokenSet: Number(row.access_token_set) === 1 };
}
