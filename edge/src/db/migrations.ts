import { changeFeedStatements } from "./change-feed-ddl.ts";
import type { Migration } from "./migrate.ts";

// Helpers of migration 11 (below), frozen with it as the migration itself is.

const SHOPIFY_COLUMNS_DDL = `product_id TEXT NOT NULL,
        inventory_item_id TEXT,
        title TEXT NOT NULL,
        sku TEXT NOT NULL,
        sku_key TEXT NOT NULL,
        price_cents INTEGER NOT NULL,
        compare_at_price_cents INTEGER,
        is_physical INTEGER NOT NULL,
        tracked INTEGER NOT NULL,
        location_id TEXT,
        available INTEGER,
        on_hand INTEGER,
        locations_json TEXT NOT NULL DEFAULT '[]'`;

const ACUMATICA_COLUMNS_DDL = `sku TEXT NOT NULL,
        sku_key TEXT NOT NULL,
        description TEXT NOT NULL,
        default_price_cents INTEGER NOT NULL,
        msrp_cents INTEGER,
        available INTEGER,
        on_hand INTEGER,
        available_for_shipping INTEGER,
        is_stock_item INTEGER NOT NULL`;

/** Columns whose change re-sorts a list: an in-place update of one bumps the catalog's version. */
const ORDER_COLUMNS = {
  shopify: ["id", "sku_key", "price_cents", "compare_at_price_cents", "available", "on_hand"],
  acumatica: [
    "id",
    "sku_key",
    "default_price_cents",
    "msrp_cents",
    "available",
    "on_hand",
    "available_for_shipping",
  ],
};

function rebuildCatalogTable(system: "shopify" | "acumatica", key: string, columnsDdl: string): string[] {
  const table = `${system}_products`;
  const columnNames = columnsDdl.split(",").map((line) => line.trim().split(" ")[0]);
  const copied = ["id", "user_id", key, ...columnNames].join(", ");
  const orderColumns = ORDER_COLUMNS[system];
  return [
    ...["added", "removed", "sku_changed", "order_changed"].map((name) => `DROP TRIGGER ${table}_${name}`),
    `CREATE TABLE ${table}_rebuilt (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        ${key} TEXT NOT NULL,
        ${columnsDdl},
        UNIQUE (user_id, ${key})
      )`,
    `INSERT INTO ${table}_rebuilt (seq, ${copied}) SELECT rowid, ${copied} FROM ${table} ORDER BY rowid`,
    `DROP TABLE ${table}`,
    `ALTER TABLE ${table}_rebuilt RENAME TO ${table}`,
    `CREATE INDEX ${table}_sku ON ${table}(user_id, sku_key)`,
    // Rows a swap adds are left to indexSearch (above unindexed_from); any other insert is indexed.
    `CREATE TRIGGER ${table}_added AFTER INSERT ON ${table}
      WHEN NOT EXISTS (SELECT 1 FROM catalog_state c
        WHERE c.user_id = new.user_id AND c.system = '${system}' AND new.seq > c.unindexed_from) BEGIN
        INSERT OR REPLACE INTO ${table}_sku_search (rowid, sku_key) VALUES (new.seq, new.sku_key);
      END`,
    `CREATE TRIGGER ${table}_removed AFTER DELETE ON ${table} BEGIN
        DELETE FROM ${table}_sku_search WHERE rowid = old.rowid;
      END`,
    `CREATE TRIGGER ${table}_sku_changed AFTER UPDATE OF sku_key ON ${table}
      WHEN old.sku_key IS NOT new.sku_key BEGIN
        INSERT OR REPLACE INTO ${table}_sku_search (rowid, sku_key) VALUES (new.rowid, new.sku_key);
      END`,
    `CREATE TRIGGER ${table}_order_changed AFTER UPDATE OF ${orderColumns.join(", ")} ON ${table}
      WHEN ${orderColumns.map((column) => `old.${column} IS NOT new.${column}`).join(" OR ")} BEGIN
        UPDATE catalog_state SET version = version + 1 WHERE user_id = new.user_id AND system = '${system}';
      END`,
  ];
}

/**
 * Versioned schema changes, oldest first. Never edit a released migration: add a new one.
 * Money is stored in integer cents; times as ISO-8601 UTC text; every user-owned row has user_id.
 */
export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: "accounts",
    statements: [
      `CREATE TABLE users (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        email TEXT NOT NULL,
        email_normalized TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        profile_image TEXT,
        password_changed_at TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      )`,
      `CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        last_seen_at TEXT NOT NULL,
        revoked_at TEXT
      )`,
      "CREATE INDEX sessions_user ON sessions(user_id)",
      `CREATE TABLE login_attempts (
        key TEXT PRIMARY KEY,
        failures INTEGER NOT NULL,
        window_started_at TEXT NOT NULL
      )`,
    ],
  },
  {
    version: 2,
    name: "billing",
    statements: [
      `CREATE TABLE stripe_customers (
        user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        customer_id TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL
      )`,
      `CREATE TABLE subscriptions (
        user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        subscription_id TEXT NOT NULL UNIQUE,
        customer_id TEXT NOT NULL,
        plan_id TEXT NOT NULL,
        status TEXT NOT NULL,
        current_period_end TEXT,
        cancel_at_period_end INTEGER NOT NULL DEFAULT 0,
        source_event_created INTEGER NOT NULL DEFAULT 0,
        updated_at TEXT NOT NULL
      )`,
      `CREATE TABLE stripe_events (
        id TEXT PRIMARY KEY,
        type TEXT NOT NULL,
        created INTEGER NOT NULL,
        processed_at TEXT NOT NULL
      )`,
      `CREATE TABLE checkout_sessions (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        price_id TEXT NOT NULL,
        created_at TEXT NOT NULL
      )`,
    ],
  },
  {
    version: 3,
    name: "connections",
    statements: [
      `CREATE TABLE acumatica_connections (
        user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        api_version TEXT NOT NULL,
        instance_uri TEXT NOT NULL,
        endpoint_name TEXT NOT NULL,
        username TEXT NOT NULL,
        password_encrypted TEXT NOT NULL,
        company TEXT NOT NULL,
        is_verified INTEGER NOT NULL DEFAULT 0,
        last_tested_at TEXT,
        last_test_error TEXT,
        updated_at TEXT NOT NULL
      )`,
      `CREATE TABLE shopify_connections (
        user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        api_version TEXT NOT NULL,
        store_name TEXT NOT NULL,
        access_token_encrypted TEXT NOT NULL,
        served_api_version TEXT,
        is_verified INTEGER NOT NULL DEFAULT 0,
        last_tested_at TEXT,
        last_test_error TEXT,
        updated_at TEXT NOT NULL
      )`,
    ],
  },
  {
    version: 4,
    name: "jobs and catalogs",
    statements: [
      `CREATE TABLE jobs (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        status TEXT NOT NULL,
        input_json TEXT NOT NULL DEFAULT '{}',
        progress_done INTEGER NOT NULL DEFAULT 0,
        progress_total INTEGER,
        phase TEXT NOT NULL DEFAULT '',
        message TEXT,
        result_json TEXT,
        lease_until TEXT,
        created_at TEXT NOT NULL,
        started_at TEXT,
        finished_at TEXT
      )`,
      "CREATE INDEX jobs_user_created ON jobs(user_id, created_at)",
      "CREATE INDEX jobs_status_lease ON jobs(status, lease_until)",
      `CREATE TABLE shopify_products (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        variant_id TEXT NOT NULL,
        product_id TEXT NOT NULL,
        inventory_item_id TEXT,
        title TEXT NOT NULL,
        sku TEXT NOT NULL,
        sku_key TEXT NOT NULL,
        price_cents INTEGER NOT NULL,
        compare_at_price_cents INTEGER,
        is_physical INTEGER NOT NULL,
        tracked INTEGER NOT NULL,
        location_id TEXT,
        available INTEGER,
        on_hand INTEGER,
        locations_json TEXT NOT NULL DEFAULT '[]',
        last_synced TEXT NOT NULL,
        UNIQUE (user_id, variant_id)
      )`,
      "CREATE INDEX shopify_products_synced ON shopify_products(user_id, last_synced, id)",
      "CREATE INDEX shopify_products_sku ON shopify_products(user_id, sku_key)",
      "CREATE INDEX shopify_products_price ON shopify_products(user_id, price_cents)",
      `CREATE TABLE acumatica_products (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        acumatica_id TEXT NOT NULL,
        sku TEXT NOT NULL,
        sku_key TEXT NOT NULL,
        description TEXT NOT NULL,
        default_price_cents INTEGER NOT NULL,
        msrp_cents INTEGER,
        available INTEGER,
        on_hand INTEGER,
        available_for_shipping INTEGER,
        is_stock_item INTEGER NOT NULL,
        last_synced TEXT NOT NULL,
        UNIQUE (user_id, acumatica_id)
      )`,
      "CREATE INDEX acumatica_products_synced ON acumatica_products(user_id, last_synced, id)",
      "CREATE INDEX acumatica_products_sku ON acumatica_products(user_id, sku_key)",
      "CREATE INDEX acumatica_products_price ON acumatica_products(user_id, default_price_cents)",
    ],
  },
  {
    version: 5,
    name: "settings, mappings and execution history",
    statements: [
      `CREATE TABLE settings (
        user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        acumatica_quantity TEXT NOT NULL DEFAULT 'Available',
        shopify_quantity TEXT NOT NULL DEFAULT 'Available',
        sync_price INTEGER NOT NULL DEFAULT 0,
        sync_msrp INTEGER NOT NULL DEFAULT 0,
        updated_at TEXT NOT NULL
      )`,
      `CREATE TABLE mappings (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        shopify_variant_id TEXT NOT NULL,
        shopify_sku TEXT NOT NULL,
        acumatica_id TEXT NOT NULL,
        acumatica_sku TEXT NOT NULL,
        mapping_type TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        last_synced_at TEXT,
        UNIQUE (user_id, shopify_variant_id),
        UNIQUE (user_id, acumatica_id)
      )`,
      "CREATE INDEX mappings_user_created ON mappings(user_id, created_at, id)",
      `CREATE TABLE execution_history (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        schedule_id TEXT,
        schedule_name TEXT,
        trigger TEXT NOT NULL,
        start_date TEXT NOT NULL,
        end_date TEXT,
        success_count INTEGER NOT NULL DEFAULT 0,
        failure_count INTEGER NOT NULL DEFAULT 0,
        skipped_count INTEGER NOT NULL DEFAULT 0,
        status TEXT NOT NULL,
        error TEXT
      )`,
      "CREATE INDEX execution_history_user_start ON execution_history(user_id, start_date, id)",
      `CREATE TABLE execution_failures (
        id TEXT PRIMARY KEY,
        history_id TEXT NOT NULL REFERENCES execution_history(id) ON DELETE CASCADE,
        mapping_id TEXT,
        shopify_sku TEXT NOT NULL,
        acumatica_sku TEXT NOT NULL,
        error TEXT NOT NULL
      )`,
      "CREATE INDEX execution_failures_history ON execution_failures(history_id)",
    ],
  },
  {
    version: 6,
    name: "subscription plan name and checkout lookups",
    statements: [
      // The plan's product name as Stripe last reported it, so the user object needs no Stripe call.
      "ALTER TABLE subscriptions ADD COLUMN plan_name TEXT",
      "CREATE INDEX checkout_sessions_user_created ON checkout_sessions(user_id, created_at)",
    ],
  },
  {
    version: 7,
    name: "catalog pulls: staging, totals and list indexes",
    statements: [
      // A pull writes here page by page, then swaps into the catalog in one transaction, so a
      // failed pull leaves the previous catalog untouched and memory stays flat. (Rowid tables:
      // appending wide rows is several times faster than into a WITHOUT ROWID key of random ids.)
      `CREATE TABLE shopify_products_staging (
        job_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        variant_id TEXT NOT NULL,
        new_id TEXT NOT NULL,
        product_id TEXT NOT NULL,
        inventory_item_id TEXT,
        title TEXT NOT NULL,
        sku TEXT NOT NULL,
        sku_key TEXT NOT NULL,
        price_cents INTEGER NOT NULL,
        compare_at_price_cents INTEGER,
        is_physical INTEGER NOT NULL,
        tracked INTEGER NOT NULL,
        location_id TEXT,
        available INTEGER,
        on_hand INTEGER,
        locations_json TEXT NOT NULL,
        UNIQUE (job_id, variant_id)
      )`,
      `CREATE TABLE acumatica_products_staging (
        job_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        acumatica_id TEXT NOT NULL,
        new_id TEXT NOT NULL,
        sku TEXT NOT NULL,
        sku_key TEXT NOT NULL,
        description TEXT NOT NULL,
        default_price_cents INTEGER NOT NULL,
        msrp_cents INTEGER,
        available INTEGER,
        on_hand INTEGER,
        available_for_shipping INTEGER,
        is_stock_item INTEGER NOT NULL,
        UNIQUE (job_id, acumatica_id)
      )`,
      // Row count and a version per user and system, written by each pull: an unfiltered list needs
      // no COUNT over 100,000 rows, and cached search results know when they are stale.
      `CREATE TABLE catalog_state (
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        system TEXT NOT NULL,
        total INTEGER NOT NULL,
        version INTEGER NOT NULL,
        last_synced TEXT NOT NULL,
        PRIMARY KEY (user_id, system)
      )`,
      // One index per sortable column: the id breaks ties, and sku_key lets a SKU search filter on
      // the index itself while it walks it in sort order (no table row read for non-matches).
      "DROP INDEX shopify_products_synced",
      "DROP INDEX shopify_products_sku",
      "DROP INDEX shopify_products_price",
      "CREATE INDEX shopify_products_synced ON shopify_products(user_id, last_synced, id, sku_key)",
      "CREATE INDEX shopify_products_sku ON shopify_products(user_id, sku_key, id)",
      "CREATE INDEX shopify_products_price ON shopify_products(user_id, price_cents, id, sku_key)",
      "CREATE INDEX shopify_products_compare_at ON shopify_products(user_id, compare_at_price_cents, id, sku_key)",
      "CREATE INDEX shopify_products_available ON shopify_products(user_id, available, id, sku_key)",
      "CREATE INDEX shopify_products_on_hand ON shopify_products(user_id, on_hand, id, sku_key)",
      "DROP INDEX acumatica_products_synced",
      "DROP INDEX acumatica_products_sku",
      "DROP INDEX acumatica_products_price",
      "CREATE INDEX acumatica_products_synced ON acumatica_products(user_id, last_synced, id, sku_key)",
      "CREATE INDEX acumatica_products_sku ON acumatica_products(user_id, sku_key, id)",
      "CREATE INDEX acumatica_products_price ON acumatica_products(user_id, default_price_cents, id, sku_key)",
      "CREATE INDEX acumatica_products_msrp ON acumatica_products(user_id, msrp_cents, id, sku_key)",
      "CREATE INDEX acumatica_products_available ON acumatica_products(user_id, available, id, sku_key)",
      "CREATE INDEX acumatica_products_on_hand ON acumatica_products(user_id, on_hand, id, sku_key)",
      "CREATE INDEX acumatica_products_shipping ON acumatica_products(user_id, available_for_shipping, id, sku_key)",
    ],
  },
  {
    version: 8,
    name: "mapping schedules",
    statements: [
      // lease_owner / lease_until: a tick claims a due row with one UPDATE, so many instances never
      // run one schedule twice. running_since marks a run in progress; interrupted_at receives it
      // when an expired lease is taken over (the old value, in the same UPDATE).
      `CREATE TABLE schedules (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        type TEXT NOT NULL,
        time TEXT,
        day INTEGER,
        interval_hours INTEGER,
        minute_interval INTEGER,
        timezone TEXT NOT NULL,
        mapping_ids_json TEXT NOT NULL DEFAULT '[]',
        is_full_sync INTEGER NOT NULL,
        sync_price INTEGER NOT NULL,
        sync_quantity INTEGER NOT NULL,
        status TEXT NOT NULL,
        last_run TEXT,
        next_run TEXT,
        lease_owner TEXT,
        lease_until TEXT,
        running_since TEXT,
        interrupted_at TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      )`,
      "CREATE INDEX schedules_user_created ON schedules(user_id, created_at, id)",
      "CREATE INDEX schedules_due ON schedules(status, next_run)",
      "CREATE INDEX schedules_running ON schedules(running_since, lease_until)",
    ],
  },
  {
    version: 9,
    name: "catalog list search index and order versions",
    statements: [
      // A trigram index of each SKU key narrows a "contains" search to candidate rows (the list
      // still checks instr on each), kept in step by triggers. Contentless: it only yields rowids.
      // Every change to a row's presence or to a sortable column bumps the catalog's version, so
      // cached sort orders and searches (keyed by it) never outlive the rows they were read from,
      // whoever writes: the pull, the sync engine's in-place updates, or later code.
      `CREATE VIRTUAL TABLE shopify_products_sku_search USING fts5(
        sku_key, tokenize = 'trigram case_sensitive 1', detail = none, content = '', contentless_delete = 1
      )`,
      "INSERT INTO shopify_products_sku_search (rowid, sku_key) SELECT rowid, sku_key FROM shopify_products",
      `CREATE TRIGGER shopify_products_added AFTER INSERT ON shopify_products BEGIN
        INSERT OR REPLACE INTO shopify_products_sku_search (rowid, sku_key) VALUES (new.rowid, new.sku_key);
        UPDATE catalog_state SET version = version + 1 WHERE user_id = new.user_id AND system = 'shopify';
      END`,
      `CREATE TRIGGER shopify_products_removed AFTER DELETE ON shopify_products BEGIN
        DELETE FROM shopify_products_sku_search WHERE rowid = old.rowid;
        UPDATE catalog_state SET version = version + 1 WHERE user_id = old.user_id AND system = 'shopify';
      END`,
      `CREATE TRIGGER shopify_products_sku_changed AFTER UPDATE OF sku_key ON shopify_products
      WHEN old.sku_key IS NOT new.sku_key BEGIN
        INSERT OR REPLACE INTO shopify_products_sku_search (rowid, sku_key) VALUES (new.rowid, new.sku_key);
      END`,
      `CREATE TRIGGER shopify_products_order_changed AFTER UPDATE OF id, sku_key, price_cents, compare_at_price_cents, available, on_hand, last_synced ON shopify_products
      WHEN old.id IS NOT new.id OR old.sku_key IS NOT new.sku_key OR old.price_cents IS NOT new.price_cents OR old.compare_at_price_cents IS NOT new.compare_at_price_cents OR old.available IS NOT new.available OR old.on_hand IS NOT new.on_hand OR old.last_synced IS NOT new.last_synced BEGIN
        UPDATE catalog_state SET version = version + 1 WHERE user_id = new.user_id AND system = 'shopify';
      END`,
      `CREATE VIRTUAL TABLE acumatica_products_sku_search USING fts5(
        sku_key, tokenize = 'trigram case_sensitive 1', detail = none, content = '', contentless_delete = 1
      )`,
      "INSERT INTO acumatica_products_sku_search (rowid, sku_key) SELECT rowid, sku_key FROM acumatica_products",
      `CREATE TRIGGER acumatica_products_added AFTER INSERT ON acumatica_products BEGIN
        INSERT OR REPLACE INTO acumatica_products_sku_search (rowid, sku_key) VALUES (new.rowid, new.sku_key);
        UPDATE catalog_state SET version = version + 1 WHERE user_id = new.user_id AND system = 'acumatica';
      END`,
      `CREATE TRIGGER acumatica_products_removed AFTER DELETE ON acumatica_products BEGIN
        DELETE FROM acumatica_products_sku_search WHERE rowid = old.rowid;
        UPDATE catalog_state SET version = version + 1 WHERE user_id = old.user_id AND system = 'acumatica';
      END`,
      `CREATE TRIGGER acumatica_products_sku_changed AFTER UPDATE OF sku_key ON acumatica_products
      WHEN old.sku_key IS NOT new.sku_key BEGIN
        INSERT OR REPLACE INTO acumatica_products_sku_search (rowid, sku_key) VALUES (new.rowid, new.sku_key);
      END`,
      `CREATE TRIGGER acumatica_products_order_changed AFTER UPDATE OF id, sku_key, default_price_cents, msrp_cents, available, on_hand, available_for_shipping, last_synced ON acumatica_products
      WHEN old.id IS NOT new.id OR old.sku_key IS NOT new.sku_key OR old.default_price_cents IS NOT new.default_price_cents OR old.msrp_cents IS NOT new.msrp_cents OR old.available IS NOT new.available OR old.on_hand IS NOT new.on_hand OR old.available_for_shipping IS NOT new.available_for_shipping OR old.last_synced IS NOT new.last_synced BEGIN
        UPDATE catalog_state SET version = version + 1 WHERE user_id = new.user_id AND system = 'acumatica';
      END`,
    ],
  },
  {
    version: 10,
    name: "catalog staging by chunk, sort orders without indexes",
    statements: [
      // A pull stages each chunk it reads as one JSON row; the swap spreads them into columns.
      "DROP TABLE shopify_products_staging",
      "DROP TABLE acumatica_products_staging",
      `CREATE TABLE catalog_staging (
        job_id TEXT NOT NULL,
        chunk INTEGER NOT NULL,
        user_id TEXT NOT NULL,
        system TEXT NOT NULL,
        rows_json TEXT NOT NULL,
        PRIMARY KEY (job_id, chunk)
      )`,
      "CREATE INDEX catalog_staging_user ON catalog_staging(user_id, system)",
      // No index per sortable column any more: lists read each sort order once per catalog version
      // and keep it in memory (catalog/sort-orders.ts), and writing six indexes was two thirds of
      // saving a 50,000-row pull. The SKU index stays (searches scan it), without the id migration 7
      // added to it: ties sort by rowid, the order rows were first stored in.
      ...["synced", "price", "compare_at", "available", "on_hand"].map(
        (suffix) => `DROP INDEX shopify_products_${suffix}`,
      ),
      ...["synced", "price", "msrp", "available", "on_hand", "shipping"].map(
        (suffix) => `DROP INDEX acumatica_products_${suffix}`,
      ),
      "DROP INDEX shopify_products_sku",
      "CREATE INDEX shopify_products_sku ON shopify_products(user_id, sku_key)",
      "DROP INDEX acumatica_products_sku",
      "CREATE INDEX acumatica_products_sku ON acumatica_products(user_id, sku_key)",
      // Rows are only added and removed, and last_synced only written, by a pull's swap, which bumps
      // the catalog's version once itself: a bump per row made a 50,000-row pull update
      // catalog_state 50,000 times. In-place changes to listed columns (the sync engine's) still
      // bump it per row, below.
      ...(["shopify", "acumatica"] as const).flatMap((system) => [
        `DROP TRIGGER ${system}_products_added`,
        `CREATE TRIGGER ${system}_products_added AFTER INSERT ON ${system}_products BEGIN
          INSERT OR REPLACE INTO ${system}_products_sku_search (rowid, sku_key) VALUES (new.rowid, new.sku_key);
        END`,
        `DROP TRIGGER ${system}_products_removed`,
        `CREATE TRIGGER ${system}_products_removed AFTER DELETE ON ${system}_products BEGIN
          DELETE FROM ${system}_products_sku_search WHERE rowid = old.rowid;
        END`,
      ]),
      "DROP TRIGGER shopify_products_order_changed",
      `CREATE TRIGGER shopify_products_order_changed AFTER UPDATE OF id, sku_key, price_cents, compare_at_price_cents, available, on_hand ON shopify_products
      WHEN old.id IS NOT new.id OR old.sku_key IS NOT new.sku_key OR old.price_cents IS NOT new.price_cents OR old.compare_at_price_cents IS NOT new.compare_at_price_cents OR old.available IS NOT new.available OR old.on_hand IS NOT new.on_hand BEGIN
        UPDATE catalog_state SET version = version + 1 WHERE user_id = new.user_id AND system = 'shopify';
      END`,
      "DROP TRIGGER acumatica_products_order_changed",
      `CREATE TRIGGER acumatica_products_order_changed AFTER UPDATE OF id, sku_key, default_price_cents, msrp_cents, available, on_hand, available_for_shipping ON acumatica_products
      WHEN old.id IS NOT new.id OR old.sku_key IS NOT new.sku_key OR old.default_price_cents IS NOT new.default_price_cents OR old.msrp_cents IS NOT new.msrp_cents OR old.available IS NOT new.available OR old.on_hand IS NOT new.on_hand OR old.available_for_shipping IS NOT new.available_for_shipping BEGIN
        UPDATE catalog_state SET version = version + 1 WHERE user_id = new.user_id AND system = 'acumatica';
      END`,
    ],
  },
  {
    version: 11,
    name: "catalog rows keyed by their stored order, lastSynced per catalog, search index after the swap",
    statements: [
      // Rows a pull's swap adds get their SKU search entries right after it, in their own
      // transaction (CatalogRepo.indexSearch): that index was a fifth of the swap's time, and the
      // swap holds the database's one write lock. Until then searches scan the user's SKU index.
      // unindexed_from: the user's rows with a seq above it may have no search entry yet.
      "ALTER TABLE catalog_state ADD COLUMN unindexed_from INTEGER",
      // The catalog tables are rebuilt:
      // - without the unique index on id: nothing looks a product up by it;
      // - without last_synced: only a pull's swap wrote it, to every row of the catalog, so it was
      //   always catalog_state.last_synced, and a pull of 50,000 unchanged rows rewrote them all;
      // - with `seq` naming the rowid, so the stored order that breaks sort ties (and that sorting
      //   by lastSynced is), and the rowids the search index points at, survive a VACUUM.
      // Triggers go first: the DROP would fire them.
      ...rebuildCatalogTable("shopify", "variant_id", SHOPIFY_COLUMNS_DDL),
      ...rebuildCatalogTable("acumatica", "acumatica_id", ACUMATICA_COLUMNS_DDL),
    ],
  },
  {
    version: 12,
    name: "one billing operation at a time per user",
    statements: [
      // A row per user who ever changed billing. `holder` is set while an operation runs (null when
      // free); `held_until` lets another process take over from one that died mid-operation.
      // `generation` counts completed operations: it goes into Stripe idempotency keys, so a retry
      // of an unfinished operation replays Stripe's answer and a later, new one is not mistaken for it.
      `CREATE TABLE billing_locks (
        user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        holder TEXT,
        operation TEXT,
        held_until TEXT,
        generation INTEGER NOT NULL DEFAULT 0
      )`,
    ],
  },
  {
    version: 13,
    name: "a row per sign-in, registration and password check, reserved before the hash runs",
    statements: [
      // login_attempts kept one counter per key, read before the hash and written after it, so
      // parallel requests all passed the check. A row per attempt is reserved atomically (an INSERT
      // whose WHERE holds the limits) and settled after the hash; AuthRepo has the rules' SQL.
      // seq orders attempts (the clock may not move between two); outcome is NULL while in flight.
      // expires_at_ms: when nothing reads the row any more (purged then).
      "DROP TABLE login_attempts",
      `CREATE TABLE auth_attempts (
        seq INTEGER PRIMARY KEY,
        action TEXT NOT NULL,
        account TEXT NOT NULL,
        address TEXT NOT NULL,
        known INTEGER NOT NULL,
        at_ms INTEGER NOT NULL,
        outcome TEXT,
        expires_at_ms INTEGER NOT NULL
      )`,
      "CREATE INDEX auth_attempts_account ON auth_attempts(action, account, address)",
      "CREATE INDEX auth_attempts_address ON auth_attempts(action, address)",
      "CREATE INDEX auth_attempts_expiry ON auth_attempts(expires_at_ms)",
    ],
  },
  {
    version: 14,
    name: "run leases on history entries, shared Acumatica session slots, the connection's session limit",
    statements: [
      // A run renews its entry's lease while it works; an entry whose lease ran out (its process
      // stopped) is failed by whichever instance notices first. job_id ties a job's run to the job,
      // so failing a dead job ends its entry at once.
      "ALTER TABLE execution_history ADD COLUMN lease_until TEXT",
      "ALTER TABLE execution_history ADD COLUMN job_id TEXT",
      // Entries left running before this migration had no lease: the first sweep ends them (a run
      // still alive in an older instance overwrites that with its real outcome when it finishes).
      "UPDATE execution_history SET lease_until = start_date WHERE status = 'running'",
      "CREATE INDEX execution_history_open ON execution_history(lease_until) WHERE status = 'running'",
      "CREATE INDEX execution_history_job ON execution_history(job_id) WHERE job_id IS NOT NULL",
      // Licence seats: one row per holder or waiter of a slot under `slot_key` (e.g. one user's
      // Acumatica connection). seq is the FIFO ticket; a row whose lease ran out no longer counts.
      `CREATE TABLE work_slots (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        slot_key TEXT NOT NULL,
        holder TEXT NOT NULL UNIQUE,
        holding INTEGER NOT NULL DEFAULT 0,
        lease_until TEXT NOT NULL,
        created_at TEXT NOT NULL
      )`,
      "CREATE INDEX work_slots_key ON work_slots(slot_key, seq)",
      "ALTER TABLE acumatica_connections ADD COLUMN max_sessions INTEGER NOT NULL DEFAULT 2",
    ],
  },
  {
    version: 16,
    name: "unmapped products paged by SKU from an index",
    statements: [
      // A page of unmapped products walks the user's rows in SKU order and skips those a mapping
      // uses: with the external id in the index, neither the skipping (a deep OFFSET) nor the
      // count reads a table row. Ties order by that id, unique per user.
      "CREATE INDEX shopify_products_unmapped ON shopify_products(user_id, sku_key, variant_id)",
      "CREATE INDEX acumatica_products_unmapped ON acumatica_products(user_id, sku_key, acumatica_id)",
    ],
  },
  {
    version: 17,
    name: "personal API tokens, stored as SHA-256 hashes",
    statements: [
      // Only the hash of a token is kept (the secret is shown once, at creation); the bearer is
      // found by this unique hash. `prefix` is the token's visible start, for the list. A revoked
      // token's row is deleted. `last_used_at` is written at most once a minute per token.
      `CREATE TABLE personal_tokens (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        prefix TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        expires_at TEXT,
        last_used_at TEXT
      )`,
      "CREATE INDEX personal_tokens_user ON personal_tokens(user_id, created_at)",
    ],
  },
  {
    version: 18,
    name: "bulk operation slots per Shopify store, shared by every job and instance",
    statements: [
      // Shopify runs a limited number of bulk operations per app and store at a time (one query and
      // one mutation before 2026-01, five of each since). A catalog pull and a sync of the same store
      // each take a slot row first; a row whose holder stopped renewing is free again after its lease.
      `CREATE TABLE shopify_bulk_slots (
        store TEXT NOT NULL,
        type TEXT NOT NULL,
        slot INTEGER NOT NULL,
        holder TEXT NOT NULL,
        held_until_ms INTEGER NOT NULL,
        PRIMARY KEY (store, type, slot)
      )`,
    ],
  },
  {
    version: 19,
    name: "cron ticks recorded for health",
    statements: [
      // The last time each cron job ran, written by whichever instance ticked, so /api/health on
      // any instance can tell a stopped cron from a running one.
      "CREATE TABLE cron_ticks (name TEXT PRIMARY KEY, ticked_at TEXT NOT NULL)",
    ],
  },
  {
    version: 20,
    name: "Shopify deprecation notice and both systems' currencies on the connections",
    statements: [
      // What Shopify's X-Shopify-API-Deprecated-Reason last said for the version served; cleared
      // when the served version or the connection's target changes.
      "ALTER TABLE shopify_connections ADD COLUMN deprecation_notice TEXT",
      // The currencies the last successful tests read (shop.currencyCode, Company.BaseCurrencyID),
      // so Settings can warn that prices will not sync before any run.
      "ALTER TABLE shopify_connections ADD COLUMN currency_code TEXT",
      "ALTER TABLE acumatica_connections ADD COLUMN base_currency TEXT",
    ],
  },
  {
    version: 21,
    name: "honest run outcomes: partial runs, skipped items, each run's scope and options, retries",
    statements: [
      // A finished run with failed items read 'completed' however many failed: some succeeded makes
      // it 'partial', none 'failed'.
      `UPDATE execution_history SET status = CASE WHEN success_count > 0 THEN 'partial' ELSE 'failed' END
        WHERE status = 'completed' AND failure_count > 0`,
      // What a run synced, so its failed mappings can be retried alike (NULL: recorded before this).
      "ALTER TABLE execution_history ADD COLUMN sync_price INTEGER",
      "ALTER TABLE execution_history ADD COLUMN sync_quantity INTEGER",
      // Which mappings a run covered, so a run that fails as a whole (or stops with its process) lists
      // every one: 'all' (the user's mappings when it started), 'ids' (execution_scopes) or 'retry'
      // (the failed mappings of retry_of). NULL for runs recorded before this.
      "ALTER TABLE execution_history ADD COLUMN scope TEXT",
      "ALTER TABLE execution_history ADD COLUMN retry_of TEXT",
      // A named scope's ids in a table of their own: a 10,000-id list must not ride along every history read.
      `CREATE TABLE execution_scopes (
        history_id TEXT PRIMARY KEY REFERENCES execution_history(id) ON DELETE CASCADE,
        mapping_ids_json TEXT NOT NULL
      )`,
      // Items a run left alone on purpose, each with its reason, apart from its failures.
      `CREATE TABLE execution_skips (
        history_id TEXT NOT NULL REFERENCES execution_history(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        mapping_id TEXT,
        shopify_sku TEXT NOT NULL,
        acumatica_sku TEXT NOT NULL,
        reason TEXT NOT NULL,
        PRIMARY KEY (history_id, seq)
      )`,
    ],
  },
  {
    version: 22,
    name: "alerts: notifications, where they go, webhook secrets and deliveries",
    statements: [
      // One row per user who saved Settings > Notifications; without one the defaults apply (the
      // account's email, no webhook, failures and missed runs on). email / webhook_url NULL: off.
      `CREATE TABLE notification_settings (
        user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        email TEXT,
        webhook_url TEXT,
        on_failed INTEGER NOT NULL,
        on_partial INTEGER NOT NULL,
        on_missed INTEGER NOT NULL,
        on_held INTEGER NOT NULL,
        updated_at TEXT NOT NULL
      )`,
      // The webhook signing secret, sealed like connection secrets; replaced whole on rotation.
      `CREATE TABLE webhook_secrets (
        user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        secret_sealed TEXT NOT NULL,
        created_at TEXT NOT NULL
      )`,
      // dedupe_key names what the alert is about (run:<history id>, missed:<schedule id>:<due>), so
      // the run's own report and the tick's sweep, on any instance, record it once.
      `CREATE TABLE notifications (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        title TEXT NOT NULL,
        body TEXT NOT NULL,
        history_id TEXT,
        dedupe_key TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        read_at TEXT
      )`,
      "CREATE INDEX notifications_user ON notifications(user_id, created_at, id)",
      "CREATE INDEX notifications_unread ON notifications(user_id) WHERE read_at IS NULL",
      // An email or webhook to send, claimed by a tick with a lease like jobs are, so a restart
      // loses none. payload_json is fixed when the alert is recorded; the signature is made per attempt.
      `CREATE TABLE alert_deliveries (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        notification_id TEXT NOT NULL REFERENCES notifications(id) ON DELETE CASCADE,
        channel TEXT NOT NULL,
        target TEXT NOT NULL,
        payload_json TEXT NOT NULL,
        status TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        last_status_code INTEGER,
        last_error TEXT,
        next_attempt_at TEXT,
        lease_until TEXT,
        created_at TEXT NOT NULL,
        delivered_at TEXT
      )`,
      "CREATE INDEX alert_deliveries_due ON alert_deliveries(next_attempt_at) WHERE status = 'pending'",
      "CREATE INDEX alert_deliveries_user ON alert_deliveries(user_id, created_at, id)",
      // The tick looks for runs that ended lately without an alert (a run whose process stopped).
      "CREATE INDEX execution_history_ended ON execution_history(end_date)",
    ],
  },
  {
    version: 23,
    name: "safety limits, and runs held for review with their plan",
    statements: [
      // Whole percentages; 0 turns a limit off. A user without a settings row reads the defaults.
      "ALTER TABLE settings ADD COLUMN max_price_change_percent INTEGER NOT NULL DEFAULT 50",
      "ALTER TABLE settings ADD COLUMN max_zeroed_percent INTEGER NOT NULL DEFAULT 20",
      // A held run's review: its reasons (a short JSON list of texts), when it was held, how many
      // changes its plan has, and what was decided (approved / discarded) and when.
      "ALTER TABLE execution_history ADD COLUMN held_reasons TEXT",
      "ALTER TABLE execution_history ADD COLUMN held_at TEXT",
      "ALTER TABLE execution_history ADD COLUMN held_change_count INTEGER",
      "ALTER TABLE execution_history ADD COLUMN decision TEXT",
      "ALTER TABLE execution_history ADD COLUMN decided_at TEXT",
      // The held plan, one row per field change (a 10,000-mapping run is rows, not one JSON value):
      // what the write needs (ids, quantity name, location), the value Shopify held and the new one
      // (cents for prices, units for quantities, null for no compare-at price), and what approving
      // did with it. seq runs 0..n-1 per run, so a page is a range of the primary key.
      `CREATE TABLE held_changes (
        history_id TEXT NOT NULL REFERENCES execution_history(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        mapping_id TEXT NOT NULL,
        shopify_sku TEXT NOT NULL,
        acumatica_sku TEXT NOT NULL,
        field TEXT NOT NULL,
        product_id TEXT NOT NULL,
        variant_id TEXT NOT NULL,
        inventory_item_id TEXT,
        location_id TEXT,
        location_name TEXT,
        quantity_name TEXT,
        old_value INTEGER,
        new_value INTEGER,
        result TEXT,
        note TEXT,
        PRIMARY KEY (history_id, seq)
      ) WITHOUT ROWID`,
    ],
  },
  {
    version: 24,
    name: "drift between Shopify and the ERP, and check-only schedules",
    statements: [
      // The latest check of every mapping, per user: when, how many mappings, which fields it
      // compared, and what ran it. A newer check replaces the row and the user's items.
      `CREATE TABLE drift_checks (
        user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        checked_at TEXT NOT NULL,
        mappings INTEGER NOT NULL,
        fields_json TEXT NOT NULL,
        source TEXT NOT NULL,
        history_id TEXT
      )`,
      // One row per differing field (prices in cents, quantities in units). AUTOINCREMENT keeps ids
      // rising across replacements, so the CSV pages by id in the order the check read them. A
      // deleted mapping takes its rows with it.
      `CREATE TABLE drift_items (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        mapping_id TEXT NOT NULL REFERENCES mappings(id) ON DELETE CASCADE,
        shopify_sku TEXT NOT NULL,
        acumatica_sku TEXT NOT NULL,
        field TEXT NOT NULL,
        location_id TEXT,
        shopify_value INTEGER,
        erp_value INTEGER
      )`,
      "CREATE INDEX drift_items_user ON drift_items(user_id)",
      "CREATE INDEX drift_items_mapping ON drift_items(mapping_id)",
      // A mapping pointed at another variant or item no longer differs the way it was read.
      `CREATE TRIGGER drift_items_repointed AFTER UPDATE OF shopify_variant_id, acumatica_id ON mappings
        WHEN old.shopify_variant_id IS NOT new.shopify_variant_id OR old.acumatica_id IS NOT new.acumatica_id
        BEGIN DELETE FROM drift_items WHERE mapping_id = new.id; END`,
      "ALTER TABLE schedules ADD COLUMN check_only INTEGER NOT NULL DEFAULT 0",
      "ALTER TABLE execution_history ADD COLUMN check_only INTEGER NOT NULL DEFAULT 0",
      "ALTER TABLE execution_history ADD COLUMN drifted_count INTEGER",
    ],
  },
  {
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
  },
  {
    version: 26,
    name: "durable jobs: claimable by any instance, resumable from a checkpoint",
    statements: [
      // The instance's claim that holds the lease (a random id per process): only it may renew,
      // checkpoint or finish the job, so an instance that lost its lease cannot overwrite the one
      // that took over.
      "ALTER TABLE jobs ADD COLUMN owner TEXT",
      // Claims so far: a job whose instance keeps dying (out of memory on it) ends failed, not forever.
      "ALTER TABLE jobs ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0",
      // What the work saved after its last finished step (JSON), read back when another instance resumes it.
      "ALTER TABLE jobs ADD COLUMN checkpoint_json TEXT",
      // The schedule whose run this job is: the tick never queues a second run of one schedule.
      "ALTER TABLE jobs ADD COLUMN schedule_id TEXT",
      "CREATE INDEX jobs_schedule_live ON jobs(schedule_id) WHERE schedule_id IS NOT NULL AND status IN ('queued', 'running')",
      "CREATE INDEX jobs_user_kind_live ON jobs(user_id, kind) WHERE status IN ('queued', 'running')",
    ],
  },
  {
    version: 27,
    name: "change feeds: a row version per mirrored row, a counter per user, tombstones for deletions",
    // The web app's offline mirror asks each feed for what changed since the version it holds, so
    // a 100,000-row catalog crosses the network once and then only its changes (change-feed-ddl.ts).
    statements: changeFeedStatements(),
  },
  {
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
  },
];
