import type { AcumaticaWarehouse, ShopifyLocation } from "@stockbridge/shared";
import type { Db } from "../db/client.ts";

/** The only SQL for kept locations and warehouses (catalog_sites, migration 28). */
export function createSitesRepo(db: Db) {
  async function read(userId: string, system: "shopify" | "acumatica"): Promise<unknown[] | null> {
    const result = await db.execute({
      sql: "SELECT sites_json FROM catalog_sites WHERE user_id = ? AND system = ?",
      args: [userId, system],
    });
    const row = result.rows[0];
    if (!row) return null;
    const parsed: unknown = JSON.parse(String(row.sites_json));
    return Array.isArray(parsed) ? parsed : null;
  }

  async function save(
    userId: string,
    { system, sites, now }: { system: "shopify" | "acumatica"; sites: unknown[]; now: string },
  ) {
    await db.execute({
      sql: `INSERT INTO catalog_sites (user_id, system, sites_json, read_at) VALUES (?, ?, ?, ?)
            ON CONFLICT(user_id, system) DO UPDATE SET sites_json = excluded.sites_json, read_at = excluded.read_at`,
      args: [userId, system, JSON.stringify(sites), now],
    });
  }

  return {
    /** The locations last read, or null when none were. Only this repo writes them, in this shape. */
    async locations(userId: string): Promise<ShopifyLocation[] | null> {
      return (await read(userId, "shopify")) as ShopifyLocation[] | null;
    },
    saveLocations: (userId: string, locations: ShopifyLocation[], now: string) =>
      save(userId, { system: "shopify", sites: locations, now }),
    async warehouses(userId: string): Promise<AcumaticaWarehouse[] | null> {
      return (await read(userId, "acumatica")) as AcumaticaWarehouse[] | null;
    },
    saveWarehouses: (userId: string, warehouses: AcumaticaWarehouse[], now: string) =>
      save(userId, { system: "acumatica", sites: warehouses, now }),
  };
}

export type SitesRepo = ReturnType<typeof createSitesRepo>;
