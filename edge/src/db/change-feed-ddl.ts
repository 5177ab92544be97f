/**
 * Migration 27's statements (frozen with it, as a migration is): a row version on every row the
 * web app mirrors, a per-user counter that hands them out, and a tombstone per deleted row, so
 * each change feed answers "what changed since version N" from an index.
 */

interface VersionedTable {
  table: string;
  feed: string;
  /** The columns whose change a mirror must see (not leases, heartbeats or search keys). */
  visible: string[];
  /** Each existing row's first version: unique per user within a feed (the unmapped feed reads both catalogs). */
  initial: string;
}

const TABLES: VersionedTable[] = [
  {
    table: "shopify_products",
    feed: "shopify",
    visible: [
      "product_id",
      "inventory_item_id",
      "title",
      "sku",
      "price_cents",
      "compare_at_price_cents",
      "is_physical",
      "tracked",
      "location_id",
      "available",
      "on_hand",
      "locations_json",
    ],
    initial: "seq * 2",
  },
  {
    table: "acumatica_products",
    feed: "acumatica",
    visible: [
      "sku",
      "description",
      "default_price_cents",
      "msrp_cents",
      "available",
      "on_hand",
      "available_for_shipping",
      "is_stock_item",
    ],
    initial: "seq * 2 + 1",
  },
  {
    table: "mappings",
    feed: "mappings",
    visible: [
      "shopify_variant_id",
      "shopify_sku",
      "acumatica_id",
      "acumatica_sku",
      "mapping_type",
      "updated_at",
      "last_synced_at",
    ],
    initial: "rowid",
  },
  {
    table: "schedules",
    feed: "schedules",
    visible: [
      "name",
      "type",
      "time",
      "day",
      "interval_hours",
      "minute_interval",
      "timezone",
      "mapping_ids_json",
      "is_full_sync",
      "sync_price",
      "sync_quantity",
      "status",
      "last_run",
      "next_run",
      "check_only",
    ],
    initial: "rowid",
  },
  {
    table: "execution_history",
    feed: "history",
    visible: [
      "schedule_id",
      "schedule_name",
      "trigger",
      "start_date",
      "end_date",
      "success_count",
      "failure_count",
      "skipped_count",
      "status",
      "error",
      "sync_price",
      "sync_quantity",
      "retry_of",
      "held_reasons",
      "held_at",
      "held_change_count",
      "decision",
      "decided_at",
      "check_only",
      "drifted_count",
    ],
    initial: "rowid",
  },
];

/** The statements that give `row` (new or old) the user's next version. */
function nextVersion(row: "new" | "old"): string {
  return `INSERT OR IGNORE INTO change_versions (user_id, version) VALUES (${row}.user_id, 0);
    UPDATE change_versions SET version = version + 1 WHERE user_id = ${row}.user_id;`;
}

const CURRENT = (row: "new" | "old") =>
  `(SELECT version FROM change_versions WHERE user_id = ${row}.user_id)`;

/** What a deleted catalog row does to the mapping that points at it (now shown `missing`). */
const MAPPING_OF_REMOVED: Record<string, string> = {
  shopify_products:
    "UPDATE mappings SET row_version = NULL WHERE user_id = old.user_id AND shopify_variant_id = old.variant_id;",
  acumatica_products:
    "UPDATE mappings SET row_version = NULL WHERE user_id = old.user_id AND acumatica_id = old.acumatica_id;",
};

function versionedTable(t: VersionedTable): string[] {
  const changed = t.visible.map((column) => `old.${column} IS NOT new.${column}`).join(" OR ");
  const stamp = `UPDATE ${t.table} SET row_version = ${CURRENT("new")} WHERE rowid = new.rowid;`;
  return [
    `ALTER TABLE ${t.table} ADD COLUMN row_version INTEGER`,
    `UPDATE ${t.table} SET row_version = ${t.initial}`,
    `CREATE INDEX ${t.table}_changes ON ${t.table}(user_id, row_version)`,
    // A row stored without a version gets the next one. A catalog pull's swap numbers its own rows
    // (it writes -1, then a reserved range), so 100,000 rows cost one UPDATE, not 100,000 triggers.
    `CREATE TRIGGER ${t.table}_version_added AFTER INSERT ON ${t.table} WHEN new.row_version IS NULL BEGIN
      ${nextVersion("new")} ${stamp}
    END`,
    // Writing NULL asks for a new version: how one table's change reaches rows shown with it.
    `CREATE TRIGGER ${t.table}_version_touched AFTER UPDATE OF row_version ON ${t.table}
      WHEN new.row_version IS NULL BEGIN
      ${nextVersion("new")} ${stamp}
    END`,
    // Any visible change, by whoever writes it (a sync, a tick, a run closing), unless the writer
    // numbered the row itself.
    `CREATE TRIGGER ${t.table}_version_changed AFTER UPDATE OF ${t.visible.join(", ")} ON ${t.table}
      WHEN new.row_version IS old.row_version AND (${changed}) BEGIN
      ${nextVersion("new")} ${stamp}
    END`,
    `CREATE TRIGGER ${t.table}_version_removed AFTER DELETE ON ${t.table} BEGIN
      ${nextVersion("old")}
      INSERT INTO change_tombstones (user_id, feed, row_id, version) VALUES (old.user_id, '${t.feed}', old.id, ${CURRENT("old")});
      ${MAPPING_OF_REMOVED[t.table] ?? ""}
    END`,
  ];
}

/** Both catalog rows a mapping uses, old and new: their unmapped state changes with it. */
function touchProducts(row: "new" | "old"): string {
  return `UPDATE shopify_products SET row_version = NULL WHERE user_id = ${row}.user_id AND variant_id = ${row}.shopify_variant_id;
    UPDATE acumatica_products SET row_version = NULL WHERE user_id = ${row}.user_id AND acumatica_id = ${row}.acumatica_id;`;
}

const maxVersion = (table: string) =>
  `coalesce((SELECT max(row_version) FROM ${table} t WHERE t.user_id = u.id), 0)`;

export function changeFeedStatements(): string[] {
  return [
    // No foreign key on either: a row deleted as part of its user's deletion still writes here.
    "CREATE TABLE change_versions (user_id TEXT PRIMARY KEY, version INTEGER NOT NULL, swap_base INTEGER)",
    `CREATE TABLE change_tombstones (
      user_id TEXT NOT NULL,
      feed TEXT NOT NULL,
      row_id TEXT NOT NULL,
      version INTEGER NOT NULL,
      PRIMARY KEY (user_id, feed, version)
    ) WITHOUT ROWID`,
    ...TABLES.flatMap(versionedTable),
    `INSERT INTO change_versions (user_id, version)
      SELECT u.id, max(${TABLES.map((t) => maxVersion(t.table)).join(", ")}) FROM users u`,
    `CREATE TRIGGER mappings_products_added AFTER INSERT ON mappings BEGIN ${touchProducts("new")} END`,
    `CREATE TRIGGER mappings_products_removed AFTER DELETE ON mappings BEGIN ${touchProducts("old")} END`,
    `CREATE TRIGGER mappings_products_repointed AFTER UPDATE OF shopify_variant_id, acumatica_id ON mappings
      WHEN old.shopify_variant_id IS NOT new.shopify_variant_id OR old.acumatica_id IS NOT new.acumatica_id BEGIN
      ${touchProducts("old")} ${touchProducts("new")}
    END`,
    // A mapping shows its products' current SKUs.
    `CREATE TRIGGER shopify_products_sku_shown AFTER UPDATE OF sku ON shopify_products WHEN old.sku IS NOT new.sku BEGIN
      UPDATE mappings SET row_version = NULL WHERE user_id = new.user_id AND shopify_variant_id = new.variant_id;
    END`,
    `CREATE TRIGGER acumatica_products_sku_shown AFTER UPDATE OF sku ON acumatica_products WHEN old.sku IS NOT new.sku BEGIN
      UPDATE mappings SET row_version = NULL WHERE user_id = new.user_id AND acumatica_id = new.acumatica_id;
    END`,
  ];
}
