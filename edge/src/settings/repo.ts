import type {
  LocationMapping,
  PriceMapping,
  QuantityMapping,
  SafetyLimits,
  Settings,
} from "@stockbridge/shared";
import {
  DEFAULT_ACUMATICA_QUANTITY,
  DEFAULT_SAFETY_LIMITS,
  DEFAULT_SHOPIFY_QUANTITY,
} from "@stockbridge/shared";
import type { Db } from "../db/client.ts";

/** What a user has before saving anything (spec section 5: both price fields off). */
export const DEFAULT_SETTINGS: Settings = {
  quantityMapping: {
    acumaticaQuantity: DEFAULT_ACUMATICA_QUANTITY,
    shopifyQuantity: DEFAULT_SHOPIFY_QUANTITY,
  },
  priceMapping: { syncPrice: false, syncMsrp: false },
  // No location listed: the default, the primary location fed by every warehouse.
  locationMapping: { locations: [] },
};

/** The only SQL for the settings table; a user without a row reads the defaults. */
export function createSettingsRepo(db: Db) {
  return {
    async read(userId: string): Promise<Settings> {
      const result = await db.execute({
        sql: `SELECT acumatica_quantity, shopify_quantity, sync_price, sync_msrp, location_mapping_json
              FROM settings WHERE user_id = ?`,
        args: [userId],
      });
      const row = result.rows[0];
      if (!row) return structuredClone(DEFAULT_SETTINGS);
      return {
        quantityMapping: {
          acumaticaQuantity: String(row.acumatica_quantity) as QuantityMapping["acumaticaQuantity"],
          shopifyQuantity: String(row.shopify_quantity) as QuantityMapping["shopifyQuantity"],
        },
        priceMapping: { syncPrice: Number(row.sync_price) === 1, syncMsrp: Number(row.sync_msrp) === 1 },
        locationMapping: storedLocationMapping(row.location_mapping_json),
      };
    },

    async saveLocationMapping(userId: string, mapping: LocationMapping, now: string): Promise<void> {
      await db.execute({
        sql: `INSERT INTO settings (user_id, location_mapping_json, updated_at) VALUES (?, ?, ?)
              ON CONFLICT(user_id) DO UPDATE SET location_mapping_json = excluded.location_mapping_json,
                updated_at = excluded.updated_at`,
        args: [userId, JSON.stringify({ locations: mapping.locations }), now],
      });
    },

    async saveQuantity(userId: string, mapping: QuantityMapping, now: string): Promise<void> {
      await db.execute({
        sql: `INSERT INTO settings (user_id, acumatica_quantity, shopify_quantity, updated_at) VALUES (?, ?, ?, ?)
              ON CONFLICT(user_id) DO UPDATE SET acumatica_quantity = excluded.acumatica_quantity,
                shopify_quantity = excluded.shopify_quantity, updated_at = excluded.updated_at`,
        args: [userId, mapping.acumaticaQuantity, mapping.shopifyQuantity, now],
      });
    },

    async savePrice(userId: string, mapping: PriceMapping, now: string): Promise<void> {
      await db.execute({
        sql: `INSERT INTO settings (user_id, sync_price, sync_msrp, updated_at) VALUES (?, ?, ?, ?)
              ON CONFLICT(user_id) DO UPDATE SET sync_price = excluded.sync_price,
                sync_msrp = excluded.sync_msrp, updated_at = excluded.updated_at`,
        args: [userId, mapping.syncPrice ? 1 : 0, mapping.syncMsrp ? 1 : 0, now],
      });
    },

    async readSafety(userId: string): Promise<SafetyLimits> {
      const result = await db.execute({
        sql: "SELECT max_price_change_percent, max_zeroed_percent FROM settings WHERE user_id = ?",
        args: [userId],
      });
      const row = result.rows[0];
      if (!row) return { ...DEFAULT_SAFETY_LIMITS };
      return {
        maxPriceChangePercent: Number(row.max_price_change_percent),
        maxZeroedPercent: Number(row.max_zeroed_percent),
      };
    },

    async saveSafety(userId: string, limits: SafetyLimits, now: string): Promise<void> {
      await db.execute({
        sql: `INSERT INTO settings (user_id, max_price_change_percent, max_zeroed_percent, updated_at) VALUES (?, ?, ?, ?)
              ON CONFLICT(user_id) DO UPDATE SET max_price_change_percent = excluded.max_price_change_percent,
                max_zeroed_percent = excluded.max_zeroed_percent, updated_at = excluded.updated_at`,
        args: [userId, limits.maxPriceChangePercent, limits.maxZeroedPercent, now],
      });
    },
  };
}

export type SettingsRepo = ReturnType<typeof createSettingsRepo>;

/** Only saveLocationMapping writes the column, after the shared schema checked it; NULL is the default. */
function storedLocationMapping(value: unknown): Settings["locationMapping"] {
  if (typeof value !== "string") return { locations: [] };
  return JSON.parse(value) as Settings["locationMapping"];
}
