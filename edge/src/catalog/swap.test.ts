import { describe, expect, it } from "vitest";
import type { AcumaticaItemRow } from "../connectors/acumatica/catalog-reader.ts";
import { openDatabase } from "../db/client.ts";
import { migrate } from "../db/migrate.ts";
import { createCatalogRepo } from "./repo.ts";
import { createSearchCache } from "./search-cache.ts";

const USER = "user-1";

async function repoOnFreshDatabase(options: { searchIndexWindow?: number } = {}) {
  const db = openDatabase(":memory:");
  await migrate(db);
  await db.execute({
    sql: `INSERT INTO users (id, name, email, email_normalized, password_hash, password_changed_at, created_at, updated_at)
          VALUES (?, 'Swap Test', 'swap@example.com', 'swap@example.com', 'x', 't', 't', 't')`,
    args: [USER],
  });
  let ids = 0;
  const repo = createCatalogRepo(db, createSearchCache(), options);
  const stage = (jobId: string, rows: AcumaticaItemRow[]) =>
    repo.stageAcumatica({ jobId, userId: USER, rows, newId: () => `id-${jobId}-${++ids}` });
  const listed = async (search = "") =>
    (
      await repo.list("acumatica", USER, {
        page: 1,
        limit: 100,
        search,
        sortBy: "sku",
        sortDirection: "asc",
      })
    ).rows;
  /** How many rows the trigram index alone would offer for a term (every user's). */
  const indexed = async (trigram: string) =>
    Number(
      (
        await db.execute({
          sql: "SELECT count(*) AS n FROM acumatica_products_sku_search WHERE acumatica_products_sku_search MATCH ?",
          args: [`"${trigram}"`],
        })
      ).rows[0]?.n,
    );
  const unindexedMark = async () =>
    (await db.execute("SELECT unindexed_from FROM catalog_state WHERE system = 'acumatica'")).rows[0]
      ?.unindexed_from;
  return { db, repo, stage, listed, indexed, unindexedMark };
}

function item(sku: string, priceCents: number): AcumaticaItemRow {
  return {
    acumaticaId: `note-${sku}`,
    sku,
    description: `Item ${sku}`,
    defaultPriceCents: priceCents,
    msrpCents: null,
    available: 1,
    onHand: 2,
    availableForShipping: 1,
    isStockItem: true,
    warehouses: [{ warehouseId: "MAIN", available: 1, onHand: 2, availableForShipping: 1 }],
  };
}

describe("catalog swap", () => {
  it("adds, updates, keeps and removes by key across chunks, ids kept for rows that stay", async () => {
    const { repo, stage, listed } = await repoOnFreshDatabase();
    await stage("pull-1", [item("A", 100), item("B", 200)]);
    await stage("pull-1", [item("C", 300)]);
    expect(
      await repo.swap("acumatica", { jobId: "pull-1", userId: USER, syncedAt: "2026-11-21T10:00:00.000Z" }),
    ).toEqual({
      total: 3,
      added: 3,
      updated: 0,
      unchanged: 0,
      removed: 0,
    });
    const before = new Map((await listed()).map((row) => [row[2], row[0]]));

    await stage("pull-2", [item("A", 100), item("B", 250)]);
    await stage("pull-2", [item("D", 400)]);
    expect(
      await repo.swap("acumatica", { jobId: "pull-2", userId: USER, syncedAt: "2026-11-21T11:00:00.000Z" }),
    ).toEqual({
      total: 3,
      added: 1,
      updated: 1,
      unchanged: 1,
      removed: 1,
    });
    const after = await listed();
    expect(after.map((row) => [row[2], row[4]])).toEqual([
      ["A", 100],
      ["B", 250],
      ["D", 400],
    ]);
    // One lastSynced for the catalog: the pull's.
    const page = await repo.list("acumatica", USER, {
      page: 1,
      limit: 10,
      search: "",
      sortBy: "lastSynced",
      sortDirection: "desc",
    });
    expect(page.lastSynced).toBe("2026-11-21T11:00:00.000Z");
    expect(after[0]?.[0]).toBe(before.get("A"));
    expect(after[1]?.[0]).toBe(before.get("B"));
  });

  it("keeps the last values of a key staged twice and counts it once", async () => {
    const { repo, stage, listed } = await repoOnFreshDatabase();
    await stage("pull-1", [item("A", 100)]);
    await stage("pull-1", [item("A", 150), item("B", 200)]);
    expect(
      await repo.swap("acumatica", { jobId: "pull-1", userId: USER, syncedAt: "2026-11-21T10:00:00.000Z" }),
    ).toMatchObject({
      total: 2,
      added: 2,
      updated: 0,
      unchanged: 0,
    });
    expect((await listed()).map((row) => [row[2], row[4]])).toEqual([
      ["A", 150],
      ["B", 200],
    ]);
  });

  it("gives each row a swap adds or changes its own change version above every earlier one, and keeps the rest", async () => {
    const { db, repo, stage } = await repoOnFreshDatabase();
    const versions = async () =>
      new Map(
        (await db.execute("SELECT sku, row_version FROM acumatica_products ORDER BY sku")).rows.map((row) => [
          String(row.sku),
          Number(row.row_version),
        ]),
      );
    const counter = async () =>
      Number((await db.execute("SELECT version FROM change_versions")).rows[0]?.version);
    await stage("pull-1", [item("A", 100), item("B", 200)]);
    await stage("pull-1", [item("C", 300)]);
    await repo.swap("acumatica", { jobId: "pull-1", userId: USER, syncedAt: "2026-11-21T10:00:00.000Z" });
    const first = await versions();
    expect(new Set(first.values()).size).toBe(3);
    const afterFirst = await counter();
    expect(Math.max(...first.values())).toBeLessThanOrEqual(afterFirst);

    // B changes, A is staged twice in two chunks (last values win), C stays, D is new, nothing else.
    await stage("pull-2", [item("A", 150), item("B", 250)]);
    await stage("pull-2", [item("C", 300), item("A", 175), item("D", 400)]);
    await repo.swap("acumatica", { jobId: "pull-2", userId: USER, syncedAt: "2026-11-21T11:00:00.000Z" });
    const second = await versions();
    expect(second.get("C")).toBe(first.get("C"));
    const written = ["A", "B", "D"].map((sku) => second.get(sku) ?? 0);
    expect(new Set(written).size).toBe(3);
    for (const version of written) {
      expect(version).toBeGreaterThan(afterFirst);
      expect(version).toBeLessThanOrEqual(await counter());
    }
  });

  it("stages a wide chunk in pieces of at most 48K characters of JSON, and the swap keeps every row in its place", async () => {
    const { db, repo, stage } = await repoOnFreshDatabase();
    // 500 items of about 450 characters each: one piece of JSON would be a large object on V8's heap.
    const rows = Array.from({ length: 500 }, (_, index) => ({
      ...item(`WIDE-${String(index).padStart(4, "0")}`, 100 + index),
      description: `Item ${index} ${"x".repeat(400)}`,
    }));
    await stage("pull-1", rows);
    const pieces = await db.execute(
      "SELECT chunk, first_row, row_count, length(rows_json) AS chars FROM catalog_staging ORDER BY chunk",
    );
    expect(pieces.rows.length).toBeGreaterThan(4);
    let next = 0;
    for (const piece of pieces.rows) {
      expect(Number(piece.chars)).toBeLessThanOrEqual(48 * 1024);
      expect(Number(piece.first_row)).toBe(next);
      next += Number(piece.row_count);
    }
    expect(next).toBe(500);
    const counts = await repo.swap("acumatica", {
      jobId: "pull-1",
      userId: USER,
      syncedAt: "2026-11-21T10:00:00.000Z",
    });
    expect(counts).toMatchObject({ total: 500, added: 500 });
    const stored = await db.execute(
      "SELECT sku, default_price_cents, row_version - (SELECT min(row_version) FROM acumatica_products) AS place FROM acumatica_products ORDER BY sku",
    );
    expect(stored.rows.map((row) => [row.sku, Number(row.default_price_cents), Number(row.place)])).toEqual(
      rows.map((row, index) => [row.sku, row.defaultPriceCents, index]),
    );
  });

  it("empties the pull's staging, and a discarded pull leaves the catalog as it was", async () => {
    const { db, repo, stage, listed } = await repoOnFreshDatabase();
    await stage("pull-1", [item("A", 100)]);
    await repo.swap("acumatica", { jobId: "pull-1", userId: USER, syncedAt: "2026-11-21T10:00:00.000Z" });
    await stage("pull-2", [item("B", 200)]);
    await repo.discardStaging("acumatica", { jobId: "pull-2" });
    expect((await listed()).map((row) => row[2])).toEqual(["A"]);
    const staged = await db.execute("SELECT count(*) AS n FROM catalog_staging");
    expect(Number(staged.rows[0]?.n)).toBe(0);
  });

  it("finds a pull's new rows by SKU right after the swap, before and after their search entries are written", async () => {
    // Two rowids per transaction: indexSearch takes several windows here.
    const { repo, stage, listed, indexed, unindexedMark } = await repoOnFreshDatabase({
      searchIndexWindow: 2,
    });
    await stage("pull-1", [item("ALPHA-100", 100), item("BETA-200", 200), item("GAMMA-300", 300)]);
    await repo.swap("acumatica", { jobId: "pull-1", userId: USER, syncedAt: "2026-11-21T10:00:00.000Z" });
    // The swap left its rows to indexSearch: searches scan the SKU index meanwhile.
    expect(await indexed("pha")).toBe(0);
    expect(await unindexedMark()).not.toBeNull();
    expect((await listed("pha-1")).map((row) => row[2])).toEqual(["ALPHA-100"]);

    // A second pull before the first one's rows were indexed: one removed, one added.
    await stage("pull-2", [item("ALPHA-100", 100), item("GAMMA-300", 300), item("DELTA-400", 400)]);
    await repo.swap("acumatica", { jobId: "pull-2", userId: USER, syncedAt: "2026-11-21T11:00:00.000Z" });
    expect((await listed("a-")).map((row) => row[2])).toEqual(["ALPHA-100", "DELTA-400", "GAMMA-300"]);

    await repo.indexSearch("acumatica", USER);
    expect(await unindexedMark()).toBeNull();
    expect(await indexed("pha")).toBe(1);
    expect(await indexed("amm")).toBe(1);
    expect(await indexed("del")).toBe(1);
    expect(await indexed("bet")).toBe(0);
    expect((await listed("lta-4")).map((row) => row[2])).toEqual(["DELTA-400"]);
    expect((await listed("a-")).map((row) => row[2])).toEqual(["ALPHA-100", "DELTA-400", "GAMMA-300"]);
    // Indexing again changes nothing (entries are replaced, not doubled).
    await repo.indexSearch("acumatica", USER);
    expect(await indexed("pha")).toBe(1);
  });

  it("finds a SKU holding a NUL by its text once search entries are written (the FTS query stops at a NUL)", async () => {
    const { repo, stage, listed, unindexedMark } = await repoOnFreshDatabase();
    await stage("pull-1", [item("AB\u0000CD-1", 100), item("ABCD-2", 200), item('A"B*C-3', 300)]);
    await repo.swap("acumatica", { jobId: "pull-1", userId: USER, syncedAt: "2026-11-21T10:00:00.000Z" });
    await repo.indexSearch("acumatica", USER);
    expect(await unindexedMark()).toBeNull();
    expect((await listed("b\u0000cd")).map((row) => row[2])).toEqual(["AB\u0000CD-1"]);
    expect((await listed("\u0000")).map((row) => row[2])).toEqual(["AB\u0000CD-1"]);
    expect((await listed("bcd")).map((row) => row[2])).toEqual(["ABCD-2"]);
    expect((await listed('"b*c')).map((row) => row[2])).toEqual(['A"B*C-3']);
  });
});
