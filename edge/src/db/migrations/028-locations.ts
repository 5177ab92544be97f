import type { Migration } from "../migrate.ts";

export const locations: Migration = {
  version: 28,
  name: "location mapping, per-warehouse ERP quantities, kept locations and warehouses",
  statements: [
    // JSON of { locations: [{ shopifyLocationId, warehouseIds }] }; NULL: the default (the
    // primary location fed by every warehouse, what syncs did before locations could be mapped).
    "ALTER TABLE settings ADD COLUMN location_mapping_json TEXT",
    // [{ warehouseId, available, onHandInventory, availableForShipping }] of each ERP item.
    "ALTER TABLE acumatica_products ADD COLUMN warehouses_json TEXT NOT NULL DEFAULT '[]'",
    // The store's locations (system 'shopify') and the ERP's warehouses ('acumatica') as the
    // last pull (or list) read them: Settings lists and checks the location mapping against them.
    `CREATE TABLE catalog_sites (
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        system TEXT NOT NULL,
        sites_json TEXT NOT NULL,
        read_at TEXT NOT NULL,
        PRIMARY KEY (user_id, system)
      )`,
  ],
};
