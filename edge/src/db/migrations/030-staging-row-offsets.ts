import type { Migration } from "../migrate.ts";

/** Where each catalog's staged row (`[key, id, ...columns]`) held its JSON column, frozen with this migration. */
const STAGED_JSON_COLUMN = { shopify: 14, acumatica: 11 };

export const stagingRowOffsets: Migration = {
  version: 30,
  name: "catalog staging chunks know their rows' place in the pull; JSON columns staged as JSON",
  statements: [
    // first_row: how many rows the pull staged before this chunk; row_count: the chunk's own. The
    // swap gives each staged row its change-feed version (base + first_row + its index + 1) as it
    // writes it, instead of rewriting every added or changed row a second time to number it.
    "ALTER TABLE catalog_staging ADD COLUMN first_row INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE catalog_staging ADD COLUMN row_count INTEGER NOT NULL DEFAULT 0",
    // Chunks a pull staged before this migration (it resumes after it) get theirs, and their JSON
    // columns (staged as text of JSON until now, as JSON from now on) are turned into JSON.
    ...Object.entries(STAGED_JSON_COLUMN).map(
      ([system, index]) =>
        `UPDATE catalog_staging SET rows_json = (SELECT json_group_array(json_set(r.value, '$[${index}]', json(r.value ->> ${index})))
           FROM json_each(catalog_staging.rows_json) r) WHERE system = '${system}'`,
    ),
    "UPDATE catalog_staging SET row_count = json_array_length(rows_json)",
    `UPDATE catalog_staging SET first_row = (SELECT coalesce(sum(p.row_count), 0) FROM catalog_staging p
       WHERE p.job_id = catalog_staging.job_id AND p.chunk < catalog_staging.chunk)`,
  ],
};
