import type { Row } from "@libsql/client";
import type { Db } from "../db/client.ts";

export interface AcumaticaRecord {
  name: string;
  apiVersion: string;
  instanceUri: string;
  endpointName: string;
  username: string;
  company: string;
  /** Acumatica sessions this connection may hold at once (licence seats). */
  maxSessions: number;
  passwordSealed: string;
  baseCurrency: string | null;
  isVerified: boolean;
  lastTestedAt: string | null;
  lastTestError: string | null;
}

export interface ShopifyRecord {
  name: string;
  apiVersion: string;
  storeName: string;
  accessTokenSealed: string;
  servedApiVersion: string | null;
  deprecationNotice: string | null;
  currencyCode: string | null;
  isVerified: boolean;
  lastTestedAt: string | null;
  lastTestError: string | null;
}

export interface TestOutcome {
  ok: boolean;
  at: string;
  error: string | null;
}

/** The only SQL for saved connections. Sealed secrets are read here and never leave the service. */
export function createConnectionsRepo(db: Db) {
  async function findRow(table: "acumatica_connections" | "shopify_connections", userId: string) {
    const result = await db.execute({ sql: `SELECT * FROM ${table} WHERE user_id = ?`, args: [userId] });
    return result.rows[0];
  }

  return {
    async findAcumatica(userId: string): Promise<AcumaticaRecord | null> {
      const row = await findRow("acumatica_connections", userId);
      return row ? toAcumatica(row) : null;
    },

    async findShopify(userId: string): Promise<ShopifyRecord | null> {
      const row = await findRow("shopify_connections", userId);
      return row ? toShopify(row) : null;
    },

    async saveAcumatica(userId: string, record: AcumaticaRecord, now: string) {
      await db.execute({
        sql: `INSERT INTO acumatica_connections
                (user_id, name, api_version, instance_uri, endpoint_name, username, password_encrypted, company,
                 max_sessions, base_currency, is_verified, last_tested_at, last_test_error, updated_at)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
              ON CONFLICT(user_id) DO UPDATE SET
                name = excluded.name, api_version = excluded.api_version, instance_uri = excluded.instance_uri,
                endpoint_name = excluded.endpoint_name, username = excluded.username,
                password_encrypted = excluded.password_encrypted, company = excluded.company,
                max_sessions = excluded.max_sessions, base_currency = excluded.base_currency,
                is_verified = excluded.is_verified, last_tested_at = excluded.last_tested_at,
                last_test_error = excluded.last_test_error, updated_at = excluded.updated_at`,
        args: [
          userId,
          record.name,
          record.apiVersion,
          record.instanceUri,
          record.endpointName,
          record.username,
          record.passwordSealed,
          record.company,
          record.maxSessions,
          record.baseCurrency,
          record.isVerified ? 1 : 0,
          record.lastTestedAt,
          record.lastTestError,
          now,
        ],
      });
    },

    async saveShopify(userId: string, record: ShopifyRecord, now: string) {
      await db.execute({
        sql: `INSERT INTO shopify_connections
                (user_id, name, api_version, store_name, access_token_encrypted, served_api_version,
                 deprecation_notice, currency_code, is_verified, last_tested_at, last_test_error, updated_at)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
              ON CONFLICT(user_id) DO UPDATE SET
                name = excluded.name, api_version = excluded.api_version, store_name = excluded.store_name,
                access_token_encrypted = excluded.access_token_encrypted,
                served_api_version = excluded.served_api_version,
                deprecation_notice = excluded.deprecation_notice, currency_code = excluded.currency_code,
                is_verified = excluded.is_verified,
                last_tested_at = excluded.last_tested_at, last_test_error = excluded.last_test_error,
                updated_at = excluded.updated_at`,
        args: [
          userId,
          record.name,
          record.apiVersion,
          record.storeName,
          record.accessTokenSealed,
          record.servedApiVersion,
          record.deprecationNotice,
          record.currencyCode,
          record.isVerified ? 1 : 0,
          record.lastTestedAt,
          record.lastTestError,
          now,
        ],
      });
    },

    async recordAcumaticaTest(userId: string, outcome: TestOutcome & { baseCurrency: string | null }) {
      await db.execute({
        sql: `UPDATE acumatica_connections SET is_verified = ?, last_tested_at = ?, last_test_error = ?,
                base_currency = COALESCE(?, base_currency)
              WHERE user_id = ?`,
        args: [outcome.ok ? 1 : 0, outcome.at, outcome.error, outcome.baseCurrency, userId],
      });
    },

    async recordShopifyTest(
      userId: string,
      outcome: TestOutcome & { servedApiVersion: string | null; currencyCode: string | null },
    ) {
      // A failed test keeps the version last seen served; a successful one records the new one.
      await db.execute({
        sql: `UPDATE shopify_connections SET is_verified = ?1, last_tested_at = ?2, last_test_error = ?3,
                deprecation_notice = CASE WHEN ?4 IS NULL OR ?4 = served_api_version THEN deprecation_notice END,
                served_api_version = COALESCE(?4, served_api_version),
                currency_code = COALESCE(?6, currency_code)
              WHERE user_id = ?5`,
        args: [
          outcome.ok ? 1 : 0,
          outcome.at,
          outcome.error,
          outcome.servedApiVersion,
          userId,
          outcome.currencyCode,
        ],
      });
    },

    /** Keeps the card's "version in effect" current when a pull or sync learns it (a new version's deprecations start afresh). */
    async recordServedShopifyVersion(userId: string, servedApiVersion: string) {
      await db.execute({
        sql: `UPDATE shopify_connections SET served_api_version = ?1,
                deprecation_notice = CASE WHEN served_api_version = ?1 THEN deprecation_notice END
              WHERE user_id = ?2`,
        args: [servedApiVersion, userId],
      });
    },

    /** Stores a deprecation notice; true only when it is new for the connection (so it is logged once). */
    async recordShopifyDeprecation(userId: string, notice: string): Promise<boolean> {
      const result = await db.execute({
        sql: `UPDATE shopify_connections SET deprecation_notice = ?
              WHERE user_id = ? AND deprecation_notice IS NOT ?`,
        args: [notice, userId, notice],
      });
      return result.rowsAffected > 0;
    },
  };
}

export type ConnectionsRepo = ReturnType<typeof createConnectionsRepo>;

function toAcumatica(row: Row): AcumaticaRecord {
  return { ...acumaticaColumns(row), passwordSealed: String(row.password_encrypted) };
}

function toShopify(row: Row): ShopifyRecord {
  return { ...shopifyColumns(row), accessTokenSealed: String(row.access_token_encrypted) };
}

/*
 * The columns of a saved connection every read maps the same way. The secret is left to the caller:
 * the repo keeps it sealed, the user view (users/repo.ts) never selects it.
 */
export function acumaticaColumns(row: Row): Omit<AcumaticaRecord, "passwordSealed"> {
  return {
    name: String(row.name),
    apiVersion: String(row.api_version),
    instanceUri: String(row.instance_uri),
    endpointName: String(row.endpoint_name),
    username: String(row.username),
    company: String(row.company),
    maxSessions: Number(row.max_sessions),
    baseCurrency: text(row.base_currency),
    isVerified: Number(row.is_verified) === 1,
    lastTestedAt: text(row.last_tested_at),
    lastTestError: text(row.last_test_error),
  };
}

export function shopifyColumns(row: Row): Omit<ShopifyRecord, "accessTokenSealed"> {
  return {
    name: String(row.name),
    apiVersion: String(row.api_version),
    storeName: String(row.store_name),
    servedApiVersion: text(row.served_api_version),
    deprecationNotice: text(row.deprecation_notice),
    currencyCode: text(row.currency_code),
    isVerified: Number(row.is_verified) === 1,
    lastTestedAt: text(row.last_tested_at),
    lastTestError: text(row.last_test_error),
  };
}

function text(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}
