import { describe, expect, it } from "vitest";
import { openDatabase } from "../db/client.ts";
import { migrate } from "../db/migrate.ts";
import { MIGRATIONS } from "../db/migrations/index.ts";
import { createCatalogRepo } from "./repo.ts";
import { createSearchCache } from "./search-cache.ts";
import { ACUMATICA_TABLE } from "./tables.ts";

const USER = "user-1";

/** A catalog as migration 10 left it: rows, their search entries, their stored order. */
async function databaseAtVersion10() {
  const db = openDatabase(":memory:");
  await migrate(
    db,
    MIGRATIONS.filter((migration) => migration.version <= 10),
  );
  await db.execute({
    sql: `INSERT INTO users (id, name, email, email_normalized, password_hash, password_changed_at, created_at, updated_at)
          VALUES (?, 'Old Catalog', 'old@example.com', 'old@example.com', 'x', 't', 't', 't')`,
    args: [USER],
  });
  for (const [id, sku] of [
    ["id-3", "ZULU-3"],
    ["id-1", "ALPHA-1"],
    ["id-2", "ALPHA-2"],
  ] as const) {
    await db.execute({
      sql: `INSERT INTO acumatica_products (id, user_id, acumatica_id, sku, sku_key, description, default_price_cents,
              msrp_cents, available, on_hand, available_for_shipping, is_stock_item, last_synced)
            VALUES (?, ?, ?, ?, lower(?), 'Item', 100, NULL, 1, 1, 1, 1, '2026-11-20T10:00:00.000Z')`,
      args: [id, USER, `note-${sku}`, sku, sku],
    });
  }
  await db.execute({
    sql: `INSERT INTO catalog_state (user_id, system, total, version, last_synced)
          VALUES (?, 'acumatica', 3, 1, '2026-11-20T10:00:00.000Z')`,
    args: [USER],
  });
  return db;
}

describe("migration 11 (catalog rows keyed by stored order)", () => {
  it("keeps every row, its id, its stored order and its search entry, and the triggers keep working", async () => {
    const db = await databaseAtVersion10();
    const upTo11 = MIGRATIONS.filter((migration) => migration.version <= 11);
    expect(await migrate(db, upTo11)).toEqual([11]);
    // Today's repository reads today's columns (migration 28 added one): the later migrations run
    // too, and leave the rows migration 11 rebuilt as they are.
    await migrate(db, MIGRATIONS);
    const repo = createCatalogRepo(db, createSearchCache());
    const list = (search: string, sortBy = "lastSynced") =>
      repo.list("acumatica", USER, { page: 1, limit: 10, search, sortBy, sortDirection: "desc" });

    // lastSynced ties: the row stored last lists first, as before the rebuild.
    expect((await list("")).rows.map((row) => [row[0], row[2]])).toEqual([
      ["id-2", "ALPHA-2"],
      ["id-1", "ALPHA-1"],
      ["id-3", "ZULU-3"],
    ]);
    // Found through the search entries the rows had before the rebuild.
    expect((await list("lpha")).rows.map((row) => row[2])).toEqual(["ALPHA-2", "ALPHA-1"]);

    // A SKU changed in place is found by its new value; a removed row leaves the search.
    await db.execute("UPDATE acumatica_products SET sku = 'ZEBRA-1', sku_key = 'zebra-1' WHERE id = 'id-1'");
    await db.execute("DELETE FROM acumatica_products WHERE id = 'id-3'");
    await db.execute("UPDATE catalog_state SET version = version + 1");
    expect((await list("ebra")).rows.map((row) => row[0])).toEqual(["id-1"]);
    expect((await list("ulu")).total).toBe(0);
    expect((await list("lpha")).rows.map((row) => row[0])).toEqual(["id-2"]);
  });
});

describe("migration 30 (staged rows know their place in the pull; compact warehouses)", () => {
  it("lets a pull staged before it finish after it: warehouses intact, each written row its own change version, a kept row unchanged, a vanished one removed", async () => {
    const db = openDatabase(":memory:");
    await migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version < 30),
    );
    await db.execute({
      sql: `INSERT INTO users (id, name, email, email_normalized, password_hash, password_changed_at, created_at, updated_at)
            VALUES (?, 'Staged', 'staged@example.com', 'staged@example.com', 'x', 't', 't', 't')`,
      args: [USER],
    });
    const warehouses = (sku: string) => [
      { warehouseId: `WH-${sku}`, available: 1, onHandInventory: 2, availableForShipping: 3 },
      { warehouseId: "ZZ", available: 4, onHandInventory: 5, availableForShipping: 6 },
    ];
    // A and Z stored as the previous build's pull stored them (the pull below no longer has Z).
    for (const sku of ["A", "Z"])
      await db.execute({
        sql: `INSERT INTO acumatica_products (id, user_id, acumatica_id, sku, sku_key, description, default_price_cents,
                msrp_cents, available, on_hand, available_for_shipping, is_stock_item, warehouses_json)
              VALUES (?, ?, ?, ?, lower(?), 'Item', 100, NULL, 5, 7, 9, 1, ?)`,
        args: [`id-${sku}`, USER, `note-${sku}`, sku, sku, JSON.stringify(warehouses(sku))],
      });
    const storedVersionOfA = async () =>
      Number(
        (await db.execute("SELECT row_version FROM acumatica_products WHERE sku = 'A'")).rows[0]?.row_version,
      );
    const versionOfA = await storedVersionOfA();
    // Two chunks of a pull as the previous build staged them: [key, id, ...columns] per row.
    const row = (sku: string) => [
      `note-${sku}`,
      `id-${sku}`,
      sku,
      sku.toLowerCase(),
      "Item",
      100,
      null,
      5,
      7,
      9,
      1,
      JSON.stringify(warehouses(sku)),
    ];
    for (const [chunk, skus] of [
      [1, ["A", "B", "C"]],
      [2, ["D", "E"]],
    ] as const) {
      await db.execute({
        sql: "INSERT INTO catalog_staging (job_id, chunk, user_id, system, rows_json) VALUES ('pull-1', ?, ?, 'acumatica', ?)",
        args: [chunk, USER, JSON.stringify(skus.map(row))],
      });
    }
    await migrate(db, MIGRATIONS);
    const repo = createCatalogRepo(db, createSearchCache());
    // The pull resumes here: one more chunk, then the swap.
    await repo.stageAcumatica({
      jobId: "pull-1",
      userId: USER,
      rows: [
        {
          acumaticaId: "note-F",
          sku: "F",
          description: "Item",
          defaultPriceCents: 100,
          msrpCents: null,
          available: 5,
          onHand: 7,
          availableForShipping: 9,
          isStockItem: true,
          warehouses: [],
        },
      ],
      newId: () => "id-F",
    });
    expect(
      await repo.swap("acumatica", { jobId: "pull-1", userId: USER, syncedAt: "2026-11-21T10:00:00.000Z" }),
    ).toMatchObject({
      added: 5,
      updated: 0,
      unchanged: 1,
      removed: 1,
    });
    // A, stored and staged before the migration, reads as the same row: not rewritten, same version.
    expect(await storedVersionOfA()).toBe(versionOfA);
    const written = (
      await db.execute("SELECT row_version FROM acumatica_products WHERE sku <> 'A'")
    ).rows.map((r) => Number(r.row_version));
    expect(new Set(written).size).toBe(5);
    const counter = Number((await db.execute("SELECT version FROM change_versions")).rows[0]?.version);
    expect(Math.min(...written)).toBeGreaterThan(versionOfA);
    expect(Math.max(...written)).toBeLessThanOrEqual(counter);
    const listed = await repo.list("acumatica", USER, {
      page: 1,
      limit: 10,
      search: "",
      sortBy: "sku",
      sortDirection: "asc",
    });
    expect(listed.rows.map((values) => ACUMATICA_TABLE.decode(values, "").warehouses)).toEqual([
      ...["A", "B", "C", "D", "E"].map(warehouses),
      [],
    ]);
  });
});
