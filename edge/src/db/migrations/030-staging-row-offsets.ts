import type { Migration } from "../migrate.ts";

// Helpers of this migration, frozen with it as the migration itself is.

/** Where each catalog's staged row (`[key, id, ...columns]`) holds its JSON column. */
const STAGED_JSON_COLUMN = { shopify: 14, acumatica: 11 };

/** An item's warehouses `[{ warehouseId, available, onHandInventory, availableForShipping }]` as `[[id, a, o, s]]`. */
const compactWarehouses = (list: string) =>
  `(SELECT json_group_array(json_array(w.value ->> 'warehouseId', w.value -> 'available',
      w.value -> 'onHandInventory', w.value -> 'availableForShipping')) FROM json_each(${list}) w)`;

/** A staged JSON column as this build stages it: JSON (text of JSON before), warehouses compact. */
const stagedJson = (system: "shopify" | "acumatica", value: string) =>
  // json(): a subquery's answer is text, and json_set would store text as a JSON string.
  system === "acumatica" ? `json(${compactWarehouses(value)})` : `json(${value})`;

export const stagingRowOffsets: Migration = {
  version: 30,
  name: "catalog staging chunks know their rows' place in the pull and their keys; JSON staged as JSON; compact warehouses",
  statements: [
    // An item's warehouses are stored as [warehouseId, available, onHand, availableForShipping]:
    // a quarter of the text, which every pull writes and compares for each of 150,000 rows.
    // (warehouses_json is no change-feed column: no version moves.)
    `UPDATE acumatica_products SET warehouses_json = ${compactWarehouses("acumatica_products.warehouses_json")}
       WHERE warehouses_json <> '[]'`,
    // first_row: how many rows the pull staged before this chunk; row_count: the chunk's own. The
    // swap gives each staged row its change-feed version (base + first_row + its index + 1) as it
    // writes it, instead of rewriting every added or changed row a second time to number it.
    "ALTER TABLE catalog_staging ADD COLUMN first_row INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE catalog_staging ADD COLUMN row_count INTEGER NOT NULL DEFAULT 0",
    // The chunk's keys alone: the swap finds the rows a pull no longer has from them, instead of
    // reading every staged row's JSON for its key (and then again for its values).
    "ALTER TABLE catalog_staging ADD COLUMN keys_json TEXT NOT NULL DEFAULT '[]'",
    // Chunks a pull staged before this migration (it resumes after it) get theirs, and their JSON
    // column (text of JSON until now) is staged as this build stages it.
    ...(["shopify", "acumatica"] as const).map((system) => {
      const index = STAGED_JSON_COLUMN[system];
      return `UPDATE catalog_staging SET rows_json = (SELECT json_group_array(
          json_set(r.value, '$[${index}]', ${stagedJson(system, `r.value ->> ${index}`)}))
        FROM json_each(catalog_staging.rows_json) r) WHERE system = '${system}'`;
    }),
    `UPDATE catalog_staging SET row_count = json_array_length(rows_json),
       keys_json = (SELECT json_group_array(r.value ->> 0) FROM json_each(rows_json) r)`,
    `UPDATE catalog_staging SET first_row = (SELECT coalesce(sum(p.row_count), 0) FROM catalog_staging p
       WHERE p.job_id = catalog_staging.job_id AND p.chunk < catalog_staging.chunk)`,
  ],
};
